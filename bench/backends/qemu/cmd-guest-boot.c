// SPDX-License-Identifier: MIT
/*
 * cmd-guest-boot.c - `cvmbench guest boot`: boot one guest (the built
 * image, or --kernel/--initrd of your own) to its ready line, print the
 * boot phases, send each --send line and print the guest's answer, then
 * end the VM. With the test /init (no agent yet), add
 * --append cvmbench.test=echo to have the guest answer.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "cmd-guest.h"
#include "exitcode.h"
#include "guest.h"
#include "log.h"
#include "opts.h"
#include "qemu-cell.h"
#include "vm.h"

#define MAX_SEND 32

enum { B_KPKG, B_KERNEL, B_INITRD, B_DISK, B_APPEND, B_VCPUS, B_MEMORY, B_ACCEL,
       B_TIMEOUT, B_SEND, B_QEMU, B_HOLD, B_ROOTFS };

static const struct opt boot_opts[] = {
	{ "kernel-package", 1, "PKG", "build or reuse the image with this kernel", B_KPKG },
	{ "kernel", 1, "FILE", "boot this kernel (with --initrd) instead of the image", B_KERNEL },
	{ "initrd", 1, "FILE", "boot this initramfs", B_INITRD },
	{ "disk", 1, "IMG", "attach IMG read-only as the data disk (/dev/vda)", B_DISK },
	{ "append", 1, "ARGS", "more kernel command line after \"" QEMU_BASE_APPEND "\"",
	  B_APPEND },
	{ "vcpus", 1, "N", "vCPUs (default 1)", B_VCPUS },
	{ "memory", 1, "MIB", "memory in MiB (default 256)", B_MEMORY },
	{ "accel", 1, "tcg|kvm", "accelerator (default tcg)", B_ACCEL },
	{ "timeout", 1, "S", "boot timeout in seconds (default 60)", B_TIMEOUT },
	{ "send", 1, "LINE", "send LINE once ready and print the answer (repeatable)", B_SEND },
	{ "qemu", 1, "BIN", "the QEMU binary (default " QEMU_DEFAULT_BINARY ")", B_QEMU },
	{ "rootfs", 1, "NAME", "switch to the Debian rootfs NAME (configs/rootfs/NAME.list; "
	  "built if not cached) on a read-only disk under a tmpfs", B_ROOTFS },
	{ "hold", 1, "S", "then keep the guest up S seconds (idle; prints QEMU's pid)", B_HOLD },
	OPT_END
};

struct boot_args {
	struct vm_config c;
	const char *kpkg, *vcpus, *memory, *timeout, *hold, *rootfs;
	struct qemu_guest g;        /* the rootfs disk and the command line with it */
	const char *send[MAX_SEND];
	int nsend, bad;
	double hold_s;
};

static int boot_opt(void *ctx, int id, const char *arg)
{
	struct boot_args *a = ctx;

	switch (id) {
	case B_KPKG: a->kpkg = arg; break;
	case B_KERNEL: a->c.kernel = arg; break;
	case B_INITRD: a->c.initrd = arg; break;
	case B_DISK: a->c.data_disk = arg; break;
	case B_APPEND: a->c.append = arg; break;
	case B_VCPUS: a->vcpus = arg; break;
	case B_MEMORY: a->memory = arg; break;
	case B_ACCEL: a->c.accel = arg; break;
	case B_TIMEOUT: a->timeout = arg; break;
	case B_HOLD: a->hold = arg; break;
	case B_ROOTFS: a->rootfs = arg; break;
	case B_QEMU: a->c.qemu = arg; break;
	default:
		if (a->nsend == MAX_SEND) {
			fprintf(stderr, "cvmbench guest boot: at most %d --send\n", MAX_SEND);
			return 2;
		}
		a->send[a->nsend++] = arg;
	}
	return 0;
}

static int numbers(struct boot_args *a, double *timeout)
{
	size_t v = 1, m = 256;
	char *end;

	if ((a->vcpus && opts_count("guest boot", "vcpus", a->vcpus, &v)) ||
	    (a->memory && opts_count("guest boot", "memory", a->memory, &m)))
		return -EINVAL;
	a->c.vcpus = (unsigned int)(v > 1024 ? 0 : v);
	a->c.memory_mib = (unsigned int)(m > (1u << 22) ? 0 : m);
	*timeout = a->timeout ? strtod(a->timeout, &end) : 60;
	if (a->timeout && (*end || !(*timeout > 0 && *timeout <= 3600))) {
		fprintf(stderr, "cvmbench guest boot: --timeout '%s': expected seconds "
			"(0 < S <= 3600)\n", a->timeout);
		return -EINVAL;
	}
	a->hold_s = a->hold ? strtod(a->hold, &end) : 0;
	if (a->hold && (*end || !(a->hold_s > 0 && a->hold_s <= 86400))) {
		fprintf(stderr, "cvmbench guest boot: --hold '%s': expected seconds "
			"(0 < S <= 86400)\n", a->hold);
		return -EINVAL;
	}
	return 0;
}

/* The image to boot: the user's kernel and initrd, or the built one. */
static int pick_image(struct boot_args *a, struct guest_image *img)
{
	struct guest_build_opts b = { a->kpkg, NULL, NULL, NULL };
	char err[2048];

	if (!a->c.kernel != !a->c.initrd) {
		fprintf(stderr, "cvmbench guest boot: --kernel and --initrd go together\n");
		return -EINVAL;
	}
	if (a->c.kernel)
		return 0;
	if (guest_image_build(&b, img, err, sizeof(err))) {
		pr_err("guest boot: %s", err);
		return -EIO;
	}
	a->c.kernel = img->kernel;
	a->c.initrd = img->initrd;
	return 0;
}

/* --rootfs: the rootfs disk after the data disk, and the word that switches to it. */
static int pick_rootfs(struct boot_args *a)
{
	char err[4096];

	if (!a->rootfs)
		return 0;
	if (qemu_cell_rootfs(a->rootfs, a->c.append, &a->g, err, sizeof(err))) {
		pr_err("guest boot: --rootfs %s: %s", a->rootfs, err);
		return -EINVAL;
	}
	a->c.rootfs_disk = a->g.rootfs_disk;
	a->c.append = a->g.append;
	printf("rootfs %s %s\n", a->g.rootfs_name, a->g.rootfs_hash);
	return 0;
}

static void print_phases(const struct vm *vm)
{
	const struct vm_phases *p = &vm->ph;

	if (p->first_console >= 0)
		printf("phase first-console %.3f s\n", p->first_console / 1e9);
	else
		printf("phase first-console none\n");
	printf("phase ready %.3f s\n", p->ready / 1e9);
	if (p->guest_uptime_s >= 0)
		printf("phase guest-uptime %.2f s\n", p->guest_uptime_s);
	printf("ready %s\n", vm->ready_line);
}

static int talk(struct vm *vm, const struct boot_args *a)
{
	char line[1024];
	int i, ret = 0;

	for (i = 0; i < a->nsend && !ret; i++) {
		ret = vm_send(vm, a->send[i]);
		if (!ret)
			ret = vm_recv(vm, line, sizeof(line), 30000);
		if (ret)
			pr_err("guest boot: sending '%s': %s", a->send[i], strerror(-ret));
		else
			printf("< %s\n", line);
		if (!ret && !strcmp(a->send[i], "poweroff"))
			printf("powered off: %s\n", vm_wait_exit(vm, 20000) ? "yes" : "no");
	}
	return ret;
}

/* --hold: an idle guest for S seconds (Ctrl-C ends it early), e.g. to read QEMU's memory. */
static void hold(const struct vm *vm, double s)
{
	long long end = clock_now_ns() + (long long)(s * 1e9);

	printf("qemu-pid %d\n", (int)vm->pid);
	fflush(stdout);
	while (clock_now_ns() < end && vm_wait_exit((struct vm *)vm, 200) == 0)
		;
}

static struct vm *booting;

/* Ctrl-C or TERM: end QEMU and remove its directory (async-signal-safe calls only). */
static void on_signal(int sig)
{
	struct vm *vm = booting;

	(void)sig;
	if (vm)
		vm_stop_in_signal(vm);
	_exit(EXIT_INTERRUPTED);
}

static void catch_signals(struct vm *vm)
{
	struct sigaction sa = { .sa_handler = on_signal };

	booting = vm;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int guest_boot(int argc, char **argv)
{
	static const char synopsis[] = "guest boot [options]";
	static struct boot_args a;
	struct guest_image img;
	struct vm vm;
	double timeout;
	char err[4096];
	int first, ret = opts_parse(argc, argv, synopsis, boot_opts, boot_opt, &a, &first);

	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (first < argc || numbers(&a, &timeout) || pick_image(&a, &img) == -EINVAL ||
	    pick_rootfs(&a))
		return EXIT_USAGE;
	if (!a.c.kernel)
		return EXIT_FAILED;
	if (!a.c.accel)
		a.c.accel = "tcg";
	memset(&vm, 0, sizeof(vm));
	catch_signals(&vm);
	ret = vm_start(&vm, &a.c, timeout, err, sizeof(err));
	if (ret) {
		pr_err("guest boot: %s", err);
		/* a file or program named on the command line is missing or wrong */
		return ret == -EINVAL || ret == -ENOENT || ret == -ENOEXEC ? EXIT_USAGE :
		       EXIT_FAILED;
	}
	print_phases(&vm);
	fflush(stdout);
	ret = talk(&vm, &a);
	if (!ret && a.hold)
		hold(&vm, a.hold_s);
	vm_stop(&vm);
	return ret ? EXIT_FAILED : EXIT_OK;
}
