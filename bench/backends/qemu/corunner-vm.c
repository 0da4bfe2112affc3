// SPDX-License-Identifier: MIT
/*
 * corunner-vm.c - boot, pin, ask and end the co-runner VM (corunner-vm.h).
 * Its QEMU is journalled and ended by its pid like a cell's VMs (vm.c);
 * its kernel command line says cvmbench.vm=corunner, so its agent's rows
 * are never taken for a cell VM's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "agent-guest.h"
#include "corunner-vm.h"
#include "pin-vcpu.h"

/* The cell's VM description, made a regular 2-vCPU VM on the system rootfs. */
static void corunner_vm_config(struct corunner_vm *cv, const struct cell *c,
			       struct vm_config *vc)
{
	qemu_cell_vm_config(c, c->accel, &cv->guest, vc);
	vc->vcpus = CORUNNER_VM_VCPUS;
	vc->memory_mib = CORUNNER_VM_MEMORY_MIB;
	vc->model = 0;
	vc->cvm = NULL;
	vc->accept = NULL;
	vc->firmware = NULL;
	vc->data_disk = NULL;
	vc->scratch_disk = NULL;
	vc->instance_ports = 0;
	vc->guest_idle[0] = '\0';        /* the cell's idle policy is its own VMs' */
	snprintf(cv->append, sizeof(cv->append), "%s%scvmbench.vm=corunner",
		 vc->append ? vc->append : "", vc->append && *vc->append ? " " : "");
	vc->append = cv->append;
}

static int corunner_vm_boot(struct corunner_vm *cv, const struct cell *c, char *why,
			    size_t len)
{
	struct vm_config vc;
	char agent[64], e[2048] = "";
	int ret;

	ret = qemu_cell_guest(c, &cv->guest, e, sizeof(e)) ?:
	      qemu_cell_rootfs(CORUNNER_VM_ROOTFS, c->guest_append, &cv->guest, e, sizeof(e));
	if (!ret) {
		corunner_vm_config(cv, c, &vc);
		qemu_accel_for_cell(c, &cv->acc);
		ret = qemu_accel_start(c, &cv->vm, &vc, c->boot_timeout, &cv->acc, e, sizeof(e));
		cv->booted = !ret;
	}
	if (!ret && agent_ready_field(cv->vm.ready_line, "agent", agent, sizeof(agent))) {
		snprintf(e, sizeof(e), "its guest has no cvmbench-agent (ready line '%.200s')",
			 cv->vm.ready_line);
		ret = -ENOENT;
	}
	if (ret)
		snprintf(why, len, "the co-runner VM: %s", e);
	return ret;
}

int corunner_vm_start(struct corunner_vm *cv, const struct cell *c, const cpu_set_t cpus[2],
		      void (*put)(void *ctx, const char *key, const char *value), void *ctx,
		      char *why, size_t len)
{
	char e[512] = "";
	int ret;

	memset(cv, 0, sizeof(*cv));
	vm_init(&cv->vm);
	ret = corunner_vm_boot(cv, c, why, len);
	if (!ret && cpus) {
		ret = pin_vcpus_on(cv->vm.pid, cv->vm.qmp, cpus, CORUNNER_VM_VCPUS,
				   "corunner.vm.", put, ctx, e, sizeof(e));
		if (ret)
			snprintf(why, len, "the co-runner VM's vCPUs: %s", e);
	}
	if (ret)
		corunner_vm_stop(cv);
	return ret;
}

int corunner_vm_ask(struct corunner_vm *cv, const char *req, char *reply, size_t len,
		    int timeout_ms)
{
	int ret;

	if (!cv->booted)
		return -ENOTCONN;
	ret = vm_send(&cv->vm, req);
	if (!ret)
		ret = vm_recv(&cv->vm, reply, len, timeout_ms);
	if (ret)
		snprintf(reply, len, "no reply from the co-runner VM's agent to '%s': %s", req,
			 strerror(-ret));
	return ret ? ret : !strncmp(reply, "error ", 6) ? -EIO : 0;
}

void corunner_vm_stop(struct corunner_vm *cv)
{
	vm_stop(&cv->vm);
	cv->booted = 0;
}
