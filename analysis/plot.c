// SPDX-License-Identifier: MIT
/*
 * plot.c - render a figure: its data function writes a temporary data
 * file, then gnuplot runs its script from analysis/ with
 *
 *   gnuplot -e "datafile='D'; outfile='O'; term='pngcairo'|'svg'; ..." analysis/NAME.gp
 *
 * through fork + execvp on an argument vector (never a shell), in the
 * directory that holds analysis/, so that gnuplot's own messages name the
 * script by its relative path. Every string of the -e program is a quoted
 * constant (gp-string.c); labels from the database travel in the data
 * file. gnuplot's output is copied to our stderr (nothing but data ever
 * reaches stdout) and its last line is the reason given when it fails.
 *
 * gnuplot opens its output by name, so it is never given a path in the
 * user's directory: it writes into a private directory (out_tmpdir_make())
 * and the figure is moved into the output directory under a temporary
 * name and renamed into place (out-file.h); when gnuplot fails, an
 * existing figure of that name is left as it was. Nor is a figure drawn
 * when a query failed while its data was read (analysis_query_failed()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis.h"
#include "figures.h"
#include "gp-string.h"
#include "out-file.h"
#include "paths.h"
#include "plot.h"

#define EXPR_MAX 16384

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

/* Whether @s holds a control character (refused in a figure's file name). */
static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* Append "NAME=" and @value quoted to @buf; 0 or -errno. */
static int expr_add(char *buf, size_t len, const char *name, const char *value)
{
	size_t l = strlen(buf);
	int n = snprintf(buf + l, len - l, "%s%s=", l ? "; " : "", name);

	if (n < 0 || (size_t)n >= len - l)
		return -ENOSPC;
	l += (size_t)n;
	return gp_string_quote(buf + l, len - l, value);
}

/* The -e program: the three file settings, then the figure's own. */
static int build_expr(char *buf, size_t len, const char *data, const char *out,
		      const char *term, const char *vars)
{
	int ret;

	buf[0] = '\0';
	ret = expr_add(buf, len, "datafile", data) ?:
	      expr_add(buf, len, "outfile", out) ?:
	      expr_add(buf, len, "term", term);
	if (!ret && *vars && strlen(buf) + 2 + strlen(vars) >= len)
		ret = -ENOSPC;
	if (!ret && *vars) {
		strcat(buf, "; ");
		strcat(buf, vars);
	}
	return ret;
}

/* Child: cd to @dir, output to @logfd, exec; or send errno up the pipe. */
static void __attribute__((noreturn)) exec_child(int errfd, int logfd, const char *dir,
						 char *const argv[])
{
	int e;

	dup2(logfd, STDOUT_FILENO);
	dup2(logfd, STDERR_FILENO);
	if (!chdir(dir))
		execvp(argv[0], argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

/* Copy gnuplot's output (@fd, from its start) to stderr; last line into @line. */
static void relay_output(int fd, char *line, size_t len)
{
	char buf[8192], *end, *beg;
	size_t k;
	ssize_t n;

	line[0] = '\0';
	if (lseek(fd, 0, SEEK_SET) < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		if (write(STDERR_FILENO, buf, (size_t)n) < 0)
			break;
		buf[n] = '\0';
		for (end = buf + n; end > buf && (end[-1] == '\n' || end[-1] == ' '); end--)
			;
		*end = '\0';
		beg = strrchr(buf, '\n');
		beg = beg ? beg + 1 : buf;
		k = (size_t)(end - beg) < len ? (size_t)(end - beg) : len - 1;
		if (end > buf) {
			memcpy(line, beg, k);
			line[k] = '\0';
		}
	}
}

/* Fork and exec @argv in @dir, its output in @logfd; errno of exec or 0. */
static int spawn(char *const argv[], const char *dir, int logfd, int *status)
{
	int pfd[2], e = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return errno;
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(pfd[0]);
		close(pfd[1]);
		return e;
	}
	if (!pid)
		exec_child(pfd[1], logfd, dir, argv);
	close(pfd[1]);
	if (read(pfd[0], &e, sizeof(e)) != sizeof(e))
		e = 0;
	close(pfd[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return e;
}

/* A temporary file under $TMPDIR (absolute) or /tmp; its name into @path. */
static int tmp_open(char *path, size_t len, const char *what)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(path, len, "%s/cvmbench-%s-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp",
		 what);
	return mkstemp(path);
}

/* Run gnuplot on @argv in @dir; 0, -ENOENT (not found) or -EIO, @why set. */
static int run_gnuplot(char *const argv[], const char *dir, const char *rel,
		       char *why, size_t whylen)
{
	char log[PATH_MAX], last[400];
	int fd, e, status = 0;

	fd = tmp_open(log, sizeof(log), "gnuplot");
	if (fd < 0) {
		snprintf(why, whylen, "cannot create a temporary file: %s", strerror(errno));
		return -EIO;
	}
	unlink(log);
	e = spawn(argv, dir, fd, &status);
	relay_output(fd, last, sizeof(last));
	close(fd);
	if (e) {
		snprintf(why, whylen, "cannot run %s: %s%s", argv[0], strerror(e),
			 e == ENOENT ? " (install gnuplot, e.g. apt-get install gnuplot-nox)" : "");
		return -ENOENT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, whylen, "gnuplot failed on %s (status %d)%s%s", rel,
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
			 *last ? ": " : "", last);
		return -EIO;
	}
	return 0;
}

static int write_data(const struct figure *fig, struct figure_ctx *ctx,
		      char *path, size_t len, char *why, size_t whylen)
{
	int ret, fd = tmp_open(path, len, "plot");
	unsigned int errors;

	ctx->data = fd < 0 ? NULL : fdopen(fd, "w");
	if (!ctx->data) {
		snprintf(why, whylen, "cannot create a data file: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		path[0] = '\0';
		return -EIO;
	}
	errors = analysis_query_failed();
	ret = fig->write_data(ctx);
	if (fclose(ctx->data) && !ret)
		ret = -EIO;
	if (analysis_query_failed() != errors) {
		/* a figure of part of the data is no figure of the run */
		snprintf(why, whylen, "a query failed (above): no figure drawn");
		return -EIO;
	}
	if (ret == -ENODATA)
		snprintf(why, whylen, "%s", ctx->why);
	else if (ret)
		snprintf(why, whylen, "writing the data of %s failed", fig->name);
	else if (ctx->vars_err)
		snprintf(why, whylen, "%s: the value of %s cannot be given to gnuplot (%s)",
			 fig->name, ctx->vars_bad, ctx->vars_err == -EINVAL ?
			 "a control character or a bad name" : "too long");
	return ret ?: (ctx->vars_err ? -EIO : 0);
}

/*
 * The directory that holds analysis/SCRIPT (@root), found as the data
 * file analysis/SCRIPT (@rel); 0 or -ENOENT, @why set.
 */
static int script_root(const struct figure *fig, char *rel, size_t rlen, char *root,
		       size_t len, char *why, size_t whylen)
{
	char path[PATH_MAX];
	size_t p, r;

	if (snprintf(rel, rlen, "analysis/%s", fig->script) >= (int)rlen ||
	    datadir_path(rel, path, sizeof(path))) {
		snprintf(why, whylen, "gnuplot script analysis/%s not found", fig->script);
		return -ENOENT;
	}
	p = strlen(path);
	r = strlen(rel);
	if (p <= r || strcmp(path + p - r, rel) || p - r >= len) {
		snprintf(why, whylen, "%s: not where it was looked for", path);
		return -ENOENT;
	}
	snprintf(root, len, "%.*s", (int)(p - r), path);
	return 0;
}

/* Build the -e program and run gnuplot; -EINVAL for an unquotable path. */
static int draw(const char *root, const char *rel, const char *data, const char *out,
		const char *term, const struct figure_ctx *ctx, char *why, size_t whylen)
{
	char *argv[5], *expr = malloc(EXPR_MAX);
	int ret;

	if (!expr)
		return -ENOMEM;
	ret = build_expr(expr, EXPR_MAX, data, out, term, ctx->vars);
	if (ret) {
		snprintf(why, whylen, "%s: %s", out, ret == -EINVAL ?
			 "a file name with a control character cannot be given to gnuplot" :
			 "too long for gnuplot's command line");
		free(expr);
		return -EINVAL;
	}
	argv[0] = "gnuplot";
	argv[1] = "-e";
	argv[2] = expr;
	argv[3] = (char *)rel;
	argv[4] = NULL;
	ret = run_gnuplot(argv, root, rel, why, whylen);
	free(expr);
	return ret;
}

/**
 * plot_render() - draw @fig for run @run_id of @h into the file @name of
 * @dir (.png with pngcairo, .svg with svg). Returns 0; -ENODATA when there
 * is nothing to draw; -ENOENT when gnuplot or the script is missing;
 * -EINVAL for an unknown extension; -EIO when gnuplot fails or a string
 * cannot be given to it; -EPERM when @name may not be written (a symlink,
 * not a regular file: logged, out-file.h). @why says why (not logged),
 * naming the script by its relative path analysis/NAME.gp.
 */
int plot_render(const struct figure *fig, struct sqlite3 *h, int64_t run_id,
		const struct out_dir *dir, const char *name, char *why, size_t whylen)
{
	return plot_render_src(fig, h, run_id, dir, name, why, whylen, NULL);
}

static int render(const struct figure *fig, struct sqlite3 *h, int64_t run_id, const char *only,
		  const struct out_dir *dir, const char *name, char *why, size_t whylen,
		  struct figure_ctx *src);

/** plot_render_only() - plot_render() of the one cell @only (plot --only CELLKEY). */
int plot_render_only(const struct figure *fig, struct sqlite3 *h, int64_t run_id,
		     const char *only, const struct out_dir *dir, const char *name,
		     char *why, size_t whylen)
{
	return render(fig, h, run_id, only, dir, name, why, whylen, NULL);
}

/**
 * plot_render_src() - plot_render(), and when @src is not NULL, a copy of
 * the figure's context after its data was written: src_* say where the
 * data came from (figure_source()), for the report's caption.
 */
int plot_render_src(const struct figure *fig, struct sqlite3 *h, int64_t run_id,
		    const struct out_dir *dir, const char *name, char *why, size_t whylen,
		    struct figure_ctx *src)
{
	return render(fig, h, run_id, NULL, dir, name, why, whylen, src);
}

/* Move the figure @priv/@file gnuplot drew into place as @o; 0 or -EIO. */
static int move_in(struct out_file *o, const char *priv, const char *file,
		   char *why, size_t whylen)
{
	int fd = open(priv, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	ret = fd < 0 ? -errno : out_file_adopt(o, fd, file);
	if (fd >= 0)
		close(fd);
	if (!ret)
		ret = out_file_commit(o);
	else
		out_file_abort(o);
	if (ret)
		snprintf(why, whylen, "%s/%s: cannot put the figure in place: %s",
			 o->dir->path, o->name, strerror(-ret));
	return ret ? -EIO : 0;
}

/* Write the data, let gnuplot draw into @priv, then move the figure into @o. */
static int draw_into(const struct figure *fig, struct figure_ctx *ctx, struct out_file *o,
		     const char *priv, const char *term, char *why, size_t whylen,
		     struct figure_ctx *src)
{
	char rel[256], root[PATH_MAX], data[PATH_MAX], file[16], abs[PATH_MAX + 16];
	int ret;

	snprintf(file, sizeof(file), "figure.%s", strcmp(term, "svg") ? "png" : "svg");
	snprintf(abs, sizeof(abs), "%s/%s", priv, file);
	ret = script_root(fig, rel, sizeof(rel), root, sizeof(root), why, whylen);
	if (ret)
		return ret;
	ret = write_data(fig, ctx, data, sizeof(data), why, whylen);
	if (src)
		*src = *ctx;
	if (!ret)
		ret = draw(root, rel, data, abs, term, ctx, why, whylen);
	if (data[0])
		unlink(data);
	return ret ?: move_in(o, priv, file, why, whylen);
}

static int render(const struct figure *fig, struct sqlite3 *h, int64_t run_id, const char *only,
		  const struct out_dir *dir, const char *name, char *why, size_t whylen,
		  struct figure_ctx *src)
{
	struct figure_ctx ctx = { .h = h, .run_id = run_id, .only = only };
	const char *term = term_for(name);
	char priv[PATH_MAX];
	struct out_file o;
	int ret;

	if (!term) {
		snprintf(why, whylen, "%s: give a .png or .svg file name", name);
		return -EINVAL;
	}
	if (has_control(name)) {
		snprintf(why, whylen, "%s: a file name with a control character cannot be "
			 "given to gnuplot", name);
		return -EINVAL;
	}
	ret = out_file_create_tmp(&o, dir, name);
	if (ret) {
		snprintf(why, whylen, "%s/%s: cannot write it (%s)", dir->path, name,
			 ret == -EPERM ? "refused" : strerror(-ret));
		return ret == -EPERM ? -EPERM : -EIO;
	}
	ret = out_tmpdir_make(priv, sizeof(priv));
	if (ret) {
		snprintf(why, whylen, "cannot make a temporary directory: %s", strerror(-ret));
		out_file_abort(&o);
		return -EIO;
	}
	ret = draw_into(fig, &ctx, &o, priv, term, why, whylen, src);
	if (ret && o.tmp[0])
		out_file_abort(&o);       /* an existing figure is left as it was */
	out_tmpdir_remove(priv);
	return ret;
}
