// SPDX-License-Identifier: MIT
/*
 * agent-init.c - the guest's boot work, done by the agent itself when /init
 * execs `cvmbench-agent --init "MODULES" ...` (guest-init.c): mount proc
 * (if /init has not), sysfs, tracefs on /sys/kernel/tracing (the idle probe
 * counts power:cpu_idle there) and devtmpfs, put the console on stdio, log "cvmbench-init: start
 * uptime=S" (the init-start boot phase), load the modules in order with
 * finit_module(2), find the virtio-serial port named org.cvmbench.0 in
 * /sys/class/virtio-ports (up to 10 s), bring lo up (agent-loopback.c), mount /dev/vda read-only on /data
 * if there is one (not a rootfs disk), and with cvmbench.rootfs= switch to
 * the Debian rootfs disk (agent-rootfs.c). The same steps as the shell
 * /init, without one fork and exec of busybox per step: under TCG each cost
 * 10-40 ms (docs/performance.md, "Guest boot against a bare boot").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agent-guest-local.h"
#include "agent-guest.h"

#define PORT_NAME "org.cvmbench.0"
#define PORT_TRIES 1000         /* of 10 ms */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("cvmbench-init: ");
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
}

/* proc (when /init has not), sysfs, tracefs, devtmpfs, then the console on stdio. */
static void mounts(void)
{
	int fd;

	if (access("/proc/self", F_OK))
		mount("proc", "/proc", "proc", 0, NULL);
	mount("sys", "/sys", "sysfs", 0, NULL);
	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	mount("dev", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

static void log_start(void)
{
	char up[32] = "?";
	FILE *f = fopen("/proc/uptime", "re");

	if (f) {
		if (fscanf(f, "%31s", up) != 1)
			snprintf(up, sizeof(up), "?");
		fclose(f);
	}
	say("start uptime=%s", up);
}

/* Each of the space-separated @mods from /lib/modules/NAME.ko, in order. */
void agent_modules_load(const char *mods)
{
	char name[64], path[128];
	int n, fd;

	while (sscanf(mods, " %63s%n", name, &n) == 1) {
		mods += n;
		snprintf(path, sizeof(path), "/lib/modules/%s.ko", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST))
			say("insmod %s failed: %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

/* /dev/NAME of the port named PORT_NAME, once its device node is there. */
static int port_once(char *port, size_t len)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *e;
	struct stat st;
	char path[300], name[64];
	int found = 0;
	FILE *f;

	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strcmp(strtok(name, "\n") ?: "", PORT_NAME)) {
			snprintf(port, len, "/dev/%s", e->d_name);
			found = !stat(port, &st) && S_ISCHR(st.st_mode);
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

static int find_port(char *port, size_t len)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < PORT_TRIES; i++) {
		if (port_once(port, len))
			return 0;
		nanosleep(&ts, NULL);
	}
	return -ENODEV;
}

static const char *mount_data(void)
{
	struct stat st;

	if (stat("/dev/vda", &st) || !S_ISBLK(st.st_mode) ||
	    agent_disk_labelled("/dev/vda", AGENT_GUEST_ROOTFS_LABEL) ||
	    agent_disk_labelled("/dev/vda", AGENT_GUEST_SCRATCH_LABEL))
		return "none";
	mkdir("/data", 0755);
	return mount("/dev/vda", "/data", "ext4", MS_RDONLY, NULL) ? "error" : "ro";
}

int agent_init_boot(const char *mods, char *port, size_t len, const char **data)
{
	char why[256];
	int ret, root;

	mounts();
	log_start();
	agent_modules_load(mods);
	ret = find_port(port, len);
	*data = mount_data();
	if (ret) {
		say("no virtio-serial port %s", PORT_NAME);
		reboot(RB_POWER_OFF);
		return ret;
	}
	say("port %s, data disk: %s", port, *data);
	ret = agent_loopback_up();
	if (ret)
		say("loopback: %s", strerror(-ret));
	ret = agent_net_up(why, sizeof(why));
	if (ret)
		say("network: %s", why);
	root = agent_rootfs_switch(why, sizeof(why));
	if (root < 0) {         /* asked for and missing: no silent initramfs guest */
		say("rootfs: %s", why);
		reboot(RB_POWER_OFF);
		return root;
	}
	if (root)
		say("rootfs: switched to the disk labelled %s", AGENT_GUEST_ROOTFS_LABEL);
	ret = agent_scratch_mount(why, sizeof(why));
	if (ret < 0) {          /* a disk the host gave: never RAM in its place */
		say("scratch: %s", why);
		reboot(RB_POWER_OFF);
		return ret;
	}
	if (ret)
		say("scratch: the disk labelled %s on %s", AGENT_GUEST_SCRATCH_LABEL,
		    AGENT_GUEST_SCRATCH);
	return root;
}
