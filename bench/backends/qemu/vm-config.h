/* SPDX-License-Identifier: MIT */
/*
 * vm-config.h - the description of one VM that its QEMU command line is
 * made from: the regular parts (qemu-argv.c) and the confidential ones
 * (qemu-argv-cvm.c), which both read it. The defaults and limits it names
 * (QEMU_BASE_APPEND, QEMU_MAX_INSTANCE_PORTS) are qemu-argv.h's.
 */
#ifndef CVMBENCH_VM_CONFIG_H
#define CVMBENCH_VM_CONFIG_H

/**
 * struct vm_config - one VM.
 * @qemu: the QEMU binary (NULL: qemu-system-x86_64 from PATH)
 * @accel: "tcg" or "kvm"; @cpu: -cpu model (NULL: "host" under KVM, QEMU's default under TCG)
 * @vcpus, @memory_mib: -smp and -m
 * @kernel, @initrd: direct kernel boot; @append: added after QEMU_BASE_APPEND (NULL: none)
 * @data_disk: a raw image attached read-only as virtio-blk (NULL: none)
 * @rootfs_disk: a rootfs's ext4 image (bench/backends/rootfs/), attached
 *               read-only as virtio-blk after the data disk (NULL: none)
 * @scratch_disk: a writable raw image (scratch-disk.c) after those (NULL: none)
 * @console: the file the serial console (ttyS0) is written to
 * @agent_socket: a Unix socket the host listens on; QEMU connects to it and
 *                joins it to the virtio-serial port GUEST_PORT_NAME
 * @instance_ports: virtio-serial ports for instances, org.cvmbench.i0 ...
 *                  (at most QEMU_MAX_INSTANCE_PORTS), each joined to the Unix
 *                  socket @port_dir/iN.sock the host listens on
 * @model: 1 = confidential = model: guest RAM preallocated and not
 *         mergeable (memory-backend-ram prealloc=on,merge=off); not a CVM
 * @cvm: "sev-snp" or "tdx" (NULL: a regular VM): the confidential parts of
 *       the argv (qemu-argv-cvm.c, ../shared/CVM.md); needs accel kvm and
 *       @firmware; under sev-snp a NULL @cpu is EPYC-v4
 * @accept: memory acceptance, "eager" or "lazy" (guest-accept.h): with
 *          @model, eager = prealloc=on, lazy = prealloc=off (NULL: eager);
 *          with @cvm, the guest kernel's accept_memory= (NULL: none given)
 * @firmware: -bios FILE (NULL: none, QEMU's own SeaBIOS)
 * @guest_idle: the guest kernel arguments of the cell's idle policy
 *              ("idle=poll", idle-guest.c), after @append; "" = none
 * @qmp_socket: a QMP monitor socket QEMU listens on (-qmp unix:PATH,
 *              server=on,wait=off), which the host probes ask for KVM's
 *              statistics (query-stats, lib/qmp.c); NULL: none
 * @svc_host_port, @svc_guest_port: > 0: a user-mode NIC (SLIRP, restrict=on:
 *              the guest reaches nothing) whose one rule forwards the host's
 *              127.0.0.1:@svc_host_port to AGENT_GUEST_NET_ADDR:@svc_guest_port
 *              in the guest (a service's load generator on the host);
 *              0: no NIC at all
 */
struct vm_config {
	const char *qemu;
	const char *accel;
	const char *cpu;
	unsigned int vcpus;
	unsigned int memory_mib;
	const char *kernel;
	const char *initrd;
	const char *append;
	const char *data_disk;
	const char *rootfs_disk;
	const char *scratch_disk;
	const char *console;
	const char *agent_socket;
	int model;
	unsigned int instance_ports;
	const char *port_dir;
	const char *cvm;
	const char *accept;
	const char *firmware;
	const char *qmp_socket;
	int svc_host_port;
	int svc_guest_port;
	char guest_idle[96];
};

#endif
