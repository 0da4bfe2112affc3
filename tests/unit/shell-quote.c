// SPDX-License-Identifier: MIT
/*
 * shell-quote.c - shell_quote() against bash itself: each hostile string,
 * quoted, is put into `printf %s WORD` and run by bash (and by dash where
 * it exists); what comes out must be the string byte for byte, and no
 * command hidden in it may run (a marker file it would create must not
 * exist). bash's own `printf %q` of the string must read back the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shell-quote.h"
#include "tap.h"

static char marker[64];

/* Run @shell -c @script; its stdout into @out (at most @len - 1 bytes). */
static int run_shell(const char *shell, const char *script, const char *arg, char *out,
		     size_t len)
{
	int fds[2], status;
	size_t got = 0;
	ssize_t r;
	pid_t pid;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (!pid) {
		dup2(fds[1], 1);
		close(fds[0]);
		execl(shell, shell, "-c", script, "sh", arg, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (got < len - 1 && (r = read(fds[0], out + got, len - 1 - got)) > 0)
		got += (size_t)r;
	out[got] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void check(const char *shell, const char *s, const char *what)
{
	char *q = shell_quote(s), *script, out[8192];
	int rc;

	if (!q || asprintf(&script, "printf %%s %s", q) < 0) {
		tap_ok(0, "%s: %s: out of memory", shell, what);
		free(q);
		return;
	}
	unlink(marker);
	rc = run_shell(shell, script, NULL, out, sizeof(out));
	tap_ok(rc == 0 && !strcmp(out, s) && access(marker, F_OK),
	       "%s reads %s back as it was, running nothing", shell, what);
	free(script);
	free(q);
}

/* bash's printf %q of @s, evaluated by bash, gives @s: the same word. */
static void check_q(const char *s, const char *what)
{
	char out[8192], *q = shell_quote(s), *script;
	int rc;

	if (!q || asprintf(&script, "q=$(printf %%q \"$1\"); eval \"a=$q\"; b=%s; "
			   "[ \"$a\" = \"$1\" ] && [ \"$b\" = \"$1\" ] && printf same", q) < 0)
		return;
	rc = run_shell("/bin/bash", script, s, out, sizeof(out));
	tap_ok(rc == 0 && !strcmp(out, "same"), "bash printf %%q and shell_quote agree on %s", what);
	free(script);
	free(q);
}

int main(void)
{
	static const struct { const char *s, *what; } cases[] = {
		{ "", "the empty string" },
		{ "plain/path.ini", "a plain path" },
		{ "it's", "a single quote" },
		{ "''''", "only single quotes" },
		{ "'; touch MARK; '", "a quote closing into a command" },
		{ "$(touch MARK)", "a command substitution" },
		{ "`touch MARK`", "backticks" },
		{ "a b\tc\nd", "blanks, a tab and a newline" },
		{ "\\'\\", "backslashes around a quote" },
		{ "!!", "history expansion" },
		{ "${HOME} $HOME ~", "parameters and a tilde" },
		{ "*?[a]", "glob characters" },
		{ "x\n#SBATCH --exclusive\n", "an #SBATCH line inside" },
		{ "\x01\x1b[31m\x7f", "control bytes" },
		{ "na\xc3\xafve \xe2\x9c\x93", "UTF-8" },
		{ "; touch MARK & touch MARK | touch MARK", "command separators" },
	};
	char buf[256];
	size_t i, j;

	snprintf(marker, sizeof(marker), "/tmp/shell-quote-%d", (int)getpid());
	tap_plan((int)(sizeof(cases) / sizeof(cases[0])) * 3);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i].s;
		char *t = strstr(s, "MARK") ? buf : (char *)s;

		if (t == buf) {         /* MARK: the marker file's path */
			buf[0] = '\0';
			for (j = 0; s[j]; j++) {
				if (!strncmp(s + j, "MARK", 4)) {
					strcat(buf, marker);
					j += 3;
				} else {
					strncat(buf, s + j, 1);
				}
			}
		}
		check("/bin/bash", t, cases[i].what);
		check(access("/bin/dash", X_OK) ? "/bin/sh" : "/bin/dash", t, cases[i].what);
		check_q(t, cases[i].what);
	}
	unlink(marker);
	return tap_failed ? 1 : 0;
}
