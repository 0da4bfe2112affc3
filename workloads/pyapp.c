// SPDX-License-Identifier: MIT
/*
 * pyapp.c - the embedded Python handler and its exec (pyapp.h). The zip
 * (the Makefile builds it from the .py files of workloads/python/) is linked in with
 * .incbin; python3 runs a zip application from a path, here the memfd's
 * /proc/self/fd/N, so nothing is written to any file system.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "pyapp.h"
#include "wlclock.h"

#ifndef PYAPP_ZIP
#error "PYAPP_ZIP: the path of the handler's zip application (see the Makefile)"
#endif

__asm__(".section .rodata\n"
	".balign 16\n"
	".global pyapp_zip\n"
	"pyapp_zip:\n"
	".incbin \"" PYAPP_ZIP "\"\n"
	".global pyapp_zip_end\n"
	"pyapp_zip_end:\n"
	".previous\n");

extern const unsigned char pyapp_zip[], pyapp_zip_end[];

/* A memfd holding the zip, kept open across exec (no MFD_CLOEXEC). */
static int zip_memfd(void)
{
	const unsigned char *p = pyapp_zip;
	int fd = memfd_create("cvmfn-python.zip", 0);

	if (fd < 0)
		return -errno;
	while (p < pyapp_zip_end) {
		ssize_t n = write(fd, p, (size_t)(pyapp_zip_end - p));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return n < 0 ? -errno : -EIO;
		}
		p += n;
	}
	return fd;
}

/*
 * CLOCK_MONOTONIC just before execv() as PYAPP_EXEC_NS_ENV: the handler's
 * first statement subtracts it from its own clock (the interpreter start).
 */
static void exec_time_export(void)
{
	char ns[32];

	snprintf(ns, sizeof(ns), "%lld", wl_now_ns());
	setenv(PYAPP_EXEC_NS_ENV, ns, 1);
}

int pyapp_exec(char **argv, char *err, size_t errlen)
{
	char path[64], *args[64];
	int fd = zip_memfd(), n = 0, i;

	if (fd < 0) {
		snprintf(err, errlen, "memfd for the Python handler: %s", strerror(-fd));
		return fd;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	args[n++] = PYAPP_INTERPRETER;
	args[n++] = "-I";               /* no PYTHON* variables, no user site */
	args[n++] = path;
	for (i = 1; argv[i] && n < 63; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	exec_time_export();
	execv(PYAPP_INTERPRETER, args);
	snprintf(err, errlen, "cannot run %s: %s (Debian package python3-minimal)",
		 PYAPP_INTERPRETER, strerror(errno));
	close(fd);
	return -errno;
}
