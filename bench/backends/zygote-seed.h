/* SPDX-License-Identifier: MIT */
/*
 * zygote-seed.h - the host side of a seed (`cvmfn seed`, workloads/zygote.h)
 * that any backend can start where it likes: backend-zygote.c forks it on
 * this machine, oci-seed.c runs it as a runc / crun container. Whoever
 * started it gives its pid and socket to a struct zygote_state; the rest is
 * backend-zygote.c's: waiting for "seeded", a fork per spawn (the pipes over
 * the socket, seed-client.h), the rows of seed_start and seed_memory and the
 * layer metrics (seed-rows.h, the one writer also of the guests' seeds).
 */
#ifndef CVMBENCH_ZYGOTE_SEED_H
#define CVMBENCH_ZYGOTE_SEED_H

#include <sys/types.h>

#include "backend.h"
#include "seed-client.h"
#include "seed-rows.h"

#define ZYGOTE_MAX_KIDS 256
#define ZYGOTE_MAX_STARTS 256

/*
 * The pid on this machine of the child the seed calls @pid (the seed's pid
 * namespace may not be ours), or -errno. NULL in zygote_state = the same.
 */
typedef pid_t (*zygote_host_pid_fn)(void *ctx, pid_t pid);

struct zygote_state {
	struct seed_client sc;    /* the seed's pid on this machine, our socket end */
	long journal_id;          /* the seed's process entry (0: its starter's job) */
	pid_t kids[ZYGOTE_MAX_KIDS];
	int nkids;
	struct seed_tally tally;  /* the rows so far, for the layer metrics */
	zygote_host_pid_fn host_pid;
	void *host_ctx;
	pid_t seen_pid[ZYGOTE_MAX_STARTS][2];   /* the seed's pid, ours: forked, not
						 * yet reported */
	int nseen;
};

/** zygote_state_init() - an idle @z for cell @c, rows into @sink (may be NULL). */
void zygote_state_init(struct zygote_state *z, const struct cell *c, struct sink *sink);
/**
 * zygote_seed_ready() - wait (60 s) for the "seeded" record of the seed
 * whose socket is @z->sc.sock. 0, or -EIO with the seed's words in @err.
 */
int zygote_seed_ready(struct zygote_state *z, const struct cell *c, char *err,
		      size_t errlen);
/** zygote_seed_stop() - close the socket (the seed exits at EOF); reap our own child. */
void zygote_seed_stop(struct zygote_state *z);

/* The backend_ops of a seed's instances, @state a struct zygote_state. */
int zygote_spawn(const struct cell *c, const struct backend_env *env, void *state,
		 struct instance *in, char *err, size_t errlen);
void zygote_cleanup(void *state, struct instance *in);
int zygote_verify(void *state, const struct cell *c, char *why, size_t len);

#endif
