// SPDX-License-Identifier: MIT
/*
 * knob-corunner-vm.c - the kv co-runner in a second VM (corunner-in = vm,
 * corunner-kind = kv, backend = qemu): the co-runner VM (corunner-vm.h)
 * boots after the host's KVM settings (ple, halt-poll-ns) are applied and
 * before the cell's VMs, its vCPU 0 on corunner-pin's object 0 and vCPU 1
 * on object 1 (the forms of pin; none: unpinned), so `corunner-pin = core`
 * beside `pin = core` puts it on the function VM's cores as the study did.
 * Its agent runs redis-server on vCPU 0 and redis-benchmark rounds with
 * `corunner` connections on vCPU 1 (agent-kv.c) and measures their load
 * alone first; the cell window is marked in the guest, and after the cell
 * the requests/s of the rounds completed in it are stored as the host's kv
 * co-runner stores them (corunner_kv_put_window(), _alone()), with each
 * vCPU's CPUs read back (corunner.vm.vcpuJ). A VM that cannot boot fails
 * the cell.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "corunner-kv.h"
#include "corunner-vm.h"
#include "knob-corunner.h"
#include "log.h"
#include "placement.h"

#define KV_START_MS (10000 + CORUNNER_KV_ALONE_MS + CORUNNER_KV_WIDEN_MS + 10000)
#define KV_LOAD_MS (CORUNNER_KV_WIDEN_MS + 10000)
#define KV_SHORT_MS 10000

static struct {
	struct corunner_vm cv;
	cpu_set_t cpus[2];
	int pinned, port;
	char obtained[CORUNNER_VM_VCPUS][96];
	int alone_ret, alone_rows, window_opened;
	double alone_rps;
	long alone_widened_ms;
} kvm;

static int in_vm(const struct cell *c)
{
	return c->corunner > 0 && corunner_in_vm(c);
}

/* corunner-pin's objects 0 and 1 into kvm.cpus; pinned 0 for none. */
static int corunner_vm_place(const struct cell *c, char *why, size_t len)
{
	struct placement_spec spec;
	struct placement *pl = NULL;
	int i, ret;

	if (placement_parse(c->corunner_pin, &spec))
		return -EINVAL;
	kvm.pinned = spec.kind != PLACE_NONE;
	if (!kvm.pinned)
		return 0;
	ret = placement_open(&pl, why, len);
	for (i = 0; !ret && i < CORUNNER_VM_VCPUS; i++)
		ret = placement_cpus(pl, &spec, i, &kvm.cpus[i], why, len);
	placement_close(pl);
	if (ret)
		snprintf(why + strlen(why), len - strlen(why), " (the co-runner VM's vCPUs)");
	return ret;
}

static int corunner_vm_supported(const struct cell *c, char *why, size_t len)
{
	if (!in_vm(c))
		return 1;
	return !corunner_vm_place(c, why, len);
}

/* pin_vcpus_on()'s read-back, kept for the report. */
static void keep_obtained(void *ctx, const char *key, const char *value)
{
	const char *j = strrchr(key, 'u');      /* ...vcpuJ */
	int i = j ? j[1] - '0' : -1;

	(void)ctx;
	if (i >= 0 && i < CORUNNER_VM_VCPUS)
		snprintf(kvm.obtained[i], sizeof(kvm.obtained[i]), "%s", value);
}

/* "kv started PORT alone RPS ROWS WIDENED_MS" or "... alone -ERRNO". */
static int parse_started(const char *reply)
{
	int n = sscanf(reply, "kv started %d alone %lf %d %ld", &kvm.port, &kvm.alone_rps,
		       &kvm.alone_rows, &kvm.alone_widened_ms);

	if (n == 4) {
		kvm.alone_ret = 0;
		return 0;
	}
	kvm.alone_ret = n == 2 && kvm.alone_rps < 0 ? (int)kvm.alone_rps : -EPROTO;
	return n == 2 ? 0 : -EPROTO;
}

static int corunner_vm_apply(const struct cell *c, char *why, size_t len)
{
	char req[64], reply[512];
	int ret;

	memset(&kvm, 0, sizeof(kvm));
	vm_init(&kvm.cv.vm);
	if (!in_vm(c))
		return 0;
	if (corunner_vm_place(c, why, len))
		return KNOB_SKIP;
	ret = corunner_vm_start(&kvm.cv, c, kvm.pinned ? kvm.cpus : NULL, keep_obtained, NULL,
				why, len);
	if (ret)
		return ret;
	snprintf(req, sizeof(req), "kv start %d %d", c->corunner, CORUNNER_KV_ALONE_MS);
	ret = corunner_vm_ask(&kvm.cv, req, reply, sizeof(reply), KV_START_MS);
	if (!ret && (ret = parse_started(reply)))
		snprintf(why, len, "the co-runner VM's agent answered '%.200s' to '%s'", reply, req);
	else if (ret)
		snprintf(why, len, "the co-runner VM: %s", reply);
	if (ret)
		corunner_vm_stop(&kvm.cv);
	return ret;
}

static int corunner_vm_verify(const struct cell *c, char *why, size_t len)
{
	char reply[512];

	if (!in_vm(c) || !kvm.cv.booted)
		return 0;
	if (!corunner_vm_ask(&kvm.cv, "kv alive", reply, sizeof(reply), KV_SHORT_MS))
		return 0;
	snprintf(why, len, "the co-runner VM: %s", reply);
	return -EIO;
}

static void corunner_vm_window(const struct cell *c, int end)
{
	char reply[512];

	if (!in_vm(c) || !kvm.cv.booted)
		return;
	if (corunner_vm_ask(&kvm.cv, end ? "kv mark 1" : "kv mark 0", reply, sizeof(reply),
			    KV_SHORT_MS))
		pr_warn("the co-runner VM did not mark the cell window: %s", reply);
	else if (!end)
		kvm.window_opened = 1;
}

/* "kv load RPS ROWS WIDENED_MS", or a skip row of the cell. */
static void corunner_vm_report(const struct cell *c, const struct knob_sink *s)
{
	char req[32], reply[512], key[64];
	double rps;
	int rows, i;
	long widened;

	if (!in_vm(c) || !kvm.cv.booted)
		return;
	for (i = 0; i < CORUNNER_VM_VCPUS; i++) {
		snprintf(key, sizeof(key), "corunner.vm.vcpu%d", i);
		if (kvm.obtained[i][0])
			s->put(s->ctx, key, kvm.obtained[i]);
	}
	if (kvm.cv.guest.rootfs_hash[0])
		s->put(s->ctx, "corunner.vm_rootfs_hash", kvm.cv.guest.rootfs_hash);
	corunner_kv_put_alone(s, kvm.alone_ret, kvm.alone_rps, kvm.alone_rows,
			      kvm.alone_widened_ms);
	if (!kvm.window_opened)
		return;
	snprintf(req, sizeof(req), "kv load %d", CORUNNER_KV_WIDEN_MS);
	if (corunner_vm_ask(&kvm.cv, req, reply, sizeof(reply), KV_LOAD_MS) ||
	    sscanf(reply, "kv load %lf %d %ld", &rps, &rows, &widened) != 3) {
		s->skip(s->ctx, "corunner", !strncmp(reply, "kv load -", 9) ?
			"corunner-in = vm: no redis-benchmark round ended within the cell window, "
			"nor within " CORUNNER_KV_WIDEN_TEXT " after it" : reply);
		return;
	}
	corunner_kv_put_window(s, rps, rows, widened);
}

static void corunner_vm_restore(const struct cell *c)
{
	(void)c;
	corunner_vm_stop(&kvm.cv);
}

static void corunner_vm_describe(const struct cell *c, char *buf, size_t len)
{
	char a[64] = "any", b[64] = "any";

	buf[0] = '\0';
	if (!in_vm(c) || !kvm.cv.booted)
		return;
	if (kvm.pinned) {
		placement_cpus_text(&kvm.cpus[0], a, sizeof(a));
		placement_cpus_text(&kvm.cpus[1], b, sizeof(b));
	}
	snprintf(buf, len, "kv in a second VM (QEMU pid %d, %s, rootfs %s): redis-server on "
		 "vCPU 0 (CPUs %s), redis-benchmark SET/GET with %d connection(s) on vCPU 1 "
		 "(CPUs %s)", (int)kvm.cv.vm.pid, kvm.cv.acc.used, CORUNNER_VM_ROOTFS, a,
		 c->corunner, b);
}

const struct knob_ops knob_corunner_vm = {
	.name = "corunner-vm",
	.supported = corunner_vm_supported,
	.apply = corunner_vm_apply,
	.verify = corunner_vm_verify,
	.restore = corunner_vm_restore,
	.describe = corunner_vm_describe,
	.report = corunner_vm_report,
	.window = corunner_vm_window,
};
