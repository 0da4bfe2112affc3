/* SPDX-License-Identifier: MIT */
/*
 * agent-guest-local.h - between the parts of the static cvmbench-agent
 * (the guest side; docs/agent.md): its main loop, its instance ports and
 * spawns, the guest's environment facts.
 */
#ifndef CVMBENCH_AGENT_GUEST_LOCAL_H
#define CVMBENCH_AGENT_GUEST_LOCAL_H

#include <stddef.h>

#include "agent-guest.h"

/** agent_ports_find() - the instance ports' device paths, by number; how many were found. */
int agent_ports_find(void);
/**
 * agent_spawn() - handle one "spawn" line: open instance port I, fork,
 * exec cvmfn on it; the reply line ("spawned I PID" or "error spawn I ...")
 * into @reply.
 */
void agent_spawn(const char *line, char *reply, size_t len);
/**
 * agent_port_open() - instance port @port's device, opened read-write: its
 * descriptor, or -1 with "error VERB PORT ..." in @reply.
 */
int agent_port_open(int port, const char *verb, char *reply, size_t len);
/**
 * agent_seed() - handle one seed-start, fork, seed-report or seed-mem line
 * (agent-guest.h; agent-seed.c); its reply lines are written to @fd. 0, or
 * -errno when @fd failed.
 */
int agent_seed(int fd, const char *line);
/** agent_facts_collect() - gather the guest's facts (kernel, cpuidle, CVM evidence, ...). */
void agent_facts_collect(void);
/** agent_facts_send() - "fact KEY VALUE" lines then "env-end N" on @fd. 0 or -errno. */
int agent_facts_send(int fd);
/** agent_cmdline_value() - the value of NAME= on the kernel command line. 0 or -ENOENT. */
int agent_cmdline_value(const char *name, char *buf, size_t len);

/**
 * agent_init_boot() - with --init: the guest's boot work instead of /init's
 * shell (mounts, the console, the init-start log line, the space-separated
 * @mods, the control port, the data disk). The port's device into @port,
 * "ro", "none" or "error" into @data. 0; 1 when it switched to a rootfs
 * disk (the caller execs the agent of the new root); -ENODEV when there is
 * no port or no rootfs disk asked for (the guest is then powered off).
 */
int agent_init_boot(const char *mods, char *port, size_t len, const char **data);

/** agent_loopback_up() - the interface lo up. 0 or -errno. */
int agent_loopback_up(void);
/** agent_if_up() - the interface @name up (IFF_UP). 0 or -errno. */
int agent_if_up(const char *name);
/** agent_modules_load() - each of the space-separated @mods from /lib/modules/NAME.ko. */
void agent_modules_load(const char *mods);
/**
 * agent_net_up() - with cvmbench.net=ADDR on the kernel command line: the
 * network modules loaded and the guest's NIC given ADDR/AGENT_GUEST_NET_PREFIX
 * and up (agent-net.c). 0 (also when not asked), 1 done (what in @why),
 * -errno with @why.
 */
int agent_net_up(char *why, size_t len);
/** agent_net_addr() - the address cvmbench.net= asks for into @buf; 0 or -ENOENT. */
int agent_net_addr(char *buf, size_t len);
/**
 * agent_kv() - handle one "kv ..." line (agent-guest.h): the kv co-runner
 * in this guest; the reply line into @reply.
 */
void agent_kv(const char *line, char *reply, size_t len);
/**
 * agent_svc() - handle one "svc ..." line (svc-wire.h): a service in this
 * guest; its reply lines are written to @fd. 0, or -errno when @fd failed.
 */
int agent_svc(int fd, const char *line);
/**
 * agent_svc_dirs() - where services keep their files (@scratch; NULL:
 * AGENT_GUEST_SCRATCH) and where cvmload is (@bin; NULL: /bin).
 */
void agent_svc_dirs(const char *scratch, const char *bin);
/** agent_svc_end() - stop a service still running (the host went away). */
void agent_svc_end(void);

/** agent_disk_labelled() - 1 if the ext4 label of the block device @dev is @label. */
int agent_disk_labelled(const char *dev, const char *label);
/**
 * agent_scratch_mount() - the scratch disk, if the VM has one, read-write on
 * AGENT_GUEST_SCRATCH: 1 mounted, 0 none, -errno with @why.
 */
int agent_scratch_mount(char *why, size_t len);
/**
 * agent_rootfs_switch() - with cvmbench.rootfs= on the kernel command line,
 * make the rootfs disk under a tmpfs overlay the root (agent-rootfs.c):
 * 1 when switched, 0 when not asked, -errno with @why.
 */
int agent_rootfs_switch(char *why, size_t len);

#endif
