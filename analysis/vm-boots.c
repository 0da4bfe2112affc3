// SPDX-License-Identifier: MIT
/*
 * vm-boots.c - read the vm_boot rows of a run into one record per VM
 * (vm-boots.h) and print them for `show`: per VM, the host-clock phases
 * in seconds from QEMU's spawn and the guest-clock phases in seconds of
 * the guest kernel's clock (docs/backends/qemu.md). A VM's accelerator is
 * the one it ran under (cell_param qemu.accel, what the backend used: auto
 * may become either), or for a database from before qemu.accel was stored
 * the one the cell asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "text-safe.h"
#include "vm-boots.h"

#define PHASE_NAME_(id, name, guest) [VM_BOOT_##id] = name,
static const char *const names[] = { VM_BOOT_PHASES(PHASE_NAME_) };
#undef PHASE_NAME_
#define PHASE_GUEST_(id, name, guest) [VM_BOOT_##id] = guest,
static const int guest_clock[] = { VM_BOOT_PHASES(PHASE_GUEST_) };
#undef PHASE_GUEST_

/* ?1 the run; the accelerator used, else the one asked (an older database). */
static const char sql_boots[] =
	"SELECT b.cell_id, c.cell_key, b.vm_idx, b.phase, b.t_ns, b.clock, "
	"(SELECT value FROM cell_param p WHERE p.cell_id = c.id AND p.key = 'vcpus'), "
	"(SELECT value FROM cell_param p WHERE p.cell_id = c.id AND p.key = 'memory'), "
	"coalesce((SELECT value FROM cell_param p WHERE p.cell_id = c.id AND p.key = 'qemu.accel'), "
	"(SELECT value FROM cell_param p WHERE p.cell_id = c.id AND p.key = 'accel')), "
	"(SELECT value FROM cell_param p WHERE p.cell_id = c.id AND p.key = 'confidential') "
	"FROM vm_boot b JOIN cell c ON c.id = b.cell_id WHERE c.run_id = ? "
	"ORDER BY b.cell_id, b.vm_idx, b.seq";

const char *vm_boot_phase_name(int id)
{
	return id >= 0 && id < VM_BOOT_NPHASES ? names[id] : "?";
}

static int phase_id(const char *name)
{
	int i;

	for (i = 0; name && i < VM_BOOT_NPHASES; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static const char *text(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	return s ? s : "";
}

/* A new record for the row's VM, or the last one if it is the same VM. */
static struct vm_boot_rec *rec_for(sqlite3_stmt *st, struct vm_boot_rec **v, size_t *n,
				   size_t *cap)
{
	struct vm_boot_rec *r = *n ? &(*v)[*n - 1] : NULL;
	int i;

	if (r && r->cell_id == sqlite3_column_int64(st, 0) &&
	    r->vm_idx == sqlite3_column_int(st, 2))
		return r;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		r = realloc(*v, *cap * sizeof(**v));
		if (!r)
			return NULL;
		*v = r;
	}
	r = &(*v)[(*n)++];
	memset(r, 0, sizeof(*r));
	r->cell_id = sqlite3_column_int64(st, 0);
	snprintf(r->cell_key, sizeof(r->cell_key), "%s", text(st, 1));
	r->vm_idx = sqlite3_column_int(st, 2);
	r->vcpus = atoi(text(st, 6));
	r->memory_mib = atoi(text(st, 7));
	snprintf(r->accel, sizeof(r->accel), "%s", text(st, 8));
	snprintf(r->confidential, sizeof(r->confidential), "%s", text(st, 9));
	for (i = 0; i < VM_BOOT_NPHASES; i++)
		r->t_ns[i] = -1;
	return r;
}

/* Host-clock phases from the VM's spawn; without a spawn they are unknown. */
static void relative(struct vm_boot_rec *v, size_t n)
{
	long long spawn;
	size_t k;
	int i;

	for (k = 0; k < n; k++) {
		spawn = v[k].t_ns[VM_BOOT_QEMU_SPAWN];
		for (i = 0; i < VM_BOOT_NPHASES; i++)
			if (!v[k].guest[i] && v[k].t_ns[i] >= 0)
				v[k].t_ns[i] = spawn >= 0 ? v[k].t_ns[i] - spawn : -1;
	}
}

int vm_boots_load(sqlite3 *h, int64_t run_id, struct vm_boot_rec **out, size_t *n)
{
	struct vm_boot_rec *v = NULL, *r;
	size_t cap = 0;
	sqlite3_stmt *st;
	int id, ret = 0;

	*out = NULL;
	*n = 0;
	if (sqlite3_table_column_metadata(h, NULL, "vm_boot", NULL, NULL, NULL, NULL, NULL,
					  NULL) != SQLITE_OK)
		return 0;      /* a database from before 005-vm-boot.sql: no boots */
	if (analysis_prepare(h, sql_boots, run_id, &st))
		return -EINVAL;
	while (!ret && analysis_step(st) == SQLITE_ROW) {
		r = rec_for(st, &v, n, &cap);
		if (!r) {
			ret = -ENOMEM;
			break;
		}
		id = phase_id(text(st, 3));
		if (id < 0)
			continue;     /* a finer phase this summary does not know */
		r->t_ns[id] = sqlite3_column_int64(st, 4);
		r->guest[id] = !strcmp(text(st, 5), VM_CLOCK_GUEST_NAME);
	}
	sqlite3_finalize(st);
	if (ret) {
		free(v);
		*n = 0;
		return ret;
	}
	relative(v, *n);
	*out = v;
	return 0;
}

static void print_header(void)
{
	int i, g;

	printf("boots: host phases in s from QEMU's spawn (host clock); guest phases in s "
	       "of the guest kernel's clock (emulated under TCG)\n  %-16s %3s %5s %7s",
	       "KEY", "VM", "VCPUS", "MEM_MIB");
	for (g = 0; g < 2; g++)
		for (i = 1; i < VM_BOOT_NPHASES; i++) {
			if (guest_clock[i] == g)
				printf(" %*s", (int)strlen(names[i]) > 8 ? (int)strlen(names[i]) : 8,
				       names[i]);
		}
	printf("\n");
}

static void print_rec(const struct vm_boot_rec *r)
{
	char v[32], *key = text_dup(r->cell_key, TEXT_TERM, 0);
	int i, g, w;

	printf("  %-16s %3d %5d %7d", key ? key : "?", r->vm_idx, r->vcpus, r->memory_mib);
	free(key);
	for (g = 0; g < 2; g++)
		for (i = 1; i < VM_BOOT_NPHASES; i++) {
			if (guest_clock[i] != g)
				continue;
			w = (int)strlen(names[i]) > 8 ? (int)strlen(names[i]) : 8;
			if (r->t_ns[i] >= 0)
				snprintf(v, sizeof(v), "%.3f", (double)r->t_ns[i] / 1e9);
			else
				snprintf(v, sizeof(v), "-");
			printf(" %*s", w, v);
		}
	printf("\n");
}

void vm_boots_print(sqlite3 *h, int64_t run_id)
{
	struct vm_boot_rec *v;
	size_t n, i;

	if (vm_boots_load(h, run_id, &v, &n) || !n) {
		free(v);
		return;
	}
	print_header();
	for (i = 0; i < n; i++)
		print_rec(&v[i]);
	free(v);
}

/* One VM: its cell, VM index, and each phase seen with its clock. */
static cJSON *rec_json(const struct vm_boot_rec *r)
{
	cJSON *o = cJSON_CreateObject(), *ph = cJSON_CreateObject(), *p;
	int i;

	if (!o || !ph) {
		cJSON_Delete(o);
		cJSON_Delete(ph);
		return NULL;
	}
	cJSON_AddStringToObject(o, "cell_key", r->cell_key);
	cJSON_AddNumberToObject(o, "vm", r->vm_idx);
	cJSON_AddNumberToObject(o, "vcpus", r->vcpus);
	cJSON_AddNumberToObject(o, "memory_mib", r->memory_mib);
	for (i = 0; i < VM_BOOT_NPHASES; i++) {
		if (r->t_ns[i] < 0 || !(p = cJSON_AddObjectToObject(ph, names[i])))
			continue;
		cJSON_AddNumberToObject(p, "t_s", (double)r->t_ns[i] / 1e9);
		cJSON_AddStringToObject(p, "clock", r->guest[i] ? VM_CLOCK_GUEST_NAME :
					"host-monotonic, from qemu-spawn");
	}
	cJSON_AddItemToObject(o, "phases", ph);
	return o;
}

struct cJSON *vm_boots_json(sqlite3 *h, int64_t run_id)
{
	struct vm_boot_rec *v;
	cJSON *a, *o;
	size_t n, i;

	if (vm_boots_load(h, run_id, &v, &n))
		return NULL;
	a = cJSON_CreateArray();
	for (i = 0; a && i < n; i++) {
		o = rec_json(&v[i]);
		if (o)
			cJSON_AddItemToArray(a, o);
	}
	free(v);
	return a;
}
