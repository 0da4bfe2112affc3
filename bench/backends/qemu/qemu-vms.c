// SPDX-License-Identifier: MIT
/*
 * qemu-vms.c - the VMs of a qemu cell (qemu-vms.h). Each VM's agent
 * (cvmbench-agent, bench/agent/guest/) answers on the control port
 * org.cvmbench.0: its ready line, its guest's facts (`env`), spawns of
 * cvmfn on the instance ports org.cvmbench.iN, and the probe protocol.
 * Instances are spread round-robin: instance k runs in VM k % vms on port
 * k / vms; its descriptors are the host end of that port's socket, so no
 * relay sits inside an invocation. Every guest must run under the cell's
 * idle policy by its own facts (qemu_vms_idle()), after boot and at the
 * cell's end; a guest that cannot is a skip of the cell.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "agent-guest.h"
#include "guest.h"
#include "idle-guest.h"
#include "loopback-port.h"
#include "pin-vcpu.h"
#include "plus-list.h"
#include "clock.h"
#include "procmem.h"
#include "qemu-vms.h"
#include "scratch-disk.h"

/* a reply of the agent (env, spawn) must come within this */
#define AGENT_REPLY_MS 20000
/* a probe request's rows and ack: the socket's receive timeout */
#define AGENT_PROBE_TIMEOUT_S 60

/* MemAvailable in MiB, or -1 when the kernel does not say. */
static long mem_available_mib(void)
{
	struct meminfo m;

	return meminfo_read(&m) || m.mem_available < 0 ? -1 : (long)(m.mem_available / 1024);
}

int qemu_vms_layout(const struct cell *c, char *why, size_t len)
{
	long avail = mem_available_mib(), need = (long)c->vms * (c->memory + 64);
	int nwl = c->vm_workloads[0] ? plus_list_item(c->vm_workloads, 0, NULL, 0) : c->vms;

	if (nwl != c->vms) {
		snprintf(why, len, "qemu: vm-workloads = %s names %d workloads but vms = %d "
			 "(one per VM)", c->vm_workloads, nwl, c->vms);
		return 0;
	}
	if (c->vm_workloads[0] && c->guest_image[0]) {
		snprintf(why, len, "qemu: vm-workloads = %s needs a data disk per workload, "
			 "but guest-image = %s gives every VM the same disk", c->vm_workloads,
			 c->guest_image);
		return 0;
	}

	if (c->instances > c->vms * c->instances_per_vm) {
		snprintf(why, len, "qemu: instances = %d do not fit vms = %d x "
			 "instances-per-vm = %d", c->instances, c->vms, c->instances_per_vm);
		return 0;
	}
	/* a VM without an instance: host probes (hostmem, ksm, vmexit) watch the
	 * instances' processes, so it would run unmeasured */
	if (c->instances < c->vms) {
		snprintf(why, len, "qemu: vms = %d but instances = %d: every VM needs an "
			 "instance (instances >= vms)", c->vms, c->instances);
		return 0;
	}
	if (avail >= 0 && avail < need) {
		snprintf(why, len, "qemu: vms = %d x (memory = %d MiB + 64 MiB) = %ld MiB but "
			 "only %ld MiB available", c->vms, c->memory, need, avail);
		return 0;
	}
	return 1;
}

int qemu_cvm_verdict(const char *asked, const char *guest_type, char *why, size_t len)
{
	if (strcmp(asked, "sev-snp") && strcmp(asked, "tdx"))
		return 0;
	if (guest_type && !strcmp(guest_type, asked))
		return 0;
	snprintf(why, len, "confidential = %s but the guest %s: it is not a %s guest "
		 "(cvm.evidence in the guest.* rows)", asked,
		 guest_type ? "reports cvm.type = " : "reported no cvm.type",
		 !strcmp(asked, "tdx") ? "TD" : "SEV-SNP");
	if (guest_type) {
		size_t n = strlen(why);

		snprintf(why + n, len - n, " [%s]", guest_type);
	}
	return -EPERM;
}

static const char *fact(const struct qemu_vm *q, const char *key)
{
	int i;

	for (i = 0; i < q->nfacts; i++)
		if (!strcmp(q->facts[i].key, key))
			return q->facts[i].value;
	return NULL;
}

/* Send "env", keep the "fact" lines until "env-end N". */
static int get_facts(struct qemu_vm *q, int idx, char *err, size_t errlen)
{
	char line[AGENT_LINE_MAX + 8], *k, *val;
	int ret = vm_send(&q->vm, "env");

	free(q->facts);
	q->nfacts = 0;
	q->facts = calloc(QEMU_MAX_FACTS, sizeof(*q->facts));
	if (!q->facts) {
		snprintf(err, errlen, "vm %d: out of memory for the guest's facts", idx);
		return -ENOMEM;
	}
	while (!ret && !(ret = vm_recv(&q->vm, line, sizeof(line), AGENT_REPLY_MS))) {
		if (!strncmp(line, "env-end ", 8))
			return 0;
		if (agent_fact_decode(line, &k, &val)) {
			snprintf(err, errlen, "vm %d: the agent sent a malformed line '%.160s' "
				 "(expected fact or env-end)", idx, line);
			return -EPROTO;
		}
		if (q->nfacts < QEMU_MAX_FACTS) {
			snprintf(q->facts[q->nfacts].key, sizeof(q->facts[0].key), "%s", k);
			snprintf(q->facts[q->nfacts].value, sizeof(q->facts[0].value), "%s", val);
			q->nfacts++;
		}
	}
	snprintf(err, errlen, "vm %d: the agent did not send its environment: %s", idx,
		 strerror(-ret));
	return ret;
}

/* After the facts: blocking reads with a timeout, for the probe protocol. */
static int control_blocking(struct qemu_vm *q)
{
	struct timeval tv = { AGENT_PROBE_TIMEOUT_S, 0 };
	int fl = fcntl(q->vm.fd, F_GETFL);

	if (fl < 0 || fcntl(q->vm.fd, F_SETFL, fl & ~O_NONBLOCK) ||
	    setsockopt(q->vm.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return -errno;
	return 0;
}

/*
 * For the tests: CVMBENCH_TEST_AGENT_FAULT=malformed@N or exit@N makes the
 * agent of the first VM this process boots (only that one, so the next
 * cell is a clean one) misbehave at its Nth probe request (agent-main.c).
 */
static const char *test_fault(void)
{
	static int used;
	const char *f = getenv("CVMBENCH_TEST_AGENT_FAULT");

	if (used || !f || !*f || strspn(f, "malformedxit@0123456789") != strlen(f))
		return "";
	used = 1;
	return f;
}

int qemu_vms_svc_nic(const struct cell *c, int i)
{
	return i == 0 && !strcmp(c->loadgen, "host");
}

void qemu_vms_vm_config(const struct cell *c, int i, const char *fault,
			const struct vm_config *vc, struct vm_config *out, char *append,
			size_t len)
{
	*out = *vc;
	snprintf(append, len, "%s%scvmbench.vm=%d%s%s%s", vc->append ? vc->append : "",
		 vc->append && *vc->append ? " " : "", i, fault && *fault ?
		 " cvmbench.fault=" : "", fault ? fault : "",
		 qemu_vms_svc_nic(c, i) ? " cvmbench.net=" AGENT_GUEST_NET_ADDR : "");
	out->append = append;
	out->instance_ports = (unsigned int)c->instances_per_vm;
}

/*
 * vm-workloads: VM @i's workload (item i) and its data disk, built or
 * cached like the cell's (guest-disk.c), in place of the cell's disk.
 */
static int vm_workload_disk(const struct cell *c, int i, struct qemu_vm *q,
			    struct vm_config *cc, char *err, size_t errlen)
{
	struct guest_disk d;
	int ret;

	if (!c->vm_workloads[0])
		return 0;
	if (plus_list_item(c->vm_workloads, i, q->workload, sizeof(q->workload)) <= i) {
		snprintf(err, errlen, "vm-workloads = %s has no item %d", c->vm_workloads, i + 1);
		return -EINVAL;
	}
	ret = guest_disk_build(q->workload, c->variant, c->size,
			       (unsigned long long)c->seed, NULL, &d, err, errlen);
	if (ret)
		return ret;
	snprintf(q->disk, sizeof(q->disk), "%s", d.path);
	cc->data_disk = q->disk;
	return 0;
}

/* A free port on the host's loopback for the service's forward into VM 0. */
static int svc_nic_port(struct qemu_vms *v, struct vm_config *cc)
{
	int port = loopback_port_free();

	if (port < 0)
		return port;
	v->svc_host_port = cc->svc_host_port = port;
	cc->svc_guest_port = AGENT_GUEST_SVC_PORT;
	return 0;
}

static int boot_one(struct qemu_vms *v, int i, const struct cell *c,
		    const struct vm_config *vc, struct qemu_accel *acc, char *err, size_t errlen)
{
	struct qemu_vm *q = &v->vm[i];
	struct vm_config cc;
	char append[512], e[2048] = "";
	int ret;

	qemu_vms_vm_config(c, i, test_fault(), vc, &cc, append, sizeof(append));
	ret = vm_workload_disk(c, i, q, &cc, e, sizeof(e));
	if (!ret && qemu_vms_svc_nic(c, i) && (ret = svc_nic_port(v, &cc)) < 0)
		snprintf(e, sizeof(e), "no free loopback port for the service's NIC: %s",
			 strerror(-ret));
	if (!ret && c->scratch_disk > 0) {
		ret = scratch_disk_make(c->scratch_disk, q->scratch, sizeof(q->scratch),
					&q->scratch_id, e, sizeof(e));
		cc.scratch_disk = ret ? NULL : q->scratch;
	}
	if (ret) {
		snprintf(err, errlen, "vm %d of %d: %s", i, v->n, e);
		return ret;
	}
	if (i == 0) {
		ret = qemu_accel_start(c, &q->vm, &cc, c->boot_timeout, acc, e, sizeof(e));
	} else {
		qemu_accel_vm_config(acc, &cc);
		ret = vm_start(&q->vm, &cc, c->boot_timeout, e, sizeof(e));
	}
	q->booted = !ret;
	if (!ret && agent_ready_field(q->vm.ready_line, "agent", q->agent, sizeof(q->agent))) {
		snprintf(e, sizeof(e), "the guest has no cvmbench-agent (ready line '%.200s'): "
			 "build it (make) so the guest image includes it", q->vm.ready_line);
		ret = -ENOENT;
	}
	if (!ret)
		ret = get_facts(q, i, e, sizeof(e));
	if (!ret && (ret = control_blocking(q)))
		snprintf(e, sizeof(e), "the agent's control socket: %s", strerror(-ret));
	if (ret)
		snprintf(err, errlen, "vm %d of %d: %s", i, v->n, e);
	return ret;
}

int qemu_vms_boot(struct qemu_vms *v, const struct cell *c, const struct vm_config *vc,
		  struct qemu_accel *acc, char *err, size_t errlen)
{
	char why[512];
	int i, ret;

	v->n = c->vms;
	v->per_vm = c->instances_per_vm;
	v->nspawned = 0;
	v->vm = calloc((size_t)v->n, sizeof(*v->vm));
	if (!v->vm)
		return -ENOMEM;
	for (i = 0; i < v->n; i++)
		vm_init(&v->vm[i].vm);
	for (i = 0; i < v->n; i++) {
		ret = boot_one(v, i, c, vc, acc, err, errlen);
		if (ret)
			return ret;
		ret = qemu_cvm_verdict(c->confidential, fact(&v->vm[i], "cvm.type"), why,
				       sizeof(why));
		if (ret) {
			snprintf(err, errlen, "vm %d: %s", i, why);
			return ret;
		}
	}
	/* a guest that cannot take the policy: a skip, as the host knob's */
	return qemu_vms_idle(v, c, 0, NULL, err, errlen) ? BACKEND_SKIP : 0;
}

static const char *vm_fact(void *ctx, const char *key)
{
	return fact(ctx, key);
}

int qemu_vms_idle(struct qemu_vms *v, const struct cell *c, int refresh, char *applied,
		  char *why, size_t len)
{
	struct idle_policy p;
	char e[512], a[512];
	int i, ret;

	if (applied)
		applied[0] = '\0';
	if (idle_policy_parse(c->idle, &p) || p.kind == IDLE_DEFAULT)
		return 0;
	for (i = 0; i < v->n; i++) {
		if (refresh && get_facts(&v->vm[i], i, e, sizeof(e))) {
			snprintf(why, len, "vm %d: its facts could not be read again: %s", i, e);
			return -EIO;
		}
		ret = idle_guest_check(&p, vm_fact, &v->vm[i], a, e, sizeof(e));
		if (ret) {
			snprintf(why, len, "vm %d: idle = %s: %s", i, c->idle, e);
			return -EPERM;
		}
		if (!i && applied)
			snprintf(applied, len, "%s", a);
	}
	return 0;
}

int qemu_vms_pin(struct qemu_vms *v, const struct cell *c, backend_note_fn note, void *ctx,
		 char *err, size_t errlen)
{
	char e[512];
	int i, ret;

	for (i = 0; i < v->n; i++) {
		ret = pin_vcpus(v->vm[i].vm.pid, v->vm[i].vm.qmp, i, i * c->vcpus, note, ctx, e,
				sizeof(e));
		if (ret) {
			snprintf(err, errlen, "vm %d: pin = %s: %s", i, c->pin, e);
			return ret;
		}
	}
	return 0;
}

/*
 * The agent's answer to a spawn or fork: "spawned PORT PID" or "forked
 * PORT PID", else "error spawn|fork ...". The guest pid, or -errno with @err.
 */
static int spawn_reply(struct qemu_vm *q, const char *verb, int port, char *err,
		       size_t errlen)
{
	char line[AGENT_LINE_MAX], want[32], fail[32];
	int ret = vm_recv(&q->vm, line, sizeof(line), AGENT_REPLY_MS), pid;

	if (ret) {
		snprintf(err, errlen, "no answer from the guest's agent to %s: %s", verb,
			 ret == -EPIPE ? "its port closed" : strerror(-ret));
		return ret;
	}
	snprintf(want, sizeof(want), "%s %d ", !strcmp(verb, "fork") ? "forked" : "spawned",
		 port);
	if (!strncmp(line, want, strlen(want)) && sscanf(line + strlen(want), "%d", &pid) == 1 &&
	    pid > 0)
		return pid;
	snprintf(fail, sizeof(fail), "error %s ", verb);
	snprintf(err, errlen, "the guest's agent: %.400s", !strncmp(line, fail, strlen(fail)) ?
		 line + strlen(fail) : line);
	return strncmp(line, fail, strlen(fail)) ? -EPROTO : -EIO;
}

/* The request that starts instance @k on @port: a spawn, or a fork from the VM's seed. */
static int spawn_line(const struct cell *c, const struct backend_env *env, int port,
		      char *line, size_t len, char *err, size_t errlen)
{
	struct backend_env genv = { .cvmfn = AGENT_GUEST_CVMFN, .data_dir = "/data",
				    .scratch_dir = AGENT_GUEST_SCRATCH,
				    .digest = env->digest };
	char store[1024], *argv[AGENT_SPAWN_MAXARGS + 2];

	if (strcmp(c->seed_layer, "none")) {
		snprintf(line, len, "fork %d", port);
		return 0;
	}
	cvmfn_argv(&genv, "serve", c, store, sizeof(store), argv, AGENT_SPAWN_MAXARGS + 2);
	return agent_spawn_encode(port, argv + 1, line, len, err, errlen);
}

int qemu_vms_spawn(struct qemu_vms *v, const struct cell *c, const struct backend_env *env,
		   struct instance *in, char *err, size_t errlen)
{
	int k = v->nspawned, vi = k % v->n, port = k / v->n, ret;
	int seeded = strcmp(c->seed_layer, "none") != 0;
	char line[AGENT_LINE_MAX];
	struct qemu_vm *q = &v->vm[vi];
	struct cell own;

	if (!q->booted || port >= v->per_vm || q->vm.port_fd[port] < 0) {
		snprintf(err, errlen, "instance %d has no port (vms = %d, instances-per-vm = %d)",
			 k, v->n, v->per_vm);
		return -ENOSPC;
	}
	if (q->workload[0]) {          /* vm-workloads: this VM's own */
		own = *c;
		snprintf(own.workload, sizeof(own.workload), "%s", q->workload);
		c = &own;
	}
	ret = spawn_line(c, env, port, line, sizeof(line), err, errlen);
	if (ret)
		return ret;
	in->to_fd = fcntl(q->vm.port_fd[port], F_DUPFD_CLOEXEC, 3);
	in->from_fd = fcntl(q->vm.port_fd[port], F_DUPFD_CLOEXEC, 3);
	in->spawn_ns = clock_now_ns();
	ret = in->to_fd < 0 || in->from_fd < 0 ? -errno : vm_send(&q->vm, line);
	if (!ret)
		ret = spawn_reply(q, seeded ? "fork" : "spawn", port, err, errlen);
	else
		snprintf(err, errlen, "vm %d: %s", vi, strerror(-ret));
	if (ret < 0) {
		if (in->to_fd >= 0)
			close(in->to_fd);
		if (in->from_fd >= 0)
			close(in->from_fd);
		in->to_fd = in->from_fd = -1;
		return ret;
	}
	if (seeded && q->nkids < QEMU_MAX_INSTANCE_PORTS) {
		q->kids[q->nkids++] = ret;
		in->priv = (void *)(((intptr_t)vi << 32) | (intptr_t)ret);
	}
	in->pid = q->vm.pid;      /* the QEMU hosting it: probes watch that process */
	in->pid_shared = 1;
	v->nspawned++;
	return 0;
}

void qemu_vms_kid(const void *priv, int *vi, int *pid)
{
	intptr_t p = (intptr_t)priv;

	*vi = (int)(p >> 32);
	*pid = (int)(p & 0xffffffff);
}

int qemu_vms_svc_port(const struct qemu_vms *v)
{
	return v->svc_host_port > 0 ? v->svc_host_port : -ENOENT;
}

int qemu_vms_agent_link(struct qemu_vms *v, int *to_fd, int *from_fd, char *who, size_t len)
{
	struct qemu_vm *q = v->n ? &v->vm[0] : NULL;

	if (!q || !q->booted || q->vm.fd < 0) {
		snprintf(who, len, "the guest's agent is not running");
		return -ENOTCONN;
	}
	*to_fd = *from_fd = q->vm.fd;
	snprintf(who, len, "guest: cvmbench-agent %s in vm 0 of %d (QEMU pid %d, kernel %s)",
		 q->agent, v->n, (int)q->vm.pid, fact(q, "kernel.release") ?: "?");
	return 0;
}

void qemu_vms_describe(const struct qemu_vms *v, backend_note_fn note, void *ctx)
{
	char key[160], n[16];
	const char *other;
	int i, j;

	if (!v->n || !v->vm[0].facts)
		return;
	snprintf(n, sizeof(n), "%d", v->n);
	note(ctx, "guest.vms", n);
	note(ctx, "guest.agent", v->vm[0].agent);
	for (j = 0; j < v->vm[0].nfacts; j++) {
		snprintf(key, sizeof(key), "guest.%s", v->vm[0].facts[j].key);
		note(ctx, key, v->vm[0].facts[j].value);
	}
	for (i = 1; i < v->n; i++)
		for (j = 0; j < v->vm[i].nfacts; j++) {
			other = fact(&v->vm[0], v->vm[i].facts[j].key);
			if (other && !strcmp(other, v->vm[i].facts[j].value))
				continue;
			snprintf(key, sizeof(key), "guest.vm%d.%s", i, v->vm[i].facts[j].key);
			note(ctx, key, v->vm[i].facts[j].value);
		}
}

void qemu_vms_stop(struct qemu_vms *v)
{
	int i;

	for (i = 0; v->vm && i < v->n; i++) {
		struct qemu_vm *q = &v->vm[i];

		if (q->booted || q->vm.dir[0] || q->vm.pid > 0)
			vm_stop(&q->vm);
		scratch_disk_remove(&q->scratch_id);      /* after QEMU has ended */
		free(q->facts);
	}
	free(v->vm);
	v->vm = NULL;
	v->n = 0;
}
