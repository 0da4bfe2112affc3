// SPDX-License-Identifier: MIT
/*
 * plot.c - render a figure: its data function writes a temporary data
 * file, then gnuplot runs its script from analysis/ with
 *
 *   gnuplot -e "datafile='D'; outfile='O'; term='pngcairo'|'svg'; ..." SCRIPT
 *
 * through fork + execvp (never a shell). gnuplot's stdout goes to our
 * stderr, so nothing but data ever reaches stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paths.h"
#include "figures.h"
#include "log.h"
#include "plot.h"

/* gnuplot's terminal for the extension of @out, or NULL. */
static const char *term_for(const char *out)
{
	const char *dot = strrchr(out, '.');

	if (dot && !strcasecmp(dot, ".png"))
		return "pngcairo";
	if (dot && !strcasecmp(dot, ".svg"))
		return "svg";
	return NULL;
}

/* Append @s as a gnuplot single-quoted string ('' stands for '). */
static void gp_quote(char *buf, size_t len, const char *s)
{
	size_t l = strlen(buf);

	if (l + 1 < len)
		buf[l++] = '\'';
	for (; *s && l + 3 < len; s++) {
		if (*s == '\'')
			buf[l++] = '\'';
		buf[l++] = *s;
	}
	if (l + 1 < len)
		buf[l++] = '\'';
	buf[l] = '\0';
}

static void build_expr(char *buf, size_t len, const char *data, const char *out,
		       const char *term, const char *vars)
{
	snprintf(buf, len, "datafile=");
	gp_quote(buf, len, data);
	strncat(buf, "; outfile=", len - strlen(buf) - 1);
	gp_quote(buf, len, out);
	strncat(buf, "; term=", len - strlen(buf) - 1);
	gp_quote(buf, len, term);
	if (*vars) {
		strncat(buf, "; ", len - strlen(buf) - 1);
		strncat(buf, vars, len - strlen(buf) - 1);
	}
}

/* Child side: stdout to stderr, exec, or send errno up the pipe. */
static void __attribute__((noreturn)) exec_child(int errfd, char *const argv[])
{
	int e;

	dup2(STDERR_FILENO, STDOUT_FILENO);
	execvp(argv[0], argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

/* Run @argv; 0, -ENOENT (not found) or -EIO (failed), @why set. */
static int run_gnuplot(char *const argv[], char *why, size_t whylen)
{
	int pfd[2], status, e = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (!pid)
		exec_child(pfd[1], argv);
	close(pfd[1]);
	if (read(pfd[0], &e, sizeof(e)) != sizeof(e))
		e = 0;
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (e) {
		snprintf(why, whylen, "cannot run %s: %s%s", argv[0], strerror(e),
			 e == ENOENT ? " (install gnuplot, e.g. apt-get install gnuplot-nox)" : "");
		return -ENOENT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, whylen, "gnuplot failed on %s (status %d)", argv[3],
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return -EIO;
	}
	return 0;
}

/* Temporary data file; its name into @path. */
static FILE *data_open(char *path, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(path, len, "%s/cvmbench-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	return fd < 0 ? NULL : fdopen(fd, "w");
}

static int write_data(const struct figure *fig, struct figure_ctx *ctx,
		      char *path, size_t len, char *why, size_t whylen)
{
	int ret;

	ctx->data = data_open(path, len);
	if (!ctx->data) {
		snprintf(why, whylen, "cannot create a data file: %s", strerror(errno));
		return -EIO;
	}
	ret = fig->write_data(ctx);
	if (fclose(ctx->data) && !ret)
		ret = -EIO;
	if (ret == -ENODATA)
		snprintf(why, whylen, "%s", ctx->why);
	else if (ret)
		snprintf(why, whylen, "writing the data of %s failed", fig->name);
	return ret;
}

/**
 * plot_render() - draw @fig for run @run_id of @h into @out (.png with
 * pngcairo, .svg with svg). Returns 0; -ENODATA when there is nothing to
 * draw; -ENOENT when gnuplot or the script is missing; -EINVAL for an
 * unknown extension; -EIO when gnuplot fails. @why says why (not logged).
 */
int plot_render(const struct figure *fig, struct sqlite3 *h, int64_t run_id,
		const char *out, char *why, size_t whylen)
{
	struct figure_ctx ctx = { .h = h, .run_id = run_id };
	char rel[256], script[4096], data[4096], expr[12288];
	const char *term = term_for(out);
	char *argv[5];
	int ret;

	if (!term) {
		snprintf(why, whylen, "%s: give a .png or .svg file name", out);
		return -EINVAL;
	}
	if (snprintf(rel, sizeof(rel), "analysis/%s", fig->script) >=
	    (int)sizeof(rel) || datadir_path(rel, script, sizeof(script))) {
		snprintf(why, whylen, "gnuplot script analysis/%s not found", fig->script);
		return -ENOENT;
	}
	ret = write_data(fig, &ctx, data, sizeof(data), why, whylen);
	if (!ret) {
		build_expr(expr, sizeof(expr), data, out, term, ctx.vars);
		argv[0] = "gnuplot";
		argv[1] = "-e";
		argv[2] = expr;
		argv[3] = script;
		argv[4] = NULL;
		ret = run_gnuplot(argv, why, whylen);
		if (ret == -EIO)
			unlink(out);     /* no half-drawn figure left behind */
	}
	unlink(data);
	return ret;
}
