// SPDX-License-Identifier: MIT
/*
 * kvm-toy.c - the micro-VM of kvm-toy.h. The guest (16-bit real mode, at
 * 0x1000) reads three counts from 0x500, 0x504, 0x508 and runs three
 * loops, each skipped when its count is 0:
 *
 *	mov ecx, [0x500]; test ecx, ecx; jz 1f
 *   0:	out 0x10, al;      dec ecx; jnz 0b
 *   1:	mov ecx, [0x504]; test ecx, ecx; jz 1f
 *   0:	mov [0x9000], al;  dec ecx; jnz 0b
 *   1:	mov ecx, [0x508]; test ecx, ecx; jz 1f
 *   0:	hlt;               dec ecx; jnz 0b
 *   1:	out 0x11, al;  jmp .
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kvm-toy.h"

#define RAM_SIZE   0x8000
#define CODE_GPA   0x1000
#define COUNTS_GPA 0x500

struct kvm_toy {
	int kvm, vm, vcpu;
	int stats;                /* the vCPU's binary statistics, kept open (-1: none) */
	uint8_t *ram;
	struct kvm_run *run;
	size_t run_size;
};

/* One loop: ecx = [@counter]; if nonzero, @body (@blen bytes) ecx times. */
static size_t loop(uint8_t *p, uint16_t counter, const uint8_t *body, size_t blen)
{
	size_t n = 0;

	p[n++] = 0x66; p[n++] = 0x8b; p[n++] = 0x0e;          /* mov ecx, [disp16] */
	p[n++] = (uint8_t)counter; p[n++] = (uint8_t)(counter >> 8);
	p[n++] = 0x66; p[n++] = 0x85; p[n++] = 0xc9;          /* test ecx, ecx */
	p[n++] = 0x74; p[n++] = (uint8_t)(blen + 4);          /* jz past the loop */
	memcpy(p + n, body, blen);
	n += blen;
	p[n++] = 0x66; p[n++] = 0x49;                         /* dec ecx */
	p[n++] = 0x75; p[n++] = (uint8_t)-(int)(blen + 4);    /* jnz body */
	return n;
}

size_t kvm_toy_code(uint8_t *buf, size_t len)
{
	static const uint8_t out_io[] = { 0xe6, KVM_TOY_IO_PORT };
	static const uint8_t mmio[] = { 0xa2, KVM_TOY_MMIO_GPA & 0xff, KVM_TOY_MMIO_GPA >> 8 };
	static const uint8_t hlt[] = { 0xf4 };
	static const uint8_t done[] = { 0xe6, KVM_TOY_DONE_PORT, 0xeb, 0xfe };
	size_t n = 0;

	if (len < 64)
		return 0;
	n += loop(buf + n, COUNTS_GPA, out_io, sizeof(out_io));
	n += loop(buf + n, COUNTS_GPA + 4, mmio, sizeof(mmio));
	n += loop(buf + n, COUNTS_GPA + 8, hlt, sizeof(hlt));
	memcpy(buf + n, done, sizeof(done));
	return n + sizeof(done);
}

static int fail(char *err, size_t errlen, const char *what)
{
	int e = errno ? errno : EIO;

	snprintf(err, errlen, "%s: %s", what, strerror(e));
	return -e;
}

static int vm_setup(struct kvm_toy *t, char *err, size_t errlen)
{
	struct kvm_userspace_memory_region r = { .memory_size = RAM_SIZE };
	long sz;

	t->vm = ioctl(t->kvm, KVM_CREATE_VM, 0);
	if (t->vm < 0)
		return fail(err, errlen, "KVM_CREATE_VM");
	t->ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (t->ram == MAP_FAILED) {
		t->ram = NULL;
		return fail(err, errlen, "guest memory");
	}
	kvm_toy_code(t->ram + CODE_GPA, RAM_SIZE - CODE_GPA);
	r.userspace_addr = (uintptr_t)t->ram;
	if (ioctl(t->vm, KVM_SET_USER_MEMORY_REGION, &r))
		return fail(err, errlen, "KVM_SET_USER_MEMORY_REGION");
	t->vcpu = ioctl(t->vm, KVM_CREATE_VCPU, 0);
	if (t->vcpu < 0)
		return fail(err, errlen, "KVM_CREATE_VCPU");
	sz = ioctl(t->kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (sz <= 0)
		return fail(err, errlen, "KVM_GET_VCPU_MMAP_SIZE");
	t->run_size = (size_t)sz;
	t->run = mmap(NULL, t->run_size, PROT_READ | PROT_WRITE, MAP_SHARED, t->vcpu, 0);
	if (t->run == MAP_FAILED) {
		t->run = NULL;
		return fail(err, errlen, "mmap of kvm_run");
	}
	return 0;
}

int kvm_toy_open(struct kvm_toy **out, char *err, size_t errlen)
{
	struct kvm_toy *t = calloc(1, sizeof(*t));
	int ret;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->vm = t->vcpu = t->stats = -1;
	t->kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (t->kvm < 0) {
		ret = fail(err, errlen, "/dev/kvm");
		goto err;
	}
	if (ioctl(t->kvm, KVM_GET_API_VERSION, 0) != KVM_API_VERSION) {
		snprintf(err, errlen, "/dev/kvm: unexpected KVM API version");
		ret = -ENOTSUP;
		goto err;
	}
	ret = vm_setup(t, err, errlen);
	if (ret)
		goto err;
	/* kept open as a VMM that reads its own statistics does (none: kernel < 5.14) */
	t->stats = ioctl(t->vcpu, KVM_GET_STATS_FD, NULL);
	*out = t;
	return 0;
err:
	kvm_toy_close(t);
	return ret;
}

/* Real mode at CODE_GPA, flat segments at 0. */
static int vcpu_reset(struct kvm_toy *t, char *err, size_t errlen)
{
	struct kvm_sregs s;
	struct kvm_regs g = { .rip = CODE_GPA, .rflags = 2 };

	if (ioctl(t->vcpu, KVM_GET_SREGS, &s))
		return fail(err, errlen, "KVM_GET_SREGS");
	s.cs.base = 0;
	s.cs.selector = 0;
	s.ds.base = 0;
	s.ds.selector = 0;
	if (ioctl(t->vcpu, KVM_SET_SREGS, &s))
		return fail(err, errlen, "KVM_SET_SREGS");
	if (ioctl(t->vcpu, KVM_SET_REGS, &g))
		return fail(err, errlen, "KVM_SET_REGS");
	return 0;
}

static void seen(struct kvm_toy *t, struct kvm_toy_run *r)
{
	switch (t->run->exit_reason) {
	case KVM_EXIT_IO:
		if (t->run->io.port == KVM_TOY_DONE_PORT)
			r->seen_done++;
		else if (t->run->io.port == KVM_TOY_IO_PORT)
			r->seen_io++;
		else
			r->seen_other++;
		break;
	case KVM_EXIT_MMIO:
		r->seen_mmio++;
		break;
	case KVM_EXIT_HLT:
		r->seen_hlt++;
		break;
	default:
		r->seen_other++;
	}
}

int kvm_toy_exec(struct kvm_toy *t, struct kvm_toy_run *r, char *err, size_t errlen)
{
	uint32_t counts[3] = { r->io, r->mmio, r->hlt };
	long limit = (long)r->io + r->mmio + r->hlt + 16;
	int ret = vcpu_reset(t, err, errlen);

	memcpy(t->ram + COUNTS_GPA, counts, sizeof(counts));
	r->seen_io = r->seen_mmio = r->seen_hlt = r->seen_done = r->seen_other = 0;
	while (!ret && !r->seen_done) {
		if (ioctl(t->vcpu, KVM_RUN, 0) && errno != EINTR)
			return fail(err, errlen, "KVM_RUN");
		seen(t, r);
		if (t->run->exit_reason == KVM_EXIT_SHUTDOWN ||
		    t->run->exit_reason == KVM_EXIT_FAIL_ENTRY ||
		    t->run->exit_reason == KVM_EXIT_INTERNAL_ERROR || --limit < 0) {
			snprintf(err, errlen, "the micro-VM stopped with KVM exit %u",
				 t->run->exit_reason);
			return -EIO;
		}
	}
	return ret;
}

int kvm_toy_vcpu_fd(const struct kvm_toy *t)
{
	return t->vcpu;
}

void kvm_toy_close(struct kvm_toy *t)
{
	if (!t)
		return;
	if (t->run)
		munmap(t->run, t->run_size);
	if (t->stats >= 0)
		close(t->stats);
	if (t->vcpu >= 0)
		close(t->vcpu);
	if (t->ram)
		munmap(t->ram, RAM_SIZE);
	if (t->vm >= 0)
		close(t->vm);
	if (t->kvm >= 0)
		close(t->kvm);
	free(t);
}
