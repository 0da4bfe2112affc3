// SPDX-License-Identifier: MIT
/*
 * env-tools.c - versions of the programs that launch function instances:
 * qemu-system-x86_64, runc and crun, each found in PATH and run with
 * --version (first line of the output kept, 5 s timeout), and the
 * confidential-guest objects this QEMU knows (sev-guest, sev-snp-guest,
 * tdx-guest) from `qemu-system-x86_64 -object help`.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "env-local.h"

#define TOOL_TIMEOUT_S 5

static const struct {
	const char *prog;
	const char *key;
} tools[] = {
	{ "qemu-system-x86_64", "tools.qemu.version" },
	{ "runc", "tools.runc.version" },
	{ "crun", "tools.crun.version" },
};

/* Run @argv; 0 with the output in @out, else -errno and the reason in @out. */
static int tool_run(char *const argv[], char *out, size_t len)
{
	int status = 0, r = env_run_capture(argv, out, len, TOOL_TIMEOUT_S, &status);

	if (r == -ETIMEDOUT) {
		snprintf(out, len, "timed out after %d s", TOOL_TIMEOUT_S);
		return r;
	}
	if (r < 0) {
		snprintf(out, len, "cannot run: %s", strerror(-r));
		return r;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		out[strcspn(out, "\n")] = '\0';
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !out[0])
			snprintf(out, len, "exec failed");
		else if (!out[0])
			snprintf(out, len, "exit status 0x%x", status);
		return -EIO;
	}
	return 0;
}

static void tool_put_version(const struct env_sink *s, size_t i, char *path,
			     size_t plen)
{
	char *const argv[] = { path, "--version", NULL };
	char out[4096], src[640];

	if (env_which(tools[i].prog, path, plen)) {
		path[0] = '\0';
		env_put(s, tools[i].key, "search of PATH and sbin directories",
			"not installed");
		return;
	}
	snprintf(src, sizeof(src), "%s --version (first line)", path);
	if (tool_run(argv, out, sizeof(out))) {
		env_put_unavail(s, tools[i].key, src, "%s", out);
		return;
	}
	out[strcspn(out, "\n")] = '\0';
	if (!out[0])
		env_put_unavail(s, tools[i].key, src, "no output");
	else
		env_put(s, tools[i].key, src, "%s", out);
}

/* Which confidential-guest objects `qemu -object help` lists. */
static void tool_put_qemu_cvm(const struct env_sink *s, char *qemu)
{
	static const char *const objs[] = { "sev-guest", "sev-snp-guest", "tdx-guest" };
	static const char key[] = "tools.qemu.cvm_objects";
	char *const argv[] = { qemu, "-object", "help", NULL };
	char out[16384], src[640], list[64] = "";
	size_t i, n = 0;

	if (!qemu[0]) {
		env_put_unavail(s, key, "qemu-system-x86_64 -object help",
				"qemu-system-x86_64 not installed");
		return;
	}
	snprintf(src, sizeof(src), "%s -object help", qemu);
	if (tool_run(argv, out, sizeof(out)) == -ETIMEDOUT) {
		env_put_unavail(s, key, src, "%s", out);
		return;
	}
	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		char word[32];

		snprintf(word, sizeof(word), " %s\n", objs[i]);
		if (strstr(out, word))
			n += snprintf(list + n, sizeof(list) - n, "%s%s",
				      n ? " " : "", objs[i]);
	}
	env_put(s, key, src, "%s", n ? list : "none");
}

/**
 * env_collect_tools() - emit the tools.* facts.
 * @s: the sink
 */
void env_collect_tools(const struct env_sink *s)
{
	char qemu[512] = "", path[512];
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		tool_put_version(s, i, path, sizeof(path));
		if (i == 0)
			snprintf(qemu, sizeof(qemu), "%s", path);
	}
	tool_put_qemu_cvm(s, qemu);
}
