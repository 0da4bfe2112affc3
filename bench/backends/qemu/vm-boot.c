// SPDX-License-Identifier: MIT
/*
 * vm-boot.c - the boot phases of a VM, each on the clock it was read from:
 *
 *   qemu-spawn       host   QEMU released to exec (vm.c: after its fork, its
 *                           journal entry and its memory cgroup)
 *   first-console    host   the first byte in the console file, polled
 *                           every 10 ms by the boot wait (vm-io.c)
 *   console-enabled  guest  printk time of "printk: console [ttyS0] enabled"
 *   run-init         guest  printk time of "Run /init as init process"
 *   init-start       guest  /proc/uptime when /init starts ("cvmbench-init:
 *                           start uptime=S" on the console; 10 ms ticks)
 *   guest-ready      guest  /proc/uptime in the ready line (10 ms ticks)
 *   ready            host   the ready line's arrival on the host
 *
 * Guest times are read from the console file only while it exists (a VM
 * that did not boot has its host phases only). A kernel without printk
 * timestamps (CONFIG_PRINTK_TIME unset and no printk.time=1) gives no
 * console-enabled or run-init row: no phase is ever made up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "vm-boot-phases.h"
#include "vm-boot.h"
#include "vm.h"

#define US 1000LL
#define MS 1000000LL
#define CONSOLE_MAX (4 << 20)     /* a boot's console is about 40 kB */

#define PHASE_NAME_(id, name, guest) [VM_BOOT_##id] = name,
static const char *const phase_names[] = { VM_BOOT_PHASES(PHASE_NAME_) };
#undef PHASE_NAME_
static const char *const clock_names[] = { VM_CLOCK_HOST_NAME, VM_CLOCK_GUEST_NAME };

/*
 * The printk timestamp "[  1.234567] " at the start of @line, in ns; -1 if
 * none. 0.000000 is what the kernel prints before its clock runs (before
 * sched_clock is set up; seen for "console [ttyS0] enabled" in one TCG
 * boot of 18 with 2 vCPUs): no time, so no phase.
 */
static long long printk_ns(const char *line)
{
	unsigned long s, us;
	int n = 0;

	if (sscanf(line, "[ %lu.%6lu]%n", &s, &us, &n) != 2 || !n || (!s && !us))
		return -1;
	return (long long)s * 1000000000LL + (long long)us * US;
}

/* "S.CC" seconds (as /proc/uptime) in ns; -1 if not a number. */
static long long seconds_ns(const char *p)
{
	char *end;
	double s = strtod(p, &end);

	return end == p || s < 0 ? -1 : (long long)(s * 1e9 + 0.5);
}

static int add(struct vm_boot_phase *out, size_t max, size_t *n, enum vm_boot_phase_id id,
	       long long t, enum vm_boot_clock clock, const char *source, long long res)
{
	size_t i;

	if (t < 0 || *n >= max)
		return 0;
	for (i = 0; i < *n; i++)
		if (out[i].seq == (int)id * VM_BOOT_SEQ_STEP)
			return 0;       /* the first one counts */
	out[(*n)++] = (struct vm_boot_phase){ phase_names[id], (int)id * VM_BOOT_SEQ_STEP,
					      t, clock, source, res };
	return 1;
}

/* One console line: a phase if it is one of ours. */
static void scan_line(const char *line, struct vm_boot_phase *out, size_t max, size_t *n)
{
	const char *up;

	if (strstr(line, "] printk: console [ttyS0] enabled"))
		add(out, max, n, VM_BOOT_CONSOLE_ENABLED, printk_ns(line), VM_CLOCK_GUEST,
		    "printk timestamp", US);
	else if (strstr(line, "] Run /init as init process"))
		add(out, max, n, VM_BOOT_RUN_INIT, printk_ns(line), VM_CLOCK_GUEST,
		    "printk timestamp", US);
	else if (!strncmp(line, "cvmbench-init: start ", 21) && (up = strstr(line, "uptime=")))
		add(out, max, n, VM_BOOT_INIT_START, seconds_ns(up + 7), VM_CLOCK_GUEST,
		    "/proc/uptime at /init start", 10 * MS);
}

size_t vm_boot_console_scan(const char *buf, size_t len, struct vm_boot_phase *out,
			    size_t max)
{
	char line[512];
	size_t n = 0, i = 0, l;
	const char *nl;

	while (i < len) {
		nl = memchr(buf + i, '\n', len - i);
		l = nl ? (size_t)(nl - (buf + i)) : len - i;
		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) ? l : sizeof(line) - 1),
			 buf + i);
		scan_line(line, out, max, &n);
		i += l + 1;
	}
	return n;
}

/* The guest's phases from @vm's console file, if it is still there. */
static size_t console_phases(const struct vm *vm, struct vm_boot_phase *out, size_t max)
{
	FILE *f = vm->console[0] ? fopen(vm->console, "re") : NULL;
	char *buf;
	size_t len, n = 0;

	if (!f)
		return 0;
	buf = malloc(CONSOLE_MAX);
	if (buf) {
		len = fread(buf, 1, CONSOLE_MAX, f);
		n = vm_boot_console_scan(buf, len, out, max);
	}
	free(buf);
	fclose(f);
	return n;
}

size_t vm_boot_phases(const struct vm *vm, struct vm_boot_phase *out, size_t max)
{
	const struct vm_phases *ph = &vm->ph;
	size_t n = 0;

	if (ph->spawn_ns <= 0)
		return 0;
	add(out, max, &n, VM_BOOT_QEMU_SPAWN, ph->spawn_ns, VM_CLOCK_HOST,
	    "QEMU released to exec (after its fork, journal entry, memory cgroup)", -1);
	if (ph->first_console >= 0)
		add(out, max, &n, VM_BOOT_FIRST_CONSOLE, ph->spawn_ns + ph->first_console,
		    VM_CLOCK_HOST, "console file size, polled", 10 * MS);
	n += console_phases(vm, out + n, max - n);
	if (ph->guest_uptime_s >= 0)
		add(out, max, &n, VM_BOOT_GUEST_READY, (long long)(ph->guest_uptime_s * 1e9 + 0.5),
		    VM_CLOCK_GUEST, "/proc/uptime in the ready line", 10 * MS);
	if (ph->ready >= 0)
		add(out, max, &n, VM_BOOT_READY, ph->spawn_ns + ph->ready, VM_CLOCK_HOST,
		    "ready line on the host", -1);
	return n;
}

struct vm_boot_row {
	long long vm_idx, seq, t_ns, resolution_ns;
	const char *phase, *clock, *source;
};

static const struct sink_column vm_boot_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INT(struct vm_boot_row, vm_idx),
	SINK_INT(struct vm_boot_row, seq),
	SINK_TEXT(struct vm_boot_row, phase),
	SINK_INT(struct vm_boot_row, t_ns),
	SINK_TEXT(struct vm_boot_row, clock),
	SINK_TEXT(struct vm_boot_row, source),
	SINK_KNOWN(struct vm_boot_row, resolution_ns),
};
static const struct sink_table vm_boot_table = SINK_TABLE("vm_boot", vm_boot_cols);

int vm_boot_store(struct sink *s, int vm_idx, const struct vm *vm)
{
	struct vm_boot_phase ph[VM_BOOT_MAX_PHASES];
	struct vm_boot_row r = { .vm_idx = vm_idx };
	size_t n, i;
	int64_t id;
	int ret = 0;

	if (!s)
		return 0;
	n = vm_boot_phases(vm, ph, VM_BOOT_MAX_PHASES);
	for (i = 0; i < n; i++) {
		r.seq = ph[i].seq;
		r.phase = ph[i].phase;
		r.t_ns = ph[i].t_ns;
		r.clock = clock_names[ph[i].clock];
		r.source = ph[i].source;
		r.resolution_ns = ph[i].resolution_ns;
		id = sink_row(s, &vm_boot_table, &r);
		if (id < 0 && !ret)
			ret = (int)id;
	}
	return ret;
}
