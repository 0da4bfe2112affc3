// SPDX-License-Identifier: MIT
/*
 * oci-seccomp-bpf.c - `seccomp = prepared`: the seccomp profile of
 * oci-seccomp.c (deny with EPERM, allow Docker's x86-64 list; arches
 * x86-64, x86, x32) compiled once per cell with libseccomp, as the
 * runtime would compile it per start, and exported as the classic BPF
 * program the kernel takes (seccomp_export_bpf), base64-encoded for crun's
 * run.oci.seccomp_bpf_data annotation: crun then installs it as it is and
 * compiles nothing. The compile's wall time is the cell's metric
 * seccomp.prepare_ns. Built without libseccomp (no seccomp.h): -ENOSYS.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "oci-bundle.h"

#ifdef HAVE_SECCOMP
#include <seccomp.h>

/* The filter of the profile; 0 or -errno with @why. */
static int filter_build(scmp_filter_ctx f, char *why, size_t len)
{
	static const uint32_t arches[] = { SCMP_ARCH_X86, SCMP_ARCH_X32 };
	const char *const *names;
	size_t n, i;
	int nr, ret = 0;

	for (i = 0; i < 2 && !ret; i++)
		ret = seccomp_arch_add(f, arches[i]);
	names = oci_seccomp_allowed(&n);
	for (i = 0; i < n && (ret == 0 || ret == -EEXIST); i++) {
		nr = seccomp_syscall_resolve_name(names[i]);
		ret = nr == __NR_SCMP_ERROR ? 0 : seccomp_rule_add(f, SCMP_ACT_ALLOW, nr, 0);
	}
	if (ret && ret != -EEXIST)
		snprintf(why, len, "seccomp = prepared: libseccomp refused the profile: %s",
			 strerror(-ret));
	return ret == -EEXIST ? 0 : ret;
}

static const char b64chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* @n bytes of @in as base64 (with padding) into a malloc'd string. */
static char *base64(const unsigned char *in, size_t n)
{
	char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
	size_t i;
	unsigned v;

	for (i = 0; out && i < n; i += 3) {
		v = (unsigned)in[i] << 16 | (i + 1 < n ? (unsigned)in[i + 1] << 8 : 0) |
		    (i + 2 < n ? in[i + 2] : 0);
		*o++ = b64chars[v >> 18 & 63];
		*o++ = b64chars[v >> 12 & 63];
		*o++ = i + 1 < n ? b64chars[v >> 6 & 63] : '=';
		*o++ = i + 2 < n ? b64chars[v & 63] : '=';
	}
	if (out)
		*o = '\0';
	return out;
}

/* The exported program (a memfd read back) as base64 into *@b64. */
static int export_b64(scmp_filter_ctx f, char **b64)
{
	int fd = memfd_create("cvmbench-seccomp", MFD_CLOEXEC), ret;
	unsigned char *buf = NULL;
	off_t size;

	if (fd < 0)
		return -errno;
	ret = seccomp_export_bpf(f, fd);
	size = ret ? 0 : lseek(fd, 0, SEEK_END);
	if (!ret && (size <= 0 || !(buf = malloc((size_t)size))))
		ret = -ENOMEM;
	if (!ret && pread(fd, buf, (size_t)size, 0) != size)
		ret = -EIO;
	if (!ret && !(*b64 = base64(buf, (size_t)size)))
		ret = -ENOMEM;
	free(buf);
	close(fd);
	return ret;
}

int oci_seccomp_prepare(char **b64, long long *ns, char *why, size_t len)
{
	long long t0 = clock_now_ns();
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ERRNO(1));
	int ret;

	if (!f) {
		snprintf(why, len, "seccomp = prepared: seccomp_init failed");
		return -ENOMEM;
	}
	ret = filter_build(f, why, len);
	if (!ret && (ret = export_b64(f, b64)))
		snprintf(why, len, "seccomp = prepared: cannot export the filter: %s",
			 strerror(-ret));
	seccomp_release(f);
	*ns = clock_now_ns() - t0;
	return ret;
}

#else

int oci_seccomp_prepare(char **b64, long long *ns, char *why, size_t len)
{
	*b64 = NULL;
	*ns = 0;
	snprintf(why, len, "seccomp = prepared: built without libseccomp (install "
		 "libseccomp-dev and rebuild)");
	return -ENOSYS;
}

#endif
