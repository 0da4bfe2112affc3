/* SPDX-License-Identifier: MIT */
/*
 * backend.h - where a function instance runs. A backend owns the life of a
 * cell's instances: it says whether it can run a cell, sets up and tears
 * down what the cell's instances share (a network namespace, a cgroup, the
 * cell's VMs), prepares what a workload needs before its first instance (a
 * rootfs, a guest image, model files), and starts a cvmfn serving one
 * workload, handing back the two descriptors of the protocol; everything
 * after that (handshake, invoke, quit) is instance.c's.
 *
 * The runner calls, for each cell (cell-run.c):
 *
 *   supported()                    skip with the reason if 0: nothing else
 *   [knobs apply]
 *   cell_begin(&state)             0, BACKEND_SKIP (skip) or -errno (fail)
 *     prepare(state)               once, before the first instance
 *     spawn(state, in) ... cleanup(state, in)   per instance
 *     verify(state)                after the calls (with the knobs' verify)
 *   cell_end(state)                whenever cell_begin returned 0
 *   [knobs restore]
 *
 * What each backend does there: native - prepare runs `cvmfn prepare`,
 * spawn forks cvmfn. runc / crun - cell_begin makes the shared netns, the
 * quota cgroup and crun's v1 mounts; prepare the model files and the
 * cell's rootfs; spawn writes a bundle and runs the runtime. A VM backend -
 * supported checks accel, confidential type, vCPUs and memory for the
 * cell; prepare gets the guest image and the workload's data disk and
 * boots the VMs (each in a private directory; QEMU pid and directory
 * journalled); spawn starts a cvmfn in one of them through its agent;
 * cell_end stops the VMs.
 *
 * Backends: one file (or folder) each and one line in backend-list.h.
 */
#ifndef CVMBENCH_BACKEND_H
#define CVMBENCH_BACKEND_H

#include <stddef.h>

#include "cell.h"
#include "env.h"
#include "instance.h"

struct sink;

enum { BACKEND_SKIP = 1 };

/*
 * What kind of place an instance runs in; knobs, probes and the runner ask
 * this (backend_boots_guests(), backend_cell_accel()), never a backend's name.
 */
enum backend_flags {
	BACKEND_CGROUPS = 1 << 0,  /* an OCI runtime puts instances in cgroups */
	BACKEND_GUEST = 1 << 1,    /* instances run in a guest of their own (qemu) */
	BACKEND_SEED = 1 << 2,     /* instances only fork from a seed (seed-layer: zygote) */
	BACKEND_SEED_LAYER = 1 << 3,   /* with a seed-layer, they fork from a seed where
				      * they run (runc, crun: in one container per cell,
				      * oci-seed.c; qemu: in each guest, qemu-seed.h) */
};

struct backend_env {
	const char *cvmfn;        /* path of the cvmfn binary */
	const char *data_dir;     /* model and data files */
	const char *digest;       /* which calls are hashed (--digest); NULL = every */
	const char *scratch_dir;  /* cvmfn --scratch-dir; NULL = its data directory */
	int service;              /* a service cell (the system suite): runc and crun
				     start the agent that runs it, not cvmfn (oci-svc.c) */
	/*
	 * Where a backend writes what it learns while it runs a cell (each
	 * NULL outside a run, e.g. for `cvmbench qemu-argv`): note() a
	 * cell_param of the cell (qemu.accel, a guest's own kernel and CVM
	 * evidence as guest.*), env_note() a fact of the run's environment
	 * (the hash of a booted guest), both with @note_ctx; @sink the cell's
	 * sink for rows of a table of its own (vm_boot).
	 */
	void (*note)(void *note_ctx, const char *key, const char *value);
	void (*env_note)(void *note_ctx, const char *key, const char *value,
			 const char *source);
	void *note_ctx;
	struct sink *sink;
};

/* A backend_env.note() callback. */
typedef void (*backend_note_fn)(void *ctx, const char *key, const char *value);

struct backend_ops {
	const char *name;
	unsigned int flags;       /* BACKEND_* */
	/*
	 * Can it run @c here (runtime found, CPUs, and for a VM accel,
	 * confidential type, vCPUs, memory)? 1, or 0 with the reason in @why.
	 * Changes nothing (`cvmbench list` asks it too). NULL = always.
	 */
	int (*supported)(const struct cell *c, char *why, size_t len);
	/*
	 * Set up what @c's instances share; *@state is the backend's and is
	 * given to every later call. 0, BACKEND_SKIP (reason in @err: the cell
	 * is skipped) or -errno (reason in @err: the cell fails); on non-zero
	 * nothing is left behind and cell_end() is not called. NULL = nothing.
	 */
	int (*cell_begin)(const struct cell *c, const struct backend_env *env,
			  void **state, char *err, size_t errlen);
	/*
	 * What @c's workload needs before its first instance (model files, a
	 * rootfs, a guest image). 0, BACKEND_SKIP (reason in @err: a booted
	 * guest cannot run the cell as asked) or -errno with @err. NULL = nothing.
	 */
	int (*prepare)(const struct cell *c, const struct backend_env *env, void *state,
		       char *err, size_t errlen);
	/*
	 * Start an instance of @c's workload; fills pid (the process on this
	 * machine that stands for the instance: cvmfn, the runtime, a VM's
	 * QEMU), the protocol fds and spawn_ns. 0, or -errno with @err and
	 * nothing left (cleanup() is not called for a failed spawn).
	 */
	int (*spawn)(const struct cell *c, const struct backend_env *env, void *state,
		     struct instance *in, char *err, size_t errlen);
	/*
	 * After the cell's calls, before cell_end(): did what the backend set
	 * for @c hold during the cell (a guest's idle policy, read inside the
	 * guest)? 0, or -errno with @why (the cell fails). NULL = no check.
	 */
	int (*verify)(void *state, const struct cell *c, char *why, size_t len);
	/* After instance_close(): remove what spawn created (NULL = nothing). */
	void (*cleanup)(void *state, struct instance *in);
	/* Undo what cell_begin() and prepare() made; free @state (NULL = nothing). */
	void (*cell_end)(void *state);
	/*
	 * Where the instance-side probes run when it is not this process: the
	 * descriptors of the agent's control channel (the backend keeps them)
	 * and, in @who, where that agent runs ("guest vm 0 ..."). 0 or -errno
	 * with @who saying why. NULL = the in-process agent (native, runc, crun).
	 */
	int (*agent_link)(void *state, int *to_fd, int *from_fd, char *who, size_t len);
	/*
	 * A service cell with loadgen = host: the port on this host's 127.0.0.1
	 * that reaches the service's server in the guest (qemu: VM 0's user-mode
	 * NIC forward), or -ENOENT. NULL = the backend has none.
	 */
	int (*svc_host_port)(void *state);
	/*
	 * The accelerator @c's VMs will start under ("kvm" or "tcg"), decided
	 * from the cell and this host before anything runs (the qemu backend:
	 * qemu_accel_for_cell()); @why: what the host said where it decided
	 * ("/dev/kvm: No such file or directory"), else "". A run may still
	 * end up on another one (accel() says which). Changes nothing.
	 * NULL op = the backend runs no VM.
	 */
	const char *(*cell_accel)(const struct cell *c, char *why, size_t len);
	/*
	 * The accelerator @state's VMs run under ("kvm", "tcg"), as prepare()
	 * chose it (accel = auto may fall back to TCG), or NULL if not known;
	 * valid until cell_end(). NULL op = the backend runs no VM.
	 */
	const char *(*accel)(void *state);
	/*
	 * What `cvmbench env` can say of this backend here without starting
	 * anything (the qemu backend: the accelerator and CPU model a default
	 * cell would start with), each through @emit as env_collect() does.
	 * NULL = nothing to say.
	 */
	void (*env_facts)(env_emit_fn emit, void *ctx);
};

/** backend_close() - instance_close() and the backend's cleanup. */
void backend_close(const struct backend_ops *be, void *state, struct instance *in,
		   double timeout_s);

/* Runs in the forked child: set it up, make @req_rd stdin and @rep_wr
 * stdout, and exec. Never returns. */
typedef void (*backend_child_fn)(void *arg, int req_rd, int rep_wr);

/**
 * backend_fork() - create the two protocol pipes, fork, run @child(@arg)
 * in the child, and give the parent's ends to @in (pid, to_fd, from_fd;
 * spawn_ns just before the fork). Returns 0 or -errno with @err set.
 */
int backend_fork(struct instance *in, backend_child_fn child, void *arg,
		 char *err, size_t errlen);

/** backend_find() - the backend called @name, or NULL. */
const struct backend_ops *backend_find(const char *name);

/**
 * backend_boots_guests() - 1 when the backend called @name runs its
 * instances in guests of their own (BACKEND_GUEST), else 0 (also for a
 * name that is not a backend).
 */
int backend_boots_guests(const char *name);

/**
 * backend_cell_accel() - the accelerator @c's VMs will start under, as
 * its backend decides it (backend_ops.cell_accel, @why as there), or NULL
 * when the backend runs no VM (or is not built in; @why "").
 */
const char *backend_cell_accel(const struct cell *c, char *why, size_t len);

/** backend_env_facts() - every backend's env_facts(), in the backend list's order. */
void backend_env_facts(env_emit_fn emit, void *ctx);

/** backend_names() - "native|runc|crun|qemu": the built-in backends, for messages. */
void backend_names(char *buf, size_t len);

/**
 * backend_test_register() - add @be to the registry (one slot; NULL removes
 * it). For unit tests only: a fake backend found by name like the others.
 */
void backend_test_register(const struct backend_ops *be);

/**
 * cvmfn_argv() - the argv of `cvmfn CMD` for cell @c into @argv (NULL
 * terminated), with strings in @store: @env's cvmfn and data directory, and
 * for `serve` and `seed` its --digest policy, for `seed` the cell's
 * --layer. Shared by every backend.
 */
void cvmfn_argv(const struct backend_env *env, const char *cmd, const struct cell *c,
		char *store, size_t storelen, char **argv, size_t maxargs);

/**
 * cvmfn_prepare_here() - run `cvmfn prepare` for @c's workload on this
 * machine (its model and data files in @env's data directory). 0, or -EIO
 * with cvmfn's first line of stderr in @err. For backends whose instances
 * read the data directory of this machine (native, OCI).
 */
/**
 * cvmfn_python_check_here() - whether this machine's python3 has the
 * modules of @c's Python twin (`cvmfn check NAME --runtime python`). 0,
 * BACKEND_SKIP with @err naming the missing Debian package, or -EIO.
 */
int cvmfn_python_check_here(const struct cell *c, const struct backend_env *env,
			    char *err, size_t errlen);
/**
 * backend_runtime_supported() - 0 with @why for runtime = python in a
 * container or guest without a rootfs (the bare ones have no python3); else 1.
 */
int backend_runtime_supported(const struct cell *c, char *why, size_t len);

int cvmfn_prepare_here(const struct cell *c, const struct backend_env *env,
		       char *err, size_t errlen);

#endif
