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
#include "log.h"
#include "paths.h"
#include "plot-data.h"
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

/* The label that says which points were left out (plot-data.c), if any. */
#define NOTE_LABEL "; set label 99 note at screen 0.995, 0.012 right font ',8' " \
	"textcolor rgb '#993300' noenhanced front"

/*
 * The -e program: the three file settings, the note on points left out
 * (a label when there is one), then the figure's own settings.
 */
static int build_expr(char *buf, size_t len, const char *data, const char *out,
		      const char *term, const char *note, const char *vars)
{
	int ret;

	buf[0] = '\0';
	ret = expr_add(buf, len, "datafile", data) ?:
	      expr_add(buf, len, "outfile", out) ?:
	      expr_add(buf, len, "term", term) ?:
	      expr_add(buf, len, "note", note);
	if (!ret && *note && strlen(buf) + sizeof(NOTE_LABEL) < len)
		strcat(buf, NOTE_LABEL);
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

/* gnuplot's output (@fd, from its start), NUL-terminated and malloc'd, or NULL. */
static char *log_read(int fd)
{
	char chunk[8192], *buf = NULL;
	size_t n = 0;
	ssize_t k;
	FILE *m;

	if (lseek(fd, 0, SEEK_SET) < 0 || !(m = open_memstream(&buf, &n)))
		return NULL;
	while ((k = read(fd, chunk, sizeof(chunk))) > 0)
		fwrite(chunk, 1, (size_t)k, m);
	if (fclose(m))
		return NULL;
	return buf;
}

/*
 * gnuplot's first error line of @log into @line: the first "FILE" line N:
 * message that is not a warning, else the last line that is not blank.
 */
static void first_error(const char *log, char *line, size_t len)
{
	const char *p, *nl, *pick = NULL;
	size_t k = 0;

	for (p = log; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		k = nl ? (size_t)(nl - p) : strlen(p);
		if (strspn(p, " \t") < k)
			pick = p;
		if (strstr(p, "\" line ") && strstr(p, "\" line ") < p + k &&
		    !memmem(p, k, "warning:", 8))
			break;
	}
	p = pick ? pick : "";
	k = strcspn(p, "\n");
	snprintf(line, len, "%.*s", (int)k, p);
}

/* Whether gnuplot's @log says that no point is left to draw. */
static int log_nothing_drawn(const char *log)
{
	return (strstr(log, "all points ") && strstr(log, " value undefined")) ||
	       strstr(log, "No valid points in histogram");
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

/*
 * What gnuplot's exit @status and output @log (NULL: unread) mean: 0,
 * -ENODATA (no point left to draw: its output is not shown) or -EIO; the
 * output is copied to stderr otherwise, @why set.
 */
static int gnuplot_verdict(int status, const char *log, const char *rel,
			   char *why, size_t whylen)
{
	char first[400] = "";
	int failed = !WIFEXITED(status) || WEXITSTATUS(status);

	if (failed && log && log_nothing_drawn(log)) {
		snprintf(why, whylen, "no point is left that gnuplot can draw (every value "
			 "is missing, or <= 0 on a log axis)");
		return -ENODATA;
	}
	if (log)
		fputs(log, stderr);
	if (!failed)
		return 0;
	if (log)
		first_error(log, first, sizeof(first));
	snprintf(why, whylen, "gnuplot failed on %s (status %d)%s%s", rel,
		 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
		 *first ? ": " : "", first);
	return -EIO;
}

/* Run gnuplot on @argv in @dir; 0, -ENOENT (not found), -ENODATA or -EIO, @why set. */
static int run_gnuplot(char *const argv[], const char *dir, const char *rel,
		       char *why, size_t whylen)
{
	char path[PATH_MAX], *log;
	int fd, e, ret, status = 0;

	fd = tmp_open(path, sizeof(path), "gnuplot");
	if (fd < 0) {
		snprintf(why, whylen, "cannot create a temporary file: %s", strerror(errno));
		return -EIO;
	}
	unlink(path);
	e = spawn(argv, dir, fd, &status);
	log = log_read(fd);
	close(fd);
	if (e) {
		free(log);
		snprintf(why, whylen, "cannot run %s: %s%s", argv[0], strerror(e),
			 e == ENOENT ? " (install gnuplot, e.g. apt-get install gnuplot-nox)" : "");
		return -ENOENT;
	}
	ret = gnuplot_verdict(status, log, rel, why, whylen);
	free(log);
	return ret;
}

/*
 * Write the figure's data into a new temporary file (its name into @path)
 * and hold it to the rule of plot-data.c: the points left out into @note.
 */
static int write_data(const struct figure *fig, struct figure_ctx *ctx,
		      char *path, size_t len, char *note, size_t notelen,
		      char *why, size_t whylen)
{
	struct plot_drop drop;
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
	if (!ret && plot_data_clean(path, !!(fig->flags & FIGURE_SIGNED), &drop))
		ret = -EIO;
	if (!ret)
		plot_drop_note(&drop, note, notelen);
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
		const char *term, const char *note, const struct figure_ctx *ctx,
		char *why, size_t whylen)
{
	char *argv[5], *expr = malloc(EXPR_MAX);
	int ret;

	if (!expr)
		return -ENOMEM;
	ret = build_expr(expr, EXPR_MAX, data, out, term, note, ctx->vars);
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
	char note[200] = "";
	size_t l;
	int ret;

	snprintf(file, sizeof(file), "figure.%s", strcmp(term, "svg") ? "png" : "svg");
	snprintf(abs, sizeof(abs), "%s/%s", priv, file);
	ret = script_root(fig, rel, sizeof(rel), root, sizeof(root), why, whylen);
	if (ret)
		return ret;
	ret = write_data(fig, ctx, data, sizeof(data), note, sizeof(note), why, whylen);
	if (src)
		*src = *ctx;
	if (!ret)
		ret = draw(root, rel, data, abs, term, note, ctx, why, whylen);
	if (data[0])
		unlink(data);
	l = strlen(why);
	if (ret == -ENODATA && *note && l + 3 < whylen)
		snprintf(why + l, whylen - l, "; %s", note);
	else if (!ret && *note)
		pr_warn("%s: %s", fig->name, note);
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
