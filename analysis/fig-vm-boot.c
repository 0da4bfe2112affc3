// SPDX-License-Identifier: MIT
/*
 * fig-vm-boot.c - data of the vm-boot figure: one stacked bar per VM
 * shape (accelerator, confidential type, vCPUs, memory) of the run's
 * booted VMs (table vm_boot, vm-boots.c), each segment the mean over its
 * boots, in seconds, of:
 *
 *   before the guest clock  ready (host, from QEMU's spawn) - guest uptime
 *                           at ready: QEMU, firmware, kernel decompression
 *   kernel to /init         printk time of "Run /init"
 *   /init to ready          guest uptime at ready - printk time of Run /init
 *
 * ("console [ttyS0] enabled" is not a segment: its printk time is often
 * 0.000000, printed before the kernel's clock runs, and then has no row.)
 *
 * so a bar adds up to the mean time from QEMU's spawn to the ready line on
 * the host. The first segment subtracts a guest-clock time from a host
 * one: it assumes the guest clock runs at the host's rate from the
 * kernel's start (QEMU's virtual clock does, under TCG and KVM).
 * Only boots with these three phases are drawn; the others are counted in
 * the variable `nleft`.
 *
 * Columns: label, the three segments, total, mean first console byte (host,
 * s from the spawn; NaN if none), boots.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "gp-string.h"
#include "vm-boots.h"

#define NSEG 3

struct shape {
	char accel[8], confidential[12];
	int vcpus, memory_mib;
	double seg[NSEG], first_console;
	int n, nconsole;
};

static const char *const seg_names[NSEG] = {
	"before the guest clock (QEMU, firmware, decompression)", "kernel to /init",
	"/init to ready line",
};

static int same_shape(const struct shape *s, const struct vm_boot_rec *r)
{
	return !strcmp(s->accel, r->accel) && !strcmp(s->confidential, r->confidential) &&
	       s->vcpus == r->vcpus && s->memory_mib == r->memory_mib;
}

static int complete(const struct vm_boot_rec *r)
{
	return r->t_ns[VM_BOOT_READY] >= 0 && r->t_ns[VM_BOOT_GUEST_READY] >= 0 &&
	       r->t_ns[VM_BOOT_RUN_INIT] >= 0;
}

/* Add boot @r to its shape in @v (a new one at the end if none yet). */
static void add_boot(struct shape *v, size_t *n, const struct vm_boot_rec *r)
{
	const long long *t = r->t_ns;
	struct shape *s = NULL;
	size_t i;

	for (i = 0; i < *n && !s; i++)
		if (same_shape(&v[i], r))
			s = &v[i];
	if (!s) {
		s = &v[(*n)++];
		memset(s, 0, sizeof(*s));
		snprintf(s->accel, sizeof(s->accel), "%s", r->accel);
		snprintf(s->confidential, sizeof(s->confidential), "%s", r->confidential);
		s->vcpus = r->vcpus;
		s->memory_mib = r->memory_mib;
	}
	s->seg[0] += (double)(t[VM_BOOT_READY] - t[VM_BOOT_GUEST_READY]) / 1e9;
	s->seg[1] += (double)t[VM_BOOT_RUN_INIT] / 1e9;
	s->seg[2] += (double)(t[VM_BOOT_GUEST_READY] - t[VM_BOOT_RUN_INIT]) / 1e9;
	if (t[VM_BOOT_FIRST_CONSOLE] >= 0) {
		s->first_console += (double)t[VM_BOOT_FIRST_CONSOLE] / 1e9;
		s->nconsole++;
	}
	s->n++;
}

static int by_shape(const void *pa, const void *pb)
{
	const struct shape *a = pa, *b = pb;
	int r = strcmp(a->accel, b->accel);

	r = r ?: strcmp(a->confidential, b->confidential);
	r = r ?: a->vcpus - b->vcpus;
	return r ?: a->memory_mib - b->memory_mib;
}

/* "1 vCPU, 256 MiB", then accel and confidential when the shapes differ in them. */
static void write_row(struct figure_ctx *ctx, const struct shape *s, int kinds)
{
	char label[96];
	double tot = 0;
	int i;

	snprintf(label, sizeof(label), "%d vCPU%s, %d MiB%s%s%s%s", s->vcpus,
		 s->vcpus == 1 ? "" : "s", s->memory_mib, kinds ? ", " : "",
		 kinds ? s->accel : "", kinds ? " " : "", kinds ? s->confidential : "");
	gp_data_string(ctx->data, label);
	for (i = 0; i < NSEG; i++) {
		fprintf(ctx->data, " %.4f", s->seg[i] / s->n);
		tot += s->seg[i] / s->n;
	}
	fprintf(ctx->data, " %.4f", tot);
	if (s->nconsole)
		fprintf(ctx->data, " %.4f", s->first_console / s->nconsole);
	else
		fprintf(ctx->data, " NaN");
	fprintf(ctx->data, " %d\n", s->n);
}

static void write_shapes(struct figure_ctx *ctx, struct shape *v, size_t n)
{
	size_t i;
	int kinds = 0;

	qsort(v, n, sizeof(*v), by_shape);
	for (i = 1; i < n; i++)
		kinds |= strcmp(v[i].accel, v[0].accel) ||
			 strcmp(v[i].confidential, v[0].confidential);
	fprintf(ctx->data, "label");
	for (i = 0; i < NSEG; i++)
		gp_data_string((fputc(' ', ctx->data), ctx->data), seg_names[i]);
	fprintf(ctx->data, " total first_console boots\n");
	for (i = 0; i < n; i++)
		write_row(ctx, &v[i], kinds);
}

/**
 * fig_vm_boot_data() - write the vm-boot data (see the top of this file).
 * Returns 0, -ENODATA when the run has no boot with the phases it draws, or -errno.
 */
int fig_vm_boot_data(struct figure_ctx *ctx)
{
	struct vm_boot_rec *b;
	struct shape *v;
	size_t nb, n = 0, i, left = 0;
	int ret = vm_boots_load(ctx->h, ctx->run_id, &b, &nb);

	if (ret)
		return ret;
	v = calloc(nb ? nb : 1, sizeof(*v));
	if (!v) {
		free(b);
		return -ENOMEM;
	}
	for (i = 0; i < nb; i++) {
		if (complete(&b[i])) {
			add_boot(v, &n, &b[i]);
			figure_source(ctx, b[i].cell_id, 1, "VM boots");
		} else {
			left++;
		}
	}
	if (!n) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no VM boot with the "
			 "phases it draws (backend = qemu; %zu boot%s without)", (long long)ctx->run_id,
			 left, left == 1 ? "" : "s");
		ret = -ENODATA;
	} else {
		write_shapes(ctx, v, n);
	}
	figure_var_int(ctx, "nshapes", (long long)n);
	figure_var_int(ctx, "nleft", (long long)left);
	figure_var_int(ctx, "run", ctx->run_id);
	free(v);
	free(b);
	return ret;
}

const struct figure figure_vm_boot = {
	"vm-boot",
	"VM boot to ready by phase, stacked, per vCPUs and memory (backend = qemu)",
	"vm-boot.gp", fig_vm_boot_data, 0,
};
