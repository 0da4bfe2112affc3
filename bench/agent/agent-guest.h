/* SPDX-License-Identifier: MIT */
/*
 * agent-guest.h - the lines the guest agent (cvmbench-agent, inside a VM)
 * speaks on its control port besides the probe protocol (agent-proto.h),
 * shared by the agent and the host (the qemu backend), so both parse them
 * with one piece of code:
 *
 *   guest -> host, once, when the agent is up:
 *     cvmbench-ready uptime=S data=ro|none|error kernel=R agent=VERSION ports=N
 *   host -> guest                        guest -> host
 *     env                                fact KEY VALUE ... then env-end COUNT
 *     spawn I serve ARG ...              spawned I PID | error spawn I MESSAGE
 *     probe ... (agent-proto.h)          rows, then one ack
 *     kv ... (agent-kv.c)                kv ... | error kv MESSAGE
 *     seed-start seed ARG ...            the seed's record: seeded pid=P layer=L
 *                                        build_ns=N rss_kb=R pss_kb=S | error seed MESSAGE
 *     fork I                             forked I PID | error fork I MESSAGE
 *     seed-report                        each child's record since the last one:
 *                                        started pid=C fork_ns=F init_ns=I
 *                                        first_call_ns=X, then seed-report-end COUNT
 *     seed-mem PID ...                   mem pid=C ppid=P pss_kb=.. uss_kb=..
 *                                        private_dirty_kb=.. seed_shared_kb=..
 *                                        per PID, then mem-end seed_pid=S
 *                                        seed_pss_kb=K frames=0|-ERRNO
 *
 * `seed-start` starts /bin/cvmfn seed ... (checked as a spawn's words) on
 * a socket of the agent's (seed-client.h), replacing the seed it ran
 * before; `fork I` passes instance port I to it twice (the child's
 * requests and replies, SCM_RIGHTS), so the child speaks the instance
 * protocol on that port as a spawned cvmfn does. `seed-mem` reads the
 * seed's children PID ... from the guest's /proc (zygote-mem.h; -1 where
 * a value is unreadable, frames the error of the kB on the seed's frames).
 *
 * `spawn I` starts /bin/cvmfn with the words after I as its arguments and
 * its stdin and stdout on the instance port org.cvmbench.iI. The words are
 * split at single spaces and checked (printable, no quotes or shell
 * characters, at most AGENT_SPAWN_MAXARGS): the agent execs them, never a
 * shell.
 */
#ifndef CVMBENCH_AGENT_GUEST_H
#define CVMBENCH_AGENT_GUEST_H

#include <stddef.h>

#include "agent-proto.h"
#include "zygote-mem.h"

#define AGENT_READY_PREFIX "cvmbench-ready "
/* instance ports: org.cvmbench.i0 ... (31 ports per virtio-serial device,
 * number 0 reserved for a console, one for the control port) */
#define AGENT_PORT_PREFIX "org.cvmbench.i"
#define AGENT_MAX_PORTS 29
#define AGENT_SPAWN_MAXARGS 30
#define AGENT_GUEST_CVMFN "/bin/cvmfn"
#define AGENT_GUEST_SELF "/bin/cvmbench-agent"
/* the system suite's open-loop load generator, in the image when built */
#define AGENT_GUEST_CVMLOAD "/bin/cvmload"
/*
 * A Debian rootfs disk (bench/backends/rootfs/) carries this ext4 label;
 * the kernel command line word cvmbench.rootfs=LABEL asks the guest to
 * switch to it (agent-rootfs.c).
 */
#define AGENT_GUEST_ROOTFS_LABEL "cvmbench-rootfs"
/*
 * A network device for a service's server (loadgen = host): the kernel
 * command line word cvmbench.net=ADDR asks the guest to load these modules
 * (in the image, not loaded otherwise) and give its NIC ADDR/24
 * (agent-net.c). The qemu backend's image lists the same names.
 */
#define AGENT_GUEST_NET_MODULES "failover net_failover virtio_net"
/* QEMU's user-mode network: the guest's address (its first DHCP address,
 * set statically), its prefix, and the port a service listens on there. */
#define AGENT_GUEST_NET_ADDR "10.0.2.15"
#define AGENT_GUEST_NET_PREFIX 24
#define AGENT_GUEST_SVC_PORT 8000
/* A writable scratch disk (scratch-disk = MiB) carries this label; mounted on /scratch. */
#define AGENT_GUEST_SCRATCH_LABEL "cvmbench-scratch"
/*
 * Where an instance in the guest writes its scratch files (compression,
 * crud-api, random-disk-io): the data disk is read-only, so a directory on
 * the initramfs's root file system, in guest RAM - random-disk-io's writes
 * and fsync reach no disk there (a cell notes it as qemu.scratch).
 */
#define AGENT_GUEST_SCRATCH "/scratch"
#define AGENT_GUEST_SCRATCH_NOTE "/scratch on the guest's initramfs root (guest RAM): " \
	"writes and fsync reach no disk"

#define AGENT_SEED_REQ "seed-start "
#define AGENT_SEED_MEM_REQ "seed-mem"

/** struct agent_spawn - a parsed spawn request; @argv points into @buf. */
struct agent_spawn {
	int port;
	int argc;
	char *argv[AGENT_SPAWN_MAXARGS + 2];
	char buf[AGENT_LINE_MAX];
};

/**
 * agent_spawn_parse() - "spawn I serve ARG ..." into @s: argv[0] is
 * AGENT_GUEST_CVMFN, then the words after I. 0, or -EINVAL with @err saying
 * what is wrong (no port, a port out of range, not `serve`, an empty word,
 * a character outside [A-Za-z0-9_.,:=/+-], too many words).
 */
int agent_spawn_parse(const char *line, struct agent_spawn *s, char *err, size_t errlen);
/**
 * agent_spawn_encode() - the spawn line for port @port and cvmfn's
 * arguments @args (NULL-terminated, without the program) into @line
 * (no newline). 0, -EINVAL (a word agent_spawn_parse() would refuse, with
 * @err) or -E2BIG.
 */
int agent_spawn_encode(int port, char *const args[], char *line, size_t len,
		       char *err, size_t errlen);
/**
 * agent_seed_parse() - "seed-start seed ARG ..." into @s as a spawn's
 * words (port -1): argv[0] is AGENT_GUEST_CVMFN, argv[1] must be `seed`.
 * 0, or -EINVAL with @err.
 */
int agent_seed_parse(const char *line, struct agent_spawn *s, char *err, size_t errlen);
/** agent_seed_encode() - the seed-start line for cvmfn's arguments @args, as agent_spawn_encode(). */
int agent_seed_encode(char *const args[], char *line, size_t len, char *err, size_t errlen);
/**
 * agent_seed_mem_parse() - the pids of "seed-mem PID ..." into @pids (at
 * most @max). How many (0: none named), or -EPROTO.
 */
int agent_seed_mem_parse(const char *line, int *pids, int max);
/** agent_mem_encode() - one child's "mem ..." line into @line (no newline): its length or -E2BIG. */
int agent_mem_encode(const struct seed_child_mem *k, char *line, size_t len);
/** agent_mem_decode() - a "mem ..." line into @k. 0 or -EPROTO. */
int agent_mem_decode(const char *line, struct seed_child_mem *k);
/**
 * agent_mem_end_decode() - "mem-end seed_pid=S seed_pss_kb=K frames=E"
 * (E 0 or -errno). 0 or -EPROTO.
 */
int agent_mem_end_decode(const char *line, long long *seed_pid, long long *seed_pss_kb,
			 int *frames);
/**
 * agent_fact_decode() - "fact KEY VALUE": @key and @value point into
 * @line, which is cut after KEY. 0, or -EPROTO when @line is not a fact.
 */
int agent_fact_decode(char *line, char **key, char **value);
/**
 * agent_ready_field() - the value of "NAME=" in ready line @line into @buf
 * (up to the next space). 0 or -ENOENT.
 */
int agent_ready_field(const char *line, const char *name, char *buf, size_t len);

#endif
