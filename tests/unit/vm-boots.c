// SPDX-License-Identifier: MIT
/*
 * vm-boots.c - the VM boots of a run (analysis/vm-boots.c) and the vm-boot
 * figure's shapes (analysis/fig-vm-boot.c) grouped by the accelerator a
 * VM ran under, from a small database made here: cell 1 asked accel =
 * auto and ran under tcg, cell 2 asked auto and ran under kvm, cell 3
 * asked kvm in a database from before qemu.accel was stored (so the one
 * asked stands). Every VM boots with the same shape otherwise, so the
 * figure must give one bar for kvm (two boots) and one for tcg (one), never
 * one for "auto". A database without the vm_boot table gives no boots.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "figures.h"
#include "tap.h"
#include "vm-boots.h"

static const char schema[] =
	"CREATE TABLE cell (id INTEGER PRIMARY KEY, run_id INTEGER, cell_key TEXT);"
	"CREATE TABLE cell_param (cell_id INTEGER, key TEXT, value TEXT);"
	"CREATE TABLE vm_boot (cell_id INTEGER, vm_idx INTEGER, seq INTEGER, phase TEXT, "
	"t_ns INTEGER, clock TEXT);"
	"INSERT INTO cell VALUES (1, 1, 'b-tcg'), (2, 1, 'b-kvm'), (3, 1, 'b-old');"
	"INSERT INTO cell_param VALUES (1, 'accel', 'auto'), (1, 'qemu.accel', 'tcg'), "
	"(2, 'accel', 'auto'), (2, 'qemu.accel', 'kvm'), (3, 'accel', 'kvm');"
	"INSERT INTO cell_param SELECT id, 'vcpus', '1' FROM cell;"
	"INSERT INTO cell_param SELECT id, 'memory', '256' FROM cell;"
	"INSERT INTO cell_param SELECT id, 'confidential', 'none' FROM cell;"
	"INSERT INTO vm_boot SELECT id, 0, 0, 'qemu-spawn', 5000000000, 'host-monotonic' FROM cell;"
	"INSERT INTO vm_boot SELECT id, 0, 30, 'run-init', 1000000000, 'guest-kernel' FROM cell;"
	"INSERT INTO vm_boot SELECT id, 0, 50, 'guest-ready', 1500000000, 'guest-kernel' FROM cell;"
	"INSERT INTO vm_boot SELECT id, 0, 60, 'ready', 7000000000, 'host-monotonic' FROM cell;";

static void test_load(sqlite3 *h)
{
	struct vm_boot_rec *v = NULL;
	size_t n = 0;
	int ret = vm_boots_load(h, 1, &v, &n);

	tap_ok(!ret && n == 3, "three VMs loaded (%d, %zu)", ret, n);
	tap_ok(n == 3 && !strcmp(v[0].accel, "tcg") && !strcmp(v[1].accel, "kvm"),
	       "accel = auto: the accelerator used, from qemu.accel (%s, %s)",
	       n ? v[0].accel : "", n > 1 ? v[1].accel : "");
	tap_ok(n == 3 && !strcmp(v[2].accel, "kvm"),
	       "no qemu.accel (an older database): the one asked (%s)", n > 2 ? v[2].accel : "");
	free(v);
}

static void test_figure(sqlite3 *h)
{
	struct figure_ctx ctx;
	char out[4096];
	size_t n;
	int ret;

	memset(&ctx, 0, sizeof(ctx));
	ctx.h = h;
	ctx.run_id = 1;
	ctx.data = tmpfile();
	if (!ctx.data) {
		tap_ok(0, "tmpfile: %s", strerror(errno));
		return;
	}
	ret = fig_vm_boot_data(&ctx);
	rewind(ctx.data);
	n = fread(out, 1, sizeof(out) - 1, ctx.data);
	out[n] = '\0';
	fclose(ctx.data);
	printf("# %s", out);
	tap_ok(!ret, "the figure's data is written (%d)", ret);
	tap_ok(strstr(out, "256 MiB, kvm none\" ") && strstr(out, " 2\n") &&
	       strstr(out, "256 MiB, tcg none\" ") && !strstr(out, "auto"),
	       "one bar per accelerator used: kvm (2 boots) and tcg, none for auto");
}

static void test_no_table(void)
{
	struct vm_boot_rec *v = NULL;
	size_t n = 9;
	sqlite3 *h;
	int ret;

	if (sqlite3_open(":memory:", &h)) {
		tap_ok(0, "an in-memory database");
		return;
	}
	sqlite3_exec(h, "CREATE TABLE cell (id INTEGER PRIMARY KEY)", NULL, NULL, NULL);
	ret = vm_boots_load(h, 1, &v, &n);
	tap_ok(!ret && n == 0 && !v, "a database from before vm_boot: no boots, no error (%d)", ret);
	sqlite3_close(h);
}

int main(void)
{
	sqlite3 *h;

	tap_plan(6);
	if (sqlite3_open(":memory:", &h) || sqlite3_exec(h, schema, NULL, NULL, NULL)) {
		tap_ok(0, "an in-memory database: %s", sqlite3_errmsg(h));
		return 1;
	}
	test_load(h);
	test_figure(h);
	test_no_table();
	sqlite3_close(h);
	return tap_done();
}
