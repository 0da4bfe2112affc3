// SPDX-License-Identifier: MIT
/*
 * qemu-argv.c - golden tests of the QEMU command line of a regular VM
 * (bench/backends/qemu/qemu-argv.c): the exact argv for TCG and KVM, the
 * data disk only when asked, the model guest's preallocated RAM, commas
 * in paths escaped, bad descriptions refused, the kernel command
 * line's fixed head, and a service's user-mode NIC (loadgen = host): one
 * forward from the host's 127.0.0.1 only, restrict=on, nothing otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qemu-argv.h"
#include "tap.h"

static const struct vm_config base = {
	.accel = "tcg", .vcpus = 1, .memory_mib = 256,
	.kernel = "/c/vmlinuz", .initrd = "/c/initramfs.cpio", .append = "cvmbench.test=echo",
	.data_disk = "/c/disk.img", .console = "/t/console", .agent_socket = "/t/agent.sock",
};

static const char golden_tcg[] =
	"qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot "
	"-machine q35 -accel tcg -smp 1 -m 256 -kernel /c/vmlinuz -initrd /c/initramfs.cpio "
	"-append console=ttyS0 panic=-1 cvmbench.test=echo "
	"-chardev file,id=con0,path=/t/console -serial chardev:con0 "
	"-device virtio-serial-pci,id=vser0 -chardev socket,id=agent0,path=/t/agent.sock "
	"-device virtserialport,bus=vser0.0,chardev=agent0,name=org.cvmbench.0 "
	"-drive file=/c/disk.img,format=raw,if=virtio,readonly=on";

static const char golden_kvm[] =
	"/opt/qemu -nodefaults -no-user-config -display none -no-reboot "
	"-machine q35 -accel kvm -cpu host -smp 4 -m 2048 -kernel /c/vmlinuz "
	"-initrd /c/initramfs.cpio -append console=ttyS0 panic=-1 "
	"-chardev file,id=con0,path=/t/console -serial chardev:con0 "
	"-device virtio-serial-pci,id=vser0 -chardev socket,id=agent0,path=/t/agent.sock "
	"-device virtserialport,bus=vser0.0,chardev=agent0,name=org.cvmbench.0";

/* confidential = model: RAM from a preallocated, unmergeable backend; nothing else differs */
static const char golden_model[] =
	"qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot "
	"-object memory-backend-ram,id=mem0,size=512M,prealloc=on,merge=off "
	"-machine q35,memory-backend=mem0,mem-merge=off -accel tcg -smp 2 -m 512 -kernel /c/vmlinuz "
	"-initrd /c/initramfs.cpio -append console=ttyS0 panic=-1 cvmbench.test=echo "
	"-chardev file,id=con0,path=/t/console -serial chardev:con0 "
	"-device virtio-serial-pci,id=vser0 -chardev socket,id=agent0,path=/t/agent.sock "
	"-device virtserialport,bus=vser0.0,chardev=agent0,name=org.cvmbench.0 "
	"-drive file=/c/disk.img,format=raw,if=virtio,readonly=on";

/* two instance ports: one socket chardev and one named virtserialport each, after the agent's */
static const char golden_ports[] =
	"-device virtserialport,bus=vser0.0,chardev=agent0,name=org.cvmbench.0 "
	"-chardev socket,id=inst0,path=/t,,d/i0.sock "
	"-device virtserialport,bus=vser0.0,chardev=inst0,name=org.cvmbench.i0 "
	"-chardev socket,id=inst1,path=/t,,d/i1.sock "
	"-device virtserialport,bus=vser0.0,chardev=inst1,name=org.cvmbench.i1 "
	"-drive file=/c/disk.img,format=raw,if=virtio,readonly=on";

static struct qemu_argv a;
static char line[8192], err[256];

static int build(const struct vm_config *c)
{
	int ret = qemu_argv_build(c, &a, err, sizeof(err));

	if (!ret)
		qemu_argv_join(&a, line, sizeof(line));
	return ret;
}

static void test_golden(void)
{
	struct vm_config c = base;
	int ret = build(&c);

	tap_ok(ret == 0 && !strcmp(line, golden_tcg), "TCG VM: golden argv");
	if (strcmp(line, golden_tcg))
		printf("#   got:  %s\n#   want: %s\n", line, golden_tcg);
	tap_ok(a.argv[a.argc] == NULL && !strcmp(a.argv[19],
	       "console=ttyS0 panic=-1 cvmbench.test=echo"),
	       "the kernel command line is one argument, NULL ends argv");
	c.accel = "kvm";
	c.qemu = "/opt/qemu";
	c.vcpus = 4;
	c.memory_mib = 2048;
	c.append = NULL;
	c.data_disk = NULL;
	ret = build(&c);
	tap_ok(ret == 0 && !strcmp(line, golden_kvm),
	       "KVM VM: -cpu host, no data disk, bare kernel command line");
	if (strcmp(line, golden_kvm))
		printf("#   got:  %s\n#   want: %s\n", line, golden_kvm);
}

static void test_model(void)
{
	struct vm_config c = base;
	int ret;

	c.model = 1;
	c.vcpus = 2;
	c.memory_mib = 512;
	ret = build(&c);
	tap_ok(ret == 0 && !strcmp(line, golden_model),
	       "model VM: memory-backend-ram prealloc=on,merge=off of -m's size");
	if (strcmp(line, golden_model))
		printf("#   got:  %s\n#   want: %s\n", line, golden_model);
}

static void test_commas(void)
{
	struct vm_config c = base;

	c.data_disk = "/c/a,b.img";
	c.console = "/t,x/console";
	build(&c);
	tap_contains(line, "-drive file=/c/a,,b.img,format=raw", "a comma in the disk path is doubled");
	tap_contains(line, "path=/t,,x/console", "a comma in the console path is doubled");
}

static void test_bad(void)
{
	struct vm_config c = base;

	c.accel = "hvf";
	tap_ok(build(&c) == -EINVAL && strstr(err, "accel"), "accel hvf refused, naming accel");
	c = base;
	c.vcpus = 0;
	tap_ok(build(&c) == -EINVAL && strstr(err, "vcpus"), "0 vCPUs refused");
	c = base;
	c.memory_mib = 16;
	tap_ok(build(&c) == -EINVAL && strstr(err, "memory"), "16 MiB refused");
	c = base;
	c.initrd = NULL;
	tap_ok(build(&c) == -EINVAL && strstr(err, "initrd"), "no initrd refused");
}

static void test_ports(void)
{
	struct vm_config c = base;
	size_t n = strlen(golden_ports);
	int ret;

	c.instance_ports = 2;
	c.port_dir = "/t,d";
	ret = build(&c);
	tap_ok(ret == 0 && strlen(line) > n && !strcmp(line + strlen(line) - n, golden_ports),
	       "instance ports: iN.sock chardevs joined to org.cvmbench.iN, before the disk");
	if (ret || strlen(line) <= n || strcmp(line + strlen(line) - n, golden_ports))
		printf("#   got:  %s\n#   want: ...%s\n", line, golden_ports);
	c.instance_ports = 29;
	ret = build(&c);
	tap_contains(line, "chardev=inst28,name=org.cvmbench.i28 -drive",
		     "29 instance ports fit the argv (the most a virtio-serial device holds)");
	c.instance_ports = 30;
	tap_ok(build(&c) == -EINVAL && strstr(err, "instance ports"), "30 instance ports refused");
	c.instance_ports = 1;
	c.port_dir = NULL;
	tap_ok(build(&c) == -EINVAL, "instance ports without a socket directory refused");
}

/* The QMP socket the vmexit probe asks for KVM's statistics: after the agent's port. */
static void test_qmp(void)
{
	struct vm_config c = base;

	c.qmp_socket = "/t,q/qmp.sock";
	build(&c);
	tap_contains(line, "name=org.cvmbench.0 -qmp unix:/t,,q/qmp.sock,server=on,wait=off -drive",
		     "qmp_socket: -qmp unix:PATH (commas doubled), QEMU listening, not waiting");
}

/* loadgen = host: SLIRP, the guest isolated, one forward bound to 127.0.0.1 */
static void test_svc_nic(void)
{
	struct vm_config c = base;
	int i, found = 0;

	c.svc_host_port = 41234;
	c.svc_guest_port = 8000;
	c.instance_ports = 1;
	c.port_dir = "/t";
	tap_ok(build(&c) == 0 && strstr(line, "name=org.cvmbench.i0 -netdev user,id=svc0,"
		"restrict=on,hostfwd=tcp:127.0.0.1:41234-10.0.2.15:8000 "
		"-device virtio-net-pci,netdev=svc0 -drive "),
	       "service NIC: -netdev user restrict=on, hostfwd from 127.0.0.1:HOSTPORT to "
	       "10.0.2.15:GUESTPORT, virtio-net-pci, after the ports");
	for (i = 0; i < a.argc; i++)
		found += !strncmp(a.argv[i], "user,", 5);
	tap_ok(found == 1 && !strstr(line, "0.0.0.0") && !strstr(line, "hostfwd=tcp::"),
	       "one -netdev argument, no wildcard host address");
	c = base;
	tap_ok(build(&c) == 0 && !strstr(line, "-netdev") && !strstr(line, "virtio-net"),
	       "no service ports: no NIC at all (-nodefaults)");
	c.svc_host_port = 41234;
	tap_ok(build(&c) == -EINVAL && strstr(err, "service ports"),
	       "a host port without the guest's refused");
	c.svc_guest_port = 70000;
	tap_ok(build(&c) == -EINVAL && strstr(err, "service ports"), "guest port 70000 refused");
	c = base;
	c.model = 1;
	c.qmp_socket = "/t/q";
	c.rootfs_disk = "/c/r.img";
	c.scratch_disk = "/c/s.img";
	c.instance_ports = QEMU_MAX_INSTANCE_PORTS;
	c.port_dir = "/t";
	c.svc_host_port = 1;
	c.svc_guest_port = 65535;
	tap_ok(build(&c) == 0 && strstr(line, "netdev=svc0 -drive") && a.argv[a.argc] == NULL,
	       "every part at once fits the argv (29 ports, QMP, three disks, the NIC)");
}

int main(void)
{
	tap_plan(21);
	test_svc_nic();
	test_qmp();
	test_golden();
	test_model();
	test_commas();
	test_bad();
	test_ports();
	return tap_done();
}
