/* SPDX-License-Identifier: MIT */
/*
 * cell-keys.h - the one list of config keys stored in a cell. struct cell
 * (cell.h) takes a field from each line and the key table (config-keys.c)
 * an entry, so a key cannot exist in one and not the other. The order is
 * the order of the matrix dimensions (the last varies fastest), of the spec
 * and of `cvmbench list --keys`.
 *
 *   X(name, field, ctype, dim, type, matrix, min, max, allowed, def, check, help)
 *
 * name     the config key (a long option name)
 * field    its field of struct cell, declared `ctype field dim;`
 * type     enum config_key_type (config.h): how it is split, checked, stored
 * matrix   1: a comma list makes a dimension
 * min/max  for numbers; allowed: "a|b|c" for KEY_ENUM
 * def      the default as text; NULL: required
 * check    for KEY_NAME and KEY_LIST: int check(value, err, errlen), config-keys.c
 * help     one line for `cvmbench list --keys`
 *
 * A text value must fit its field whole: longer is an error naming file:line
 * (config-values.c), never cut. A key added here with a default changes no
 * existing cell key (cell-hash.c).
 */
#ifndef CVMBENCH_CELL_KEYS_H
#define CVMBENCH_CELL_KEYS_H

#define CELL_KEYS(X) \
	X("workload", workload, char, [48], KEY_NAME, 1, 0, 0, NULL, NULL, \
	  config_check_workload, "function(s) or service(s) to run (cvmbench list)") \
	X("size", size, char, [8], KEY_ENUM, 1, 0, 0, "test|small|large", "test", NULL, \
	  "input size") \
	X("backend", backend, char, [16], KEY_BACKEND, 1, 0, 0, NULL, "native", \
	  NULL, "where an instance runs") \
	X("threads", threads, int, , KEY_INT, 1, 0, 1024, NULL, "0", NULL, \
	  "worker threads per instance; 0 = its CPUs") \
	X("wait", wait, char, [32], KEY_NAME, 1, 0, 0, NULL, "hybrid:200", \
	  config_check_wait, "how idle workers wait: spin, block, hybrid[:US]") \
	X("idle", idle, char, [32], KEY_NAME, 1, 0, 0, NULL, "default", config_check_idle, \
	  "idle policy where the function runs (qemu: in each guest): default, hlt, poll, " \
	  "spin, haltpoll:NANOSECONDS") \
	X("host-idle", host_idle, char, [32], KEY_NAME, 1, 0, 0, NULL, "default", \
	  config_check_host_idle, "the host's own idle policy (values as idle); native, " \
	  "runc, crun: the host is where the function runs, so as idle") \
	X("mode", mode, char, [8], KEY_ENUM, 1, 0, 0, "warm|cold", "warm", NULL, \
	  "warm: one serving instance; cold: a new instance per call") \
	X("instances", instances, int, , KEY_INT, 1, 1, 256, NULL, "1", NULL, \
	  "warm instances alive at once (calls go round-robin)") \
	X("invocations", invocations, int, , KEY_INT, 1, 1, 1000000, NULL, "20", NULL, \
	  "measured calls per cell") \
	X("warmup", warmup, int, , KEY_INT, 1, 0, 1000000, NULL, "2", NULL, \
	  "calls before measuring (stored as phase warmup)") \
	X("repeats", repeats, int, , KEY_INT, 0, 1, 1000, NULL, "1", NULL, \
	  "run each cell this many times, fresh instances each") \
	X("seed", seed, long long, , KEY_INT, 1, 0, 2147483647, NULL, "1", NULL, \
	  "seed of models and inputs") \
	X("probes", probes, char, [256], KEY_LIST, 0, 0, 0, NULL, "latency", \
	  config_check_probe, "probes to run (a list, not a dimension)") \
	X("timeout", timeout, double, , KEY_DOUBLE, 0, 0.001, 86400, NULL, "60", NULL, \
	  "seconds one call (or one instance start) may take") \
	X("runtime-path", runtime_path, char, [256], KEY_STRING, 1, 0, 0, NULL, "", NULL, \
	  "runc / crun binary (e.g. a patched build); empty = from PATH") \
	X("cpus", cpus, int, , KEY_INT, 1, 0, 1024, NULL, "0", NULL, \
	  "runc/crun: CPUs the runtime and container may use (0 = all)") \
	X("cpu-quota", cpu_quota, int, , KEY_INT, 1, 1, 100, NULL, "100", NULL, \
	  "runc/crun: CPU quota of the runtime's cgroup, % of a period") \
	X("corunner", corunner, int, , KEY_INT, 1, 0, 256, NULL, "0", NULL, \
	  "CPU-bound threads running beside the calls (any backend; one process, " \
	  "named cvmbench-corun in ps)") \
	X("parallel", parallel, int, , KEY_INT, 1, 1, 64, NULL, "1", NULL, \
	  "cold mode: simultaneous starts per call") \
	X("seccomp", seccomp, char, [12], KEY_ENUM, 1, 0, 0, "on|off|prepared", "on", NULL, \
	  "runc/crun: install a seccomp filter in the container; prepared: compiled once " \
	  "per cell, handed to crun as BPF (run.oci.seccomp_bpf_data; runc: skipped)") \
	X("netns", netns, char, [8], KEY_ENUM, 1, 0, 0, "new|shared", "new", NULL, \
	  "runc/crun: a new network namespace, or join one shared by the cell") \
	X("cgroups", cgroups, char, [4], KEY_ENUM, 1, 0, 0, "on|off", "on", NULL, \
	  "runc/crun: a cgroup per container (off: crun only)") \
	X("cgroup-pool", cgroup_pool, int, , KEY_INT, 1, 0, 65535, NULL, "0", \
	  config_check_cgroup_pool, "runc/crun: cgroups made before the starts, each start " \
	  "takes one (cgroupsPath); 0 = none, the runtime makes each") \
	X("netns-pool", netns_pool, int, , KEY_INT, 1, 0, 65535, NULL, "0", \
	  config_check_netns_pool, "runc/crun: network namespaces with a veth pair each, " \
	  "made before the starts, each start joins one; 0 = none (see netns)") \
	X("pool-low", pool_low, int, , KEY_INT, 1, 0, 65535, NULL, "0", NULL, \
	  "runc/crun: each pool's low-water mark: refilling starts at this many free") \
	X("pool-refill", pool_refill, double, , KEY_DOUBLE, 1, 0, 1000000, NULL, "100", NULL, \
	  "runc/crun: slots each pool's refill makes per second, beside the starts; 0 = never") \
	X("favordynmods", favordynmods, char, [8], KEY_ENUM, 1, 0, 0, "default|on|off", \
	  "default", NULL, "runc/crun: remount cgroup2 with(out) favordynmods") \
	X("start-timeout", start_timeout, double, , KEY_DOUBLE, 0, 0, 86400, NULL, "0", NULL, \
	  "seconds one instance start may take; 0 = timeout") \
	X("accel", accel, char, [8], KEY_ENUM, 1, 0, 0, "auto|kvm|tcg", "auto", NULL, \
	  "qemu: accelerator; auto = kvm where /dev/kvm opens and QEMU boots under it, else tcg") \
	X("confidential", confidential, char, [8], KEY_ENUM, 1, 0, 0, \
	  "none|model|sev-snp|tdx", "none", NULL, \
	  "qemu: guest kind; model = RAM preallocated, unmerged (not a CVM)") \
	X("guest-accept", guest_accept, char, [8], KEY_ENUM, 1, 0, 0, "eager|lazy", "eager", \
	  NULL, "qemu, model/sev-snp/tdx only: guest memory taken at boot (eager) or on " \
	  "first touch (lazy: a CVM's accept_memory=lazy, a model's RAM not preallocated)") \
	X("vcpus", vcpus, int, , KEY_INT, 1, 1, 1024, NULL, "1", NULL, \
	  "qemu: vCPUs per VM") \
	X("memory", memory, int, , KEY_INT, 1, 64, 1048576, NULL, "256", NULL, \
	  "qemu: guest memory per VM, MiB") \
	X("boot-timeout", boot_timeout, double, , KEY_DOUBLE, 0, 0.001, 3600, NULL, "60", \
	  NULL, "qemu: seconds a VM may take to boot to its ready line") \
	X("vmexit-detail", vmexit_detail, char, [8], KEY_ENUM, 1, 0, 0, "class|reason", \
	  "class", NULL, "vmexit probe: a counter per class, or per exit reason (costly)") \
	X("vms", vms, int, , KEY_INT, 1, 1, 64, NULL, "1", NULL, \
	  "qemu: VMs per cell; the cell's instances are spread over them") \
	X("instances-per-vm", instances_per_vm, int, , KEY_INT, 1, 1, 29, NULL, "1", NULL, \
	  "qemu: instance ports per VM (instances <= vms x instances-per-vm)") \
	X("qemu", qemu, char, [256], KEY_STRING, 0, 0, 0, NULL, "", NULL, \
	  "qemu: the QEMU binary; empty = qemu-system-x86_64 from PATH") \
	X("firmware", firmware, char, [256], KEY_STRING, 0, 0, 0, NULL, "", NULL, \
	  "qemu: -bios file (OVMF.fd, TDVF); sev-snp and tdx need one; empty = none") \
	X("guest-kernel", guest_kernel, char, [256], KEY_STRING, 0, 0, 0, NULL, "", NULL, \
	  "qemu: your own guest bzImage instead of the built one (with guest-initrd)") \
	X("guest-initrd", guest_initrd, char, [256], KEY_STRING, 0, 0, 0, NULL, "", NULL, \
	  "qemu: your own initrd (with guest-kernel); empty = the built one") \
	X("guest-image", guest_image, char, [256], KEY_STRING, 0, 0, 0, NULL, "", NULL, \
	  "qemu: your own raw disk image on /dev/vda instead of the data disk") \
	X("cpu", cpu, char, [32], KEY_STRING, 1, 0, 0, NULL, "auto", NULL, \
	  "qemu: -cpu model; auto = host under KVM, else the first KVM takes (EPYC-v4: sev-snp)") \
	X("guest-append", guest_append, char, [256], KEY_STRING, 0, 0, 0, NULL, "", NULL, \
	  "qemu: more guest kernel arguments, after console=ttyS0 panic=-1") \
	X("ksm", ksm, char, [12], KEY_ENUM, 1, 0, 0, "unchanged|on|off", "unchanged", \
	  NULL, "host KSM for the cell: on (run = 1), off (unmerge, run = 0)") \
	X("ksm-pages-to-scan", ksm_pages_to_scan, int, , KEY_INT, 1, 0, 100000000, NULL, \
	  "0", NULL, "KSM pages_to_scan for the cell; 0 = unchanged") \
	X("ksm-sleep-ms", ksm_sleep_ms, int, , KEY_INT, 1, 0, 3600000, NULL, "0", NULL, \
	  "KSM sleep_millisecs for the cell; 0 = unchanged") \
	X("ksm-timeout", ksm_timeout, double, , KEY_DOUBLE, 0, 0.001, 86400, NULL, "120", \
	  NULL, "ksm probe: seconds to wait for KSM to converge (flagged when hit)") \
	X("thp", thp, char, [12], KEY_ENUM, 1, 0, 0, "unchanged|always|madvise|never", \
	  "unchanged", NULL, "host transparent hugepages (enabled) for the cell") \
	X("halt-poll-ns", halt_poll_ns, char, [16], KEY_NAME, 1, 0, 0, NULL, "unchanged", \
	  config_check_halt_poll, "host KVM halt polling (kvm halt_poll_ns): unchanged|NS") \
	X("hostmem-interval", hostmem_interval, double, , KEY_DOUBLE, 0, 0.01, 3600, NULL, \
	  "1", NULL, "hostmem/ksm probes: seconds between memory samples") \
	X("noise-threshold", noise_threshold, double, , KEY_DOUBLE, 0, 0, 100, NULL, "10", \
	  NULL, "flag a cell when other processes' CPU use or steal exceeds this % of all CPUs") \
	X("vm-workloads", vm_workloads, char, [160], KEY_STRING, 1, 0, 0, NULL, "", \
	  config_check_vm_workloads, \
	  "qemu: a workload per VM joined by '+' (VM i runs item i); empty = workload in all") \
	X("pmu-events", pmu_events, char, [256], KEY_LIST, 0, 0, 0, NULL, "default", \
	  config_check_pmu_event, "pmu probe: event names (libpfm4); default = cycles, " \
	  "instructions, cache-references, cache-misses, branch-misses, dTLB-load-misses") \
	X("pin", pin, char, [16], KEY_NAME, 1, 0, 0, NULL, "none", config_check_pin, \
	  "instances' CPUs (hwloc): none, core, numa:N, llc:N (qemu: vCPU threads)") \
	X("membind", membind, char, [8], KEY_ENUM, 1, 0, 0, "none|local|remote", "none", \
	  NULL, "instances' memory: NUMA node(s) of their pinned CPUs, or the others") \
	X("corunner-kind", corunner_kind, char, [8], KEY_ENUM, 1, 0, 0, "cpu|cache|memory|kv", \
	  "cpu", NULL, "co-runner: spin, thrash the LLC (hwloc size), stream memory, kv: redis under load") \
	X("corunner-pin", corunner_pin, char, [16], KEY_NAME, 1, 0, 0, NULL, "none", \
	  config_check_corunner_pin, "co-runner's CPUs, as pin: none, core, numa:N, llc:N") \
	X("corunner-in", corunner_in, char, [8], KEY_ENUM, 1, 0, 0, "host|vm", "host", NULL, \
	  "kv co-runner: on the host, or in a second VM (rootfs system) on corunner-pin's CPUs") \
	X("ple", ple, char, [8], KEY_ENUM, 1, 0, 0, "default|off", "default", NULL, \
	  "host KVM pause-loop exiting: off reloads kvm_intel/kvm_amd with PLE 0 when unused") \
	X("variant", variant, char, [32], KEY_STRING, 1, 0, 0, NULL, "", config_check_variant, \
	  "the workload's --variant (docs/workloads.md), e.g. resnet152; empty = its default") \
	X("vmexit-time", vmexit_time, char, [4], KEY_ENUM, 1, 0, 0, "off|on", "off", NULL, \
	  "vmexit probe: also stream kvm_exit/kvm_entry for handling time per reason (costly)") \
	X("rootfs", rootfs, char, [32], KEY_STRING, 1, 0, 0, NULL, "", config_check_rootfs, \
	  "runc/crun/qemu: a Debian rootfs of configs/rootfs/NAME.list; empty = none") \
	X("runtime", runtime, char, [8], KEY_ENUM, 1, 0, 0, "c|python", "c", NULL, \
	  "the function in C (cvmfn) or its Python twin (native: the host's python3; " \
	  "runc/crun/qemu: needs a rootfs)") \
	X("seed-layer", seed_layer, char, [8], KEY_ENUM, 1, 0, 0, "none|bare|runtime|warm", \
	  "none", NULL, "zygote, runc, crun, qemu: the seed layer instances are forked from " \
	  "(runc, crun: in one seed container per cell; qemu: a seed in each guest; none: " \
	  "no seed; docs/experiments/seed-tree.md)") \
	X("scratch-disk", scratch_disk, int, , KEY_INT, 1, 0, 65536, NULL, "0", NULL, \
	  "qemu: a writable ext4 disk of N MiB per VM on /scratch; 0 = /scratch in guest RAM") \
	X("replay-schedule", replay_schedule, char, [256], KEY_STRING, 0, 0, 0, NULL, "", NULL, \
	  "a replay cell: its calls arrive at these offsets (ms, one per line; cvmbench replay)") \
	X("replay-ttl", replay_ttl, double, , KEY_DOUBLE, 0, 0, 2592000, NULL, "600", NULL, \
	  "replay cell: seconds an idle instance is kept warm after its call") \
	X("loadgen", loadgen, char, [8], KEY_ENUM, 1, 0, 0, "same|host", "same", NULL, \
	  "service: its load generator beside the server (same), or on the host (qemu: host)") \
	X("svc-duration", svc_duration, int, , KEY_INT, 1, 0, 86400, NULL, "0", NULL, \
	  "service: seconds per measured window (one load-generator run); 0 = its default") \
	X("svc-connections", svc_connections, int, , KEY_INT, 1, 0, 4096, NULL, "0", NULL, \
	  "service: connections, clients or threads of its load generator; 0 = its default") \
	X("svc-rate", svc_rate, int, , KEY_INT, 1, 0, 10000000, NULL, "0", NULL, \
	  "service, open loop (nginx-open): requests per second sent; 0 = its default")

#endif
