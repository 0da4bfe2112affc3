// SPDX-License-Identifier: MIT
/*
 * qemu-accel.c - `accel = auto` (bench/backends/qemu/qemu-accel.c) with a
 * fake QEMU (a Python script standing in for qemu-system-x86_64, given
 * through the cell's qemu key) and a fake /dev/kvm (CVMBENCH_SYSROOT's
 * dev-kvm): the fake logs each start's accelerator, writes the console,
 * connects to the agent socket and says it is ready, or, as asked, dies
 * under KVM the way QEMU 7.2 does on a nested host ("failed to set MSR
 * 0x10a") before any console output - for every -cpu, or only for -cpu
 * host (qemu-msrhost) - or after it. Checked: after an early KVM death
 * auto tries the other CPU models (host,-arch-capabilities, qemu64), then
 * tcg, records the model that ran (qemu.cpu, through qemu_accel_note())
 * and why, and later cells with the same QEMU start with what was found;
 * a cell that sets cpu gets no other model; accel = kvm never
 * falls back and fails with QEMU's message; no /dev/kvm means tcg at once;
 * a CVM cell is never moved to tcg. And the one decision of which
 * accelerator a cell starts under, qemu_accel_for_cell() (also through the
 * backend layer, backend_cell_accel()), where /dev/kvm opens and where not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "config-test.h"
#include "qemu-accel.h"
#include "qemu-cell.h"
#include "tap.h"

static char root[256];

static const char fake_py[] =
	"#!/usr/bin/env python3\n"
	"import os, socket, sys, time\n"
	"a = sys.argv[1:]\n"
	"mode = os.path.basename(sys.argv[0])\n"
	"accel = a[a.index('-accel') + 1]\n"
	"cpu = a[a.index('-cpu') + 1] if '-cpu' in a else '-'\n"
	"con = sock = None\n"
	"for i, x in enumerate(a):\n"
	"    if x == '-chardev' and a[i + 1].startswith('file,'): con = a[i + 1].split('path=')[1]\n"
	"    if x == '-chardev' and a[i + 1].startswith('socket,'): sock = a[i + 1].split('path=')[1]\n"
	"with open(os.path.join(os.path.dirname(sys.argv[0]), 'starts'), 'a') as f:\n"
	"    f.write(accel + ':' + cpu + '\\n')\n"
	"if accel == 'kvm' and (mode == 'qemu-msr' or (mode == 'qemu-msrhost' and cpu == 'host')):\n"
	"    sys.stderr.write('qemu-system-x86_64: error: failed to set MSR 0x10a to 0x2000000\\n'\n"
	"        'qemu-system-x86_64: ../target/i386/kvm/kvm.c:3144: kvm_buf_set_msrs: Assertion failed.\\n')\n"
	"    sys.stderr.flush()\n"
	"    os.abort()\n"
	"with open(con, 'w') as f:\n"
	"    f.write('Linux version 6.1.0 (fake)\\n')\n"
	"if accel == 'kvm' and mode == 'qemu-late':\n"
	"    time.sleep(0.3)\n"
	"    sys.stderr.write('KVM: entry failed, hardware error 0x7\\n')\n"
	"    sys.exit(1)\n"
	"s = socket.socket(socket.AF_UNIX)\n"
	"s.connect(sock)\n"
	"s.sendall(b'cvmbench-ready uptime=0.25 data=none kernel=fake\\n')\n"
	"time.sleep(60)\n";

static void put(const char *rel, const void *data, size_t len, int mode)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
	chmod(path, (mode_t)mode);
}

static void starts(char *buf, size_t len)
{
	char path[512];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/starts", root);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	unlink(path);
	for (n = 0; buf[n]; n++)
		if (buf[n] == '\n')
			buf[n] = ' ';
}

struct outcome {
	int ret;
	struct qemu_accel acc;
	char err[4096], starts[256];
	char note_cpu[64], note_accel[8];   /* what the cell records (qemu_accel_note()) */
};

/* A note() that keeps qemu.cpu and qemu.accel, as the cell's params get them. */
static void note_keep(void *ctx, const char *key, const char *value)
{
	struct outcome *o = ctx;

	if (!strcmp(key, "qemu.cpu"))
		snprintf(o->note_cpu, sizeof(o->note_cpu), "%s", value);
	else if (!strcmp(key, "qemu.accel"))
		snprintf(o->note_accel, sizeof(o->note_accel), "%s", value);
}

/* Boot the cell made of @keys under qemu_accel_start(), then stop it. */
static void boot(const char *keys, struct outcome *o)
{
	char text[4096], e[1024];
	struct qemu_guest g = { .source = "user" };
	struct cell *cells;
	struct vm_config vc;
	struct vm vm;
	size_t n;

	snprintf(text, sizeof(text), "[experiment a]\nworkload = null\nbackend = qemu\n%s", keys);
	memset(o, 0, sizeof(*o));
	if (load_expand(text, &cells, &n, e, sizeof(e)) || n != 1) {
		o->ret = -999;
		snprintf(o->err, sizeof(o->err), "config: %s", e);
		return;
	}
	snprintf(g.kernel, sizeof(g.kernel), "%s/vmlinuz", root);
	snprintf(g.initrd, sizeof(g.initrd), "%s/initrd", root);
	qemu_cell_vm_config(&cells[0], cells[0].accel, &g, &vc);
	o->ret = qemu_accel_start(&cells[0], &vm, &vc, 20, &o->acc, o->err, sizeof(o->err));
	if (!o->ret)
		vm_stop(&vm);
	qemu_accel_note(&o->acc, note_keep, o);
	starts(o->starts, sizeof(o->starts));
	config_cells_free(cells, n);
}

static void keys(char *buf, size_t len, const char *qemu, const char *more)
{
	snprintf(buf, len, "qemu = %s/%s\n%s", root, qemu, more);
}

static void test_auto(void)
{
	struct outcome o;
	char k[1024];

	put("dev-kvm", "present\n", 8, 0644);
	keys(k, sizeof(k), "qemu-msr", "accel = auto\n");
	boot(k, &o);
	tap_ok(o.ret == 0 && !strcmp(o.acc.used, "tcg") &&
	       !strcmp(o.starts, "kvm:host kvm:host,-arch-capabilities kvm:qemu64 tcg:- ") &&
	       strstr(o.acc.reason, "auto: tcg") && strstr(o.acc.reason, "MSR 0x10a") &&
	       !strcmp(o.note_accel, "tcg") && !strcmp(o.note_cpu, "qemu64"),
	       "auto, KVM dies before the console with every model: host, host,-arch-capabilities, "
	       "qemu64, then tcg; reason quotes QEMU (%s; starts: %s; %d)", o.acc.reason,
	       o.starts, o.ret);
	boot(k, &o);
	tap_ok(o.ret == 0 && !strcmp(o.starts, "tcg:- ") && !strcmp(o.acc.used, "tcg") &&
	       strstr(o.acc.reason, "found earlier in this process") &&
	       strstr(o.acc.reason, "MSR 0x10a"),
	       "the next cell with the same QEMU starts under tcg at once (starts: %s; %s)",
	       o.starts, o.acc.reason);
	keys(k, sizeof(k), "qemu-msr", "accel = kvm\n");
	boot(k, &o);
	tap_ok(o.ret == -ECHILD && !strcmp(o.acc.used, "kvm") &&
	       !strcmp(o.starts, "kvm:host kvm:host,-arch-capabilities kvm:qemu64 ") &&
	       strstr(o.err, "failed to set MSR 0x10a") && strstr(o.acc.reason, "asked") &&
	       strstr(o.acc.cpu_reason, "KVM took no model"),
	       "accel = kvm: the other models under KVM, never tcg, QEMU's message in the error "
	       "(starts: %s)", o.starts);
	keys(k, sizeof(k), "qemu-late", "accel = auto\n");
	boot(k, &o);
	tap_ok(o.ret == -ECHILD && !strcmp(o.starts, "kvm:host ") && !strcmp(o.acc.used, "kvm"),
	       "auto, KVM dies after the guest's console: no fallback (starts: %s, %s)",
	       o.starts, o.acc.reason);
	keys(k, sizeof(k), "qemu-ok", "accel = auto\n");
	boot(k, &o);
	tap_ok(o.ret == 0 && !strcmp(o.acc.used, "kvm") && !strcmp(o.starts, "kvm:host ") &&
	       strstr(o.acc.reason, "booted under KVM") && !strcmp(o.note_cpu, "host") &&
	       strstr(o.acc.cpu_reason, "KVM took it"),
	       "auto where KVM works: kvm, -cpu host (%s; %s)", o.acc.reason, o.acc.cpu_reason);
	boot(k, &o);
	tap_ok(o.ret == 0 && !strcmp(o.acc.used, "kvm") && !strcmp(o.starts, "kvm:host "),
	       "and the next cell where KVM took host starts under KVM too (used %s; starts: %s; "
	       "%s)", o.acc.used, o.starts, o.acc.reason);
	put("dev-kvm", "absent\n", 7, 0644);
	keys(k, sizeof(k), "qemu-msr", "accel = auto\n");
	boot(k, &o);
	tap_ok(o.ret == 0 && !strcmp(o.acc.used, "tcg") && !strcmp(o.starts, "tcg:- ") &&
	       strstr(o.acc.reason, "/dev/kvm") && !strcmp(o.note_cpu, "qemu64"),
	       "auto without /dev/kvm: tcg at once, reason names /dev/kvm (%s)", o.acc.reason);
}

static int plan(const char *keys, struct qemu_accel *acc, char *why, size_t len,
		const char **be_accel);

/* A host whose KVM refuses -cpu host's MSR 0x10a and takes the next model. */
static void test_models(void)
{
	struct outcome o;
	struct qemu_accel a;
	const char *be;
	char k[1024], why[256];

	qemu_accel_forget();
	put("dev-kvm", "present\n", 8, 0644);
	keys(k, sizeof(k), "qemu-msrhost", "accel = auto\n");
	boot(k, &o);
	tap_ok(o.ret == 0 && !strcmp(o.starts, "kvm:host kvm:host,-arch-capabilities ") &&
	       !strcmp(o.note_accel, "kvm") && !strcmp(o.note_cpu, "host,-arch-capabilities") &&
	       strstr(o.acc.cpu_reason, "host: qemu-system-x86_64: error: failed to set MSR 0x10a"),
	       "-cpu host refused (MSR 0x10a): kvm with host,-arch-capabilities, recorded with "
	       "QEMU's words (starts: %s; %s)", o.starts, o.acc.cpu_reason);
	boot(k, &o);
	tap_ok(o.ret == 0 && !strcmp(o.starts, "kvm:host,-arch-capabilities ") &&
	       !strcmp(o.note_cpu, "host,-arch-capabilities") &&
	       strstr(o.acc.cpu_reason, "found earlier in this process"),
	       "the next cell starts with that model at once (starts: %s; %s)", o.starts,
	       o.acc.cpu_reason);
	plan(k, &a, why, sizeof(why), &be);
	tap_ok(!strcmp(a.used, "kvm") && !strcmp(a.cpu, "host,-arch-capabilities") &&
	       !strcmp(a.cpu_arg, "host,-arch-capabilities"),
	       "the decision without a start says that model too (%s, %s)", a.used, a.cpu);
	keys(k, sizeof(k), "qemu-msrhost", "accel = auto\ncpu = host\n");
	boot(k, &o);
	tap_ok(o.ret == 0 && !strcmp(o.starts, "kvm:host tcg:host ") && !strcmp(o.note_cpu, "host") &&
	       !strcmp(o.acc.used, "tcg") && strstr(o.acc.cpu_reason, "asked (cpu = host)"),
	       "a cell that sets cpu itself: no other model, its own under tcg (starts: %s)",
	       o.starts);
	qemu_accel_forget();
	keys(k, sizeof(k), "qemu-msrhost", "accel = kvm\n");
	boot(k, &o);
	tap_ok(o.ret == 0 && !strcmp(o.starts, "kvm:host kvm:host,-arch-capabilities ") &&
	       !strcmp(o.note_accel, "kvm") && !strcmp(o.note_cpu, "host,-arch-capabilities") &&
	       !strcmp(o.acc.reason, "asked (accel = kvm)"),
	       "accel = kvm, cpu = auto: the same model search, the accelerator as asked "
	       "(starts: %s; %s)", o.starts, o.acc.reason);
	qemu_accel_forget();
}

/* qemu_accel_for_cell() for the cell made of @keys (backend = qemu unless set). */
static int plan(const char *keys, struct qemu_accel *acc, char *why, size_t len,
		const char **be_accel)
{
	char text[1024], e[1024];
	struct cell *cells;
	size_t n;
	int ok;

	snprintf(text, sizeof(text), "[experiment a]\nworkload = null\n%s", keys);
	memset(acc, 0, sizeof(*acc));
	if (load_expand(text, &cells, &n, e, sizeof(e)) || n != 1) {
		snprintf(acc->reason, sizeof(acc->reason), "config: %.500s", e);
		return -999;
	}
	ok = qemu_accel_for_cell(&cells[0], acc);
	*be_accel = backend_cell_accel(&cells[0], why, len);
	config_cells_free(cells, n);
	return ok;
}

/* The one decision, without starting anything: /dev/kvm there, then not. */
static void test_for_cell(void)
{
	struct qemu_accel a;
	const char *be;
	char why[256];
	int ok;

	put("dev-kvm", "present\n", 8, 0644);
	ok = plan("backend = qemu\naccel = auto\n", &a, why, sizeof(why), &be);
	tap_ok(ok == 1 && !strcmp(a.used, "kvm") && a.fallback && be && !strcmp(be, "kvm"),
	       "auto where /dev/kvm opens: kvm, with the fallback; the backend says kvm (%s)",
	       a.reason);
	ok = plan("backend = qemu\naccel = tcg\n", &a, why, sizeof(why), &be);
	tap_ok(ok == 1 && !strcmp(a.used, "tcg") && !a.fallback && be && !strcmp(be, "tcg"),
	       "accel = tcg with /dev/kvm there: tcg as asked (%s)", a.reason);
	put("dev-kvm", "absent\n", 7, 0644);
	ok = plan("backend = qemu\naccel = auto\n", &a, why, sizeof(why), &be);
	tap_ok(ok == 1 && !strcmp(a.used, "tcg") && !a.fallback && be && !strcmp(be, "tcg") &&
	       strstr(why, "/dev/kvm") && strstr(a.reason, "auto: tcg, /dev/kvm"),
	       "auto without /dev/kvm: tcg, the host's reason given (%s; %s)", a.reason, why);
	ok = plan("backend = qemu\naccel = kvm\n", &a, why, sizeof(why), &be);
	tap_ok(ok == 0 && !strcmp(a.used, "kvm") && strstr(a.reason, "accel = kvm: /dev/kvm"),
	       "accel = kvm without /dev/kvm: kvm, and it cannot be had here (%s)", a.reason);
	ok = plan("backend = qemu\naccel = auto\nconfidential = sev-snp\n", &a, why,
		  sizeof(why), &be);
	tap_ok(ok == 1 && !strcmp(a.used, "kvm") && !a.fallback && strstr(a.reason, "needs KVM"),
	       "auto, a sev-snp cell: kvm without a fallback, even without /dev/kvm (%s)",
	       a.reason);
	plan("backend = native\n", &a, why, sizeof(why), &be);
	tap_ok(!be && backend_boots_guests("qemu") && !backend_boots_guests("native") &&
	       !backend_boots_guests("nosuch"),
	       "a backend without VMs has no accelerator; only qemu boots guests");
}

/* An env_emit_fn keeping qemu.cpu's value. */
static void env_keep(void *ctx, const char *key, const char *value, const char *source)
{
	(void)source;
	if (!strcmp(key, "qemu.cpu"))
		snprintf(ctx, 512, "%s", value);
}

/* `cvmbench env`'s qemu.cpu: what is known without a start, and no more. */
static void test_env(void)
{
	char v[512] = "";

	put("dev-kvm", "present\n", 8, 0644);
	backend_env_facts(env_keep, v);
	tap_ok(!strncmp(v, "host (", 6) && strstr(v, "untested") &&
	       strstr(v, "host,-arch-capabilities, then qemu64, then tcg"),
	       "env where /dev/kvm opens: qemu.cpu host, untested, with what a run tries (%s)", v);
	put("dev-kvm", "absent\n", 7, 0644);
	backend_env_facts(env_keep, v);
	tap_ok(!strncmp(v, "qemu64 (", 8) && strstr(v, "QEMU's default") && !strstr(v, "untested"),
	       "env without /dev/kvm: qemu.cpu qemu64, QEMU's default under TCG (%s)", v);
}

static void test_cvm(void)
{
	struct outcome o;
	char k[1024], more[600];

	put("dev-kvm", "present\n", 8, 0644);
	snprintf(more, sizeof(more), "accel = auto\nconfidential = tdx\nfirmware = %s/initrd\n",
		 root);
	keys(k, sizeof(k), "qemu-msr", more);
	boot(k, &o);
	tap_ok(o.ret == -ECHILD && !strcmp(o.starts, "kvm:host ") && strstr(o.acc.reason, "needs KVM"),
	       "auto, a tdx cell: kvm only, never tcg (starts: %s, %s)", o.starts, o.acc.reason);
}

int main(void)
{
	static const char names[][16] = { "qemu-msr", "qemu-late", "qemu-ok", "qemu-msrhost" };
	char kernel[1024] = { 0 }, cmd[600], py[] = "/usr/bin/python3";
	size_t i;

	if (access(py, X_OK)) {       /* under CI a missing tool is a failure */
		if (getenv("CI")) {
			printf("1..1\nnot ok 1 - %s missing (required under CI)\n", py);
			return 1;
		}
		printf("1..0 # SKIP %s missing (the fake QEMU is a Python script)\n", py);
		return 0;
	}
	snprintf(root, sizeof(root), "%s/qemu-accel-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root)) {
		printf("1..0 # SKIP mkdtemp: %s\n", strerror(errno));
		return 0;
	}
	setenv("CVMBENCH_SYSROOT", root, 1);
	memcpy(kernel + 0x202, "HdrS", 4);
	put("vmlinuz", kernel, sizeof(kernel), 0644);
	put("initrd", "initrd", 6, 0644);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		put(names[i], fake_py, strlen(fake_py), 0755);
	tap_plan(21);
	test_auto();
	test_models();
	test_env();
	test_cvm();
	test_for_cell();
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", root);
	if (system(cmd))
		printf("# could not remove %s\n", root);
	return tap_done();
}
