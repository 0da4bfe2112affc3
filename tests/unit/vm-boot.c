// SPDX-License-Identifier: MIT
/*
 * vm-boot.c - a VM's boot phases (bench/backends/qemu/vm-boot.c) from a
 * console written here: the printk timestamps of "console [ttyS0]
 * enabled" and "Run /init", /init's start uptime, each phase once (the
 * first), none from a kernel without timestamps; the phases of a struct vm
 * in boot order with their clocks; and the rows vm_boot_store() writes
 * into a real results database (schema 005), read back with SQL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "sink.h"
#include "sql-test.h"
#include "tap.h"
#include "vm-boot-phases.h"
#include "vm-boot.h"
#include "vm.h"

static const char console[] =
	"[    0.000000] Linux version 6.1.0-57-cloud-amd64 (debian-kernel@lists.debian.org)\r\n"
	"[    0.185750] printk: console [ttyS0] enabled\r\n"
	"[    1.069602] Trying to unpack rootfs image as initramfs...\r\n"
	"[    1.686893] Run /init as init process\r\n"
	"cvmbench-init: start uptime=1.75\r\n"
	"[    2.000001] Run /init as init process\r\n"
	"cvmbench-init: port /dev/vport0p1, data disk: ro\r\n";

static const struct vm_boot_phase *find(const struct vm_boot_phase *p, size_t n,
					const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(p[i].phase, name))
			return &p[i];
	return NULL;
}

static long long t_of(const struct vm_boot_phase *p, size_t n, const char *name)
{
	const struct vm_boot_phase *f = find(p, n, name);

	return f ? f->t_ns : -1;
}

static void test_scan(void)
{
	static const char plain[] = "printk: console [ttyS0] enabled\nRun /init as init process\n";
	static const char early[] = "[    0.000000] printk: console [ttyS0] enabled\n"
				    "[    1.380000] Run /init as init process\n";
	struct vm_boot_phase p[VM_BOOT_MAX_PHASES];
	size_t n = vm_boot_console_scan(console, strlen(console), p, VM_BOOT_MAX_PHASES);

	tap_ok(n == 3, "three guest phases on the console (%zu)", n);
	tap_ok(t_of(p, n, "console-enabled") == 185750000LL &&
	       t_of(p, n, "run-init") == 1686893000LL,
	       "console-enabled and run-init are their lines' printk times, in ns (the first Run /init)");
	tap_ok(t_of(p, n, "init-start") == 1750000000LL && find(p, n, "init-start")->clock ==
	       VM_CLOCK_GUEST, "init-start is /init's uptime, on the guest clock");
	n = vm_boot_console_scan(plain, strlen(plain), p, VM_BOOT_MAX_PHASES);
	tap_ok(n == 0, "a console without printk timestamps gives no phase (%zu)", n);
	n = vm_boot_console_scan(early, strlen(early), p, VM_BOOT_MAX_PHASES);
	tap_ok(n == 1 && find(p, n, "run-init"),
	       "a line stamped 0.000000 (the kernel's clock not yet running) gives no phase (%zu)", n);
	n = vm_boot_console_scan(console, strlen(console), p, 1);
	tap_ok(n == 1, "never more than asked for (%zu)", n);
}

/* A VM as vm.c leaves it: spawned at 5 s, first console at +0.5 s, ready at +2.5 s. */
static void fake_vm(struct vm *vm, const char *path)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(console, f);
		fclose(f);
	}
	memset(vm, 0, sizeof(*vm));
	snprintf(vm->console, sizeof(vm->console), "%s", path);
	vm->ph.spawn_ns = 5000000000LL;
	vm->ph.first_console = 500000000LL;
	vm->ph.ready = 2500000000LL;
	vm->ph.guest_uptime_s = 1.91;
}

static void test_phases(struct vm *vm)
{
	static const char *const order[] = { "qemu-spawn", "first-console", "console-enabled",
		"run-init", "init-start", "guest-ready", "ready" };
	struct vm_boot_phase p[VM_BOOT_MAX_PHASES];
	size_t n = vm_boot_phases(vm, p, VM_BOOT_MAX_PHASES), i;
	int ordered = n == 7;

	for (i = 0; ordered && i < n; i++)
		ordered = !strcmp(p[i].phase, order[i]) && p[i].seq == (int)i * VM_BOOT_SEQ_STEP;
	tap_ok(ordered, "seven phases in boot order, seq 0, 10, ... 60 (%zu)", n);
	tap_ok(t_of(p, n, "qemu-spawn") == 5000000000LL && t_of(p, n, "ready") == 7500000000LL &&
	       t_of(p, n, "first-console") == 5500000000LL &&
	       find(p, n, "ready")->clock == VM_CLOCK_HOST,
	       "host phases are absolute CLOCK_MONOTONIC times");
	tap_ok(t_of(p, n, "guest-ready") == 1910000000LL, "guest-ready is the ready line's uptime");
	vm->ph.first_console = -1;
	vm->ph.guest_uptime_s = -1;
	unlink(vm->console);
	n = vm_boot_phases(vm, p, VM_BOOT_MAX_PHASES);
	tap_ok(n == 2 && !find(p, n, "first-console") && !find(p, n, "guest-ready"),
	       "phases not seen (and a console removed) give no row: spawn and ready only (%zu)", n);
	vm->ph.spawn_ns = 0;
	tap_ok(vm_boot_phases(vm, p, VM_BOOT_MAX_PHASES) == 0, "a VM never spawned has none");
}

static void test_store(struct vm *vm, const char *dir)
{
	char path[256], err[256] = "";
	struct db *db = NULL;
	struct sink s = { .run_id = 1, .cell_id = 1, .probe = "qemu", .ops = &sink_db_ops };
	sqlite3 *h;

	snprintf(path, sizeof(path), "%s/r.db", dir);
	if (db_open(&db, path, DB_CREATE, err, sizeof(err))) {
		tap_ok(0, "results database: %s", err);
		return;
	}
	h = db_sqlite(db);
	sqlite3_exec(h, "INSERT INTO run (id, started_at, vantage, cvmbench_version, command_line) "
		     "VALUES (1, 'now', 'host', 'v', 'c'); INSERT INTO cell (id, run_id, cell_key, "
		     "experiment, workload, size, backend, threads, wait, mode, instances, invocations, "
		     "warmup, repeat_index, seed, probes, spec, started_at) VALUES (1, 1, 'k', 'e', "
		     "'w', 'test', 'qemu', 0, 'block', 'warm', 1, 1, 0, 0, 1, '', '', 'now')",
		     NULL, NULL, NULL);
	s.db = db;
	tap_ok(vm_boot_store(NULL, 0, vm) == 0, "no sink (guest boot): nothing stored, no error");
	tap_ok(vm_boot_store(&s, 2, vm) == 0, "the phases are stored");
	tap_ok(scalar(h, "SELECT count(*) FROM vm_boot WHERE cell_id = 1 AND vm_idx = 2") == 7 &&
	       scalar(h, "SELECT count(*) FROM vm_boot WHERE clock = 'guest-kernel'") == 4 &&
	       scalar(h, "SELECT t_ns / 1000 FROM vm_boot WHERE phase = 'run-init'") == 1686893,
	       "seven rows of VM 2, four on the guest clock, run-init 1686893 us");
	tap_ok(scalar(h, "SELECT count(*) FROM vm_boot WHERE resolution_ns IS NULL") == 2 &&
	       scalar(h, "SELECT resolution_ns FROM vm_boot WHERE phase = 'first-console'") ==
	       10000000, "resolution: the 10 ms console poll; NULL for spawn and ready");
	db_close(db);
}

int main(void)
{
	static const char *const files[] = { "console", "r.db", "r.db-wal", "r.db-shm" };
	char dir[] = "/tmp/cvmbench-vmboot-XXXXXX", path[256];
	struct vm vm;
	size_t i;

	tap_plan(15);
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_scan();
	snprintf(path, sizeof(path), "%s/console", dir);
	fake_vm(&vm, path);
	test_store(&vm, dir);
	test_phases(&vm);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	if (rmdir(dir))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
