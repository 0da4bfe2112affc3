/* SPDX-License-Identifier: MIT */
/*
 * pyapp.h - `cvmfn run|serve NAME --runtime python`: the functions in their
 * real runtime. cvmfn carries the Python handler (workloads/python/, built
 * into a zip application) inside its own binary, so a container or a guest
 * that runs cvmfn has it too; it hands it to the rootfs's CPython through a
 * memfd and executes the interpreter in its own place (same pid, same
 * pipes or port, no shell).
 */
#ifndef CVMFN_PYAPP_H
#define CVMFN_PYAPP_H

/* Debian's interpreter: the one whose python3-* packages the functions use. */
#define PYAPP_INTERPRETER "/usr/bin/python3"

/*
 * The environment variable with CLOCK_MONOTONIC in ns at the execv(): the
 * start of the interpreter-start window (docs/workloads.md, cold start).
 */
#define PYAPP_EXEC_NS_ENV "CVMFN_EXEC_NS"

/**
 * pyapp_exec() - execute PYAPP_INTERPRETER on the embedded handler with
 * cvmfn's own arguments @argv[1..]. Returns only on failure: -errno, with
 * a message (naming the interpreter and its Debian package) in @err.
 */
int pyapp_exec(char **argv, char *err, size_t errlen);

#endif
