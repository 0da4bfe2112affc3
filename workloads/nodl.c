// SPDX-License-Identifier: MIT
/*
 * nodl.c - dlopen() and friends for the static cvmfn, which loads nothing.
 *
 * libsqlite3.a calls dlopen() for run-time loadable extensions. In a static
 * binary glibc's dlopen() comes with a link-time warning (it needs the
 * shared libc of the same version at run time). No workload loads SQLite
 * extensions, so these stand-ins take glibc's place: every load fails with
 * a clear message.
 *
 * Defining dlopen() is not enough to silence the warning: glibc warns on any
 * reference to dlopen as soon as its dlopen.o is in the link, and static
 * glibc pulls dlopen.o in for its internal __dlopen (rtld_static_init.o,
 * reached from iconv's gconv loader). So a weak __dlopen stand-in is here
 * too: with it defined, the archive member is never extracted and the link
 * is warning-free. Being weak, it yields to glibc's strong one should
 * dlopen.o be pulled in by something else (the warning would come back,
 * never a duplicate-symbol error). It only serves a libc.so that this
 * binary dlopen()s itself, which it never does.
 */
#include <stddef.h>

static const char nodl_message[] = "extension loading is disabled in the static cvmfn";
static int nodl_failed;

/** dlopen() - always fails: nothing can be loaded into the static cvmfn. */
void *dlopen(const char *file, int mode)
{
	(void)file;
	(void)mode;
	nodl_failed = 1;
	return NULL;
}

/**
 * __dlopen() - glibc's internal entry that the static libc.a links to
 * dlopen.o; see the header comment. Always fails, like dlopen() here.
 */
__attribute__((weak)) void *__dlopen(const char *file, int mode, void *caller)
{
	(void)caller;
	return dlopen(file, mode);
}

/** dlsym() - no handle exists, so no symbol either. */
void *dlsym(void *handle, const char *name)
{
	(void)handle;
	(void)name;
	nodl_failed = 1;
	return NULL;
}

/** dlclose() - nothing was opened: an error, like a bad handle. */
int dlclose(void *handle)
{
	(void)handle;
	nodl_failed = 1;
	return -1;
}

/** dlerror() - the message of the last failure, once, then NULL (as glibc). */
char *dlerror(void)
{
	if (!nodl_failed)
		return NULL;
	nodl_failed = 0;
	return (char *)nodl_message;
}
