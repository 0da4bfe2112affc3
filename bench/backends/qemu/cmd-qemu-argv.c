// SPDX-License-Identifier: MIT
/*
 * cmd-qemu-argv.c - `cvmbench qemu-argv CONFIG --only CELL [--lines]`:
 * the exact QEMU command line a qemu cell starts, without starting it -
 * also for a cell that cannot run here (a SEV-SNP or TDX cell written for
 * another host), so a user can read and reuse it. Default: one shell-quoted
 * command (an option and its value per line, joined with backslashes)
 * after '#' comment lines; --lines: one argument per line, nothing else on
 * stdout (the comments go to stderr). VMDIR stands for the VM's private
 * directory, made when it starts (console file and agent socket).
 * The guest image and the data disk are built or found in the cache as for
 * a run; the user's guest-kernel, guest-initrd and guest-image are taken as
 * named (they may exist only on the other host).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent-guest.h"
#include "backend.h"
#include "cell-check.h"
#include "command.h"
#include "config.h"
#include "exitcode.h"
#include "loopback-port.h"
#include "opts.h"
#include "qemu-accel.h"
#include "qemu-argv.h"
#include "qemu-cell.h"
#include "qemu-vms.h"

/* backend-qemu.c's ops: qemu-argv is for its cells only (other VM backends build no QEMU argv) */
extern const struct backend_ops backend_qemu;

enum { QA_ONLY, QA_LINES };

static const struct opt qa_opts[] = {
	{ "only", 1, "CELL", "the cell (keys from `cvmbench run CONFIG --dry-run`)", QA_ONLY },
	{ "lines", 0, NULL, "one argument per line, unquoted, comments on stderr", QA_LINES },
	OPT_END
};

struct qa_args {
	const char *only;
	int lines;
};

static int on_qa_opt(void *ctx, int id, const char *arg)
{
	struct qa_args *a = ctx;

	if (id == QA_ONLY)
		a->only = arg;
	else
		a->lines = 1;
	return 0;
}

/* @s quoted for a POSIX shell when it needs it. */
static void put_quoted(const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789_./:=,@%+-") == strlen(s)) {
		fputs(s, stdout);
		return;
	}
	putchar('\'');
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*s);
	putchar('\'');
}

static void print_argv(const struct qemu_argv *a, int lines)
{
	int i;

	for (i = 0; i < a->argc; i++) {
		if (lines) {
			puts(a->argv[i]);
			continue;
		}
		if (i && a->argv[i][0] == '-')
			fputs(" \\\n  ", stdout);
		else if (i)
			putchar(' ');
		put_quoted(a->argv[i]);
	}
	if (!lines)
		putchar('\n');
}

/* The accelerator and model the cell starts under (qemu_accel_for_cell()), with a note for auto. */
static void first_accel(const struct cell *c, struct qemu_accel *acc, char *note, size_t len)
{
	qemu_accel_for_cell(c, acc);
	if (acc->cpu_retry)
		snprintf(note, len, "accel = %s: kvm here (/dev/kvm opens), -cpu %s (%s); if QEMU "
			 "dies under KVM before the guest's console, a run tries the other CPU models "
			 "(host,-arch-capabilities, then qemu64)%s", c->accel, acc->cpu,
			 acc->cpu_reason, acc->fallback ? ", then tcg" : "");
	else if (acc->fallback)
		snprintf(note, len, "accel = auto: kvm here (/dev/kvm opens); a run falls back "
			 "to tcg if QEMU dies under KVM before the guest's console");
	else if (!strcmp(c->accel, "auto") && !qemu_cell_cvm(c))
		snprintf(note, len, "accel = auto: tcg here (%s)",
			 acc->host[0] ? acc->host : acc->reason);
}

static void comments(FILE *out, const struct cell *c, const char *note)
{
	char why[2048];

	fprintf(out, "# cell %s (backend = qemu, confidential = %s)\n", c->key,
		c->confidential);
	if (cell_runnable(c, why, sizeof(why)))
		fprintf(out, "# runs here: yes\n");
	else
		fprintf(out, "# runs here: no: %s\n", why);
	if (note[0])
		fprintf(out, "# %s\n", note);
	fprintf(out, "# VMDIR: the VM's private directory, made when it starts "
		"($TMPDIR/cvmbench-vm-PID-N)\n");
	if (c->vms > 1)
		fprintf(out, "# VM 0 of %d: the others differ only in cvmbench.vm=N and VMDIR\n",
			c->vms);
}

static int print_cell(const struct cell *c, int lines)
{
	static struct qemu_argv a;
	struct qemu_guest g;
	struct qemu_accel acc;
	struct vm_config cell_vc, vc;
	char err[2048], note[2048] = "", append[512];

	first_accel(c, &acc, note, sizeof(note));

	if (qemu_cell_guest_files(c, &g, err, sizeof(err))) {
		fprintf(stderr, "cvmbench qemu-argv: %s: %s\n", c->key, err);
		return EXIT_USAGE;
	}
	qemu_cell_vm_config(c, acc.used, &g, &cell_vc);
	qemu_accel_vm_config(&acc, &cell_vc);
	qemu_vms_vm_config(c, 0, NULL, &cell_vc, &vc, append, sizeof(append));
	vc.console = "VMDIR/console";
	vc.agent_socket = "VMDIR/agent.sock";
	vc.port_dir = "VMDIR";
	vc.qmp_socket = "VMDIR/qmp.sock";
	if (qemu_vms_svc_nic(c, 0)) {   /* a run picks its own free port at each boot */
		vc.svc_host_port = loopback_port_free();
		vc.svc_guest_port = AGENT_GUEST_SVC_PORT;
	}
	if (qemu_argv_build(&vc, &a, err, sizeof(err))) {
		fprintf(stderr, "cvmbench qemu-argv: %s: %s\n", c->key, err);
		return EXIT_USAGE;
	}
	comments(lines ? stderr : stdout, c, note);
	if (!lines)
		fprintf(stdout, "# shell-quoted; --lines gives one argument per line\n");
	print_argv(&a, lines);
	return EXIT_OK;
}

static int find_and_print(const char *path, const char *only, int lines)
{
	struct config *cfg;
	struct cell *cells;
	char err[1600];
	size_t n, i;
	int ret = EXIT_USAGE;

	if (config_load(path, &cfg, err, sizeof(err))) {
		fprintf(stderr, "cvmbench qemu-argv: %s\n", err);
		return EXIT_USAGE;
	}
	if (config_expand(cfg, &cells, &n, err, sizeof(err))) {
		fprintf(stderr, "cvmbench qemu-argv: %s\n", err);
		config_free(cfg);
		return EXIT_USAGE;
	}
	for (i = 0; i < n && strcmp(cells[i].key, only); i++)
		;
	if (i == n)
		fprintf(stderr, "cvmbench qemu-argv: %s: no cell %s (cvmbench run %s --dry-run "
			"lists them)\n", path, only, path);
	else if (backend_find(cells[i].backend) != &backend_qemu)
		fprintf(stderr, "cvmbench qemu-argv: cell %s has backend = %s, not qemu\n",
			only, cells[i].backend);
	else
		ret = print_cell(&cells[i], lines);
	config_cells_free(cells, n);
	config_free(cfg);
	return ret;
}

/**
 * cmd_qemu_argv() - `cvmbench qemu-argv CONFIG --only CELL [--lines]`.
 * Returns EXIT_OK, or EXIT_USAGE with the reason on stderr.
 */
int cmd_qemu_argv(int argc, char **argv)
{
	static const char synopsis[] = "qemu-argv CONFIG --only CELL [--lines]";
	struct qa_args a = { NULL, 0 };
	int first, ret = opts_parse(argc, argv, synopsis, qa_opts, on_qa_opt, &a, &first);

	if (!ret && (argc - first != 1 || !a.only)) {
		fprintf(stderr, "cvmbench qemu-argv: needs one CONFIG and --only CELL\n");
		opts_usage(stderr, synopsis, qa_opts);
		ret = 2;
	}
	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	return find_and_print(argv[first], a.only, a.lines);
}
