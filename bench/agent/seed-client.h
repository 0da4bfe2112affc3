/* SPDX-License-Identifier: MIT */
/*
 * seed-client.h - the parent's side of `cvmfn seed` (workloads/zygote.h):
 * start a seed on one end of a Unix socket, ask it to fork a child with the
 * child's two protocol descriptors (SCM_RIGHTS, never a shell), read its
 * records ("seeded", "forked", the children's "started"), stop it. One
 * piece of code for the host's backend zygote (bench/backends/) and the
 * guest agent, which starts the seed inside a VM (agent-seed.c).
 */
#ifndef CVMBENCH_SEED_CLIENT_H
#define CVMBENCH_SEED_CLIENT_H

#include <stddef.h>
#include <sys/types.h>

/** struct seed_client - a running seed: its pid and our end of its socket. */
struct seed_client {
	pid_t pid;
	int sock;
};

/** struct seed_started - a child's "started" record: its start-up split, ns. */
struct seed_started {
	long long pid, fork_ns, init_ns, first_call_ns;
};

/** struct seed_seeded - the seed's "seeded" record. */
struct seed_seeded {
	long long pid, build_ns, rss_kb, pss_kb;
	char layer[16];
};

/* Called for every "started" record read on the way to another record. */
typedef void (*seed_started_fn)(void *ctx, const struct seed_started *s, const char *line);

/**
 * seed_client_exec() - fork and exec @argv (a `cvmfn seed ... --layer L`)
 * with its stdin on a new SOCK_SEQPACKET socket and stdout on /dev/null;
 * @envp NULL keeps this process's environment. 0, or -errno with @err.
 */
int seed_client_exec(struct seed_client *sc, char *const argv[], char *const envp[],
		     char *err, size_t errlen);
/**
 * seed_client_reply() - the next record that is not a "started" (those go
 * to @fn on the way, if not NULL) into @line, within @timeout_ms (0: only
 * what is there). 0, -ETIMEDOUT, -EPIPE (the seed is gone) or -errno.
 */
int seed_client_reply(struct seed_client *sc, char *line, size_t len, int timeout_ms,
		      seed_started_fn fn, void *ctx);
/** seed_client_fork() - send "fork" with descriptors @rd and @wr. 0 or -errno. */
int seed_client_fork(struct seed_client *sc, int rd, int wr);
/**
 * seed_client_stop() - close the socket (the seed leaves at EOF); kill it
 * if it has not in 2 s. Nothing to do when it never started.
 */
void seed_client_stop(struct seed_client *sc);

/** seed_started_parse() - "started pid=C fork_ns=F init_ns=I first_call_ns=X". 0 or -EPROTO. */
int seed_started_parse(const char *line, struct seed_started *s);
/** seed_seeded_parse() - "seeded pid=P layer=L build_ns=N rss_kb=R pss_kb=S". 0 or -EPROTO. */
int seed_seeded_parse(const char *line, struct seed_seeded *s);
/** seed_forked_parse() - "forked pid=C": the child's pid, or -EPROTO. */
int seed_forked_parse(const char *line);

#endif
