// SPDX-License-Identifier: MIT
/*
 * tests/unit/gp-string.c - strings handed to gnuplot (gp-string.c,
 * figure_var_*() of figures.c): quotes doubled, control characters
 * (gp_string_quote()) and overflows refused without a truncated constant,
 * a variable's control characters drawn as spaces, data-file fields that
 * cannot end early. Then gnuplot itself, the independent reference: each
 * hostile string quoted by gp_string_quote() and printed by gnuplot must
 * come back unchanged, and must not run the command it holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "figures.h"
#include "gp-string.h"
#include "tap.h"

static const char *const hostile[] = {
	"x'; system('touch MARK'); print '",
	"x\"; system(\"touch MARK\"); print \"",
	"x'\"; system(\"touch MARK\"); print \"'",
	"`touch MARK`", "@titles", "a''b", "'", "''", "\\' ; system('touch MARK') #",
	"µs", "",
};

static void test_quote(void)
{
	char b[64];

	tap_ok(!gp_string_quote(b, sizeof(b), "a'b") && !strcmp(b, "'a'.\"'\".'b'"),
	       "a quote is joined in as \"'\" ('a'.\"'\".'b')");
	tap_ok(!gp_string_quote(b, sizeof(b), "") && !strcmp(b, "''"),
	       "the empty string is ''");
	tap_ok(gp_string_quote(b, sizeof(b), "a\nsystem('x')") == -EINVAL && !b[0],
	       "a newline is refused, nothing written");
	tap_ok(gp_string_quote(b, sizeof(b), "a\tb") == -EINVAL, "a tab is refused");
	tap_ok(gp_string_quote(b, 6, "abcd") == -ENOSPC && !b[0],
	       "a string that does not fit is refused, not truncated");
	tap_ok(gp_string_quote(b, 12, "abc'") == -ENOSPC && !b[0],
	       "... also when only the joined quote does not fit");
	tap_ok(!gp_string_quote(b, 6, "abc") && !strcmp(b, "'abc'"),
	       "an exact fit is kept");
}

static void test_data(void)
{
	char buf[128] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	gp_data_string(f, "a\"b\nc");
	fputc(' ', f);
	gp_data_string(f, "");
	fclose(f);
	tap_ok(!strcmp(buf, "\"a'b c\" \"-\""),
	       "data field: '\"' becomes ', newline a space, empty is \"-\" (%s)", buf);
}

/* A label longer than GP_LABEL_MAX is cut in its middle, its end kept. */
static void test_data_cut(void)
{
	char buf[512] = "", want[128], in[128], utf[128];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	size_t i;

	for (i = 0; i < 100; i++)
		in[i] = (char)('a' + i % 26);
	in[100] = '\0';
	gp_data_string(f, in);
	fputc(' ', f);
	memset(utf, 'x', 100);
	memcpy(utf + GP_LABEL_MAX - GP_LABEL_TAIL - 2, "\xc3\xa9", 2);
	utf[100] = '\0';
	gp_data_string(f, utf);
	fclose(f);
	snprintf(want, sizeof(want), "\"%.*s\u2026%s\" ", GP_LABEL_MAX - GP_LABEL_TAIL - 1, in,
		 in + 100 - GP_LABEL_TAIL);
	tap_ok(!strncmp(buf, want, strlen(want)) && gp_label_len(in) == GP_LABEL_MAX,
	       "a 100-character label: head, '\u2026', its last %d characters (%s)",
	       GP_LABEL_TAIL, buf);
	/* é at bytes 34-35, astride the cut after 35: left out, not halved */
	tap_ok(!strcmp(buf + strlen(want), "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\u2026"
		       "xxxxxxxxxxxx\""),
	       "... a two-byte character astride the cut is left out, not halved (%s)",
	       buf + strlen(want));
	tap_ok(gp_label_len("h\xc3\xa9llo") == 5, "a short label's length counts characters");
}

static void test_vars(void)
{
	struct figure_ctx c = { 0 };
	char big[5000];

	figure_var_int(&c, "n", 3);
	figure_var_str(&c, "t", "a'b");
	figure_var_text(&c, "note", "one two three", 5);
	tap_ok(!c.vars_err && !strcmp(c.vars, "n=3; t='a'.\"'\".'b'; note='one'.\"\\n\"."
				     "'two'.\"\\n\".'three'"), "vars: %s", c.vars);
	memset(&c, 0, sizeof(c));
	figure_var_str(&c, "ctl", "line\nsystem('x')\x01\x1b[1m");
	tap_ok(!c.vars_err && !strcmp(c.vars, "ctl='line system('.\"'\".'x'.\"'\".')  [1m'"),
	       "a control character is drawn as a space (the rule of every label): %s",
	       c.vars);
	memset(&c, 0, sizeof(c));
	figure_var_int(&c, "x; system('y')", 1);
	tap_ok(c.vars_err == -EINVAL && !c.vars[0], "a variable name is checked too");
	memset(&c, 0, sizeof(c));
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	figure_var_int(&c, "n", 1);
	figure_var_str(&c, "big", big);
	tap_ok(c.vars_err == -ENOSPC && !strcmp(c.vars, "n=1"),
	       "a value too long fails the figure instead of being cut");
}

/* gnuplot -e "x=Q; set print '-'; print x"; its stdout into @out. */
static int gnuplot_print(const char *q, char *out, size_t len, const char *dir)
{
	char prog[1024];
	int pfd[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	snprintf(prog, sizeof(prog), "x=%s; set print '-'; print x", q);
	if (pipe(pfd))
		return -1;
	pid = fork();
	if (!pid) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		if (chdir(dir))
			_exit(126);
		execlp("gnuplot", "gnuplot", "-e", prog, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], out + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(pfd[0]);
	out[got > 0 && out[got - 1] == '\n' ? got - 1 : got] = '\0';
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_gnuplot(void)
{
	char dir[] = "/tmp/cvmbench-gptest-XXXXXX", q[256], out[512], mark[64];
	size_t i, bad = 0, ran = 0;
	struct stat sb;

	if (system("command -v gnuplot > /dev/null 2>&1") || !mkdtemp(dir)) {
		if (getenv("CI")) {     /* the reference tool must be there in CI */
			tap_ok(0, "gnuplot is installed (CI)");
			tap_ok(0, "gnuplot is installed (CI)");
			return;
		}
		printf("ok %d # SKIP gnuplot is not installed (apt-get install gnuplot-nox)\n",
		       ++tap_count);
		printf("ok %d # SKIP gnuplot is not installed\n", ++tap_count);
		return;
	}
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		gp_string_quote(q, sizeof(q), hostile[i]);
		if (gnuplot_print(q, out, sizeof(out), dir) || strcmp(out, hostile[i])) {
			printf("# %s -> %s -> %s\n", hostile[i], q, out);
			bad++;
		}
	}
	snprintf(mark, sizeof(mark), "%s/MARK", dir);
	ran = !stat(mark, &sb);
	unlink(mark);
	rmdir(dir);
	tap_ok(!bad, "gnuplot prints each hostile string back unchanged (%zu of %zu)",
	       sizeof(hostile) / sizeof(hostile[0]) - bad, sizeof(hostile) / sizeof(hostile[0]));
	tap_ok(!ran, "and runs none of the commands they hold");
}

int main(void)
{
	tap_plan(17);
	test_quote();
	test_data();
	test_data_cut();
	test_vars();
	test_gnuplot();
	return tap_done();
}
