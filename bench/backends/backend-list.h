/* SPDX-License-Identifier: MIT */
/*
 * backend-list.h - every backend, one line each. Adding a backend is one new
 * file (or folder) defining `const struct backend_ops backend_<ident>` and
 * one line here; the config key `backend` accepts exactly these names.
 */
#define BACKENDS(X)     \
	X(native)       \
	X(runc)         \
	X(crun)         \
	X(qemu)         \
	X(zygote)
