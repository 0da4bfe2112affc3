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
