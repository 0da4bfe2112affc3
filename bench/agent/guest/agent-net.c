// SPDX-License-Identifier: MIT
/*
 * agent-net.c - the guest's NIC for a service whose load generator runs on
 * the host (loadgen = host): with cvmbench.net=ADDR on the kernel command
 * line (the qemu backend gives it only to a VM it gave a user-mode NIC,
 * whose one forwarding rule reaches ADDR:AGENT_GUEST_SVC_PORT), load the network
 * modules of the image (AGENT_GUEST_NET_MODULES), wait for the first
 * interface other than lo in /sys/class/net, give it ADDR/AGENT_GUEST_NET_PREFIX
 * (SIOCSIFADDR, SIOCSIFNETMASK: no DHCP client, no route; QEMU's gateway
 * 10.0.2.2 is on that /24) and bring it up.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "agent-guest-local.h"

#define NIC_WAIT_MS 3000

int agent_net_addr(char *buf, size_t len)
{
	struct in_addr a;

	if (agent_cmdline_value("cvmbench.net", buf, len) || inet_pton(AF_INET, buf, &a) != 1)
		return -ENOENT;
	return 0;
}

/* The first interface in /sys/class/net that is not lo: 0, or -ENODEV. */
static int nic_find(char *name, size_t len)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	int ret = -ENODEV;

	while (d && ret && (e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, "lo") && strlen(e->d_name) < len) {
			snprintf(name, len, "%s", e->d_name);
			ret = 0;
		}
	if (d)
		closedir(d);
	return ret;
}

static void in_addr_set(struct sockaddr *sa, in_addr_t a)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = a };

	memcpy(sa, &sin, sizeof(sin));
}

/* @ifname gets @addr/AGENT_GUEST_NET_PREFIX and comes up. */
static int nic_configure(const char *ifname, const char *addr)
{
	struct ifreq ifr;
	struct in_addr a;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	inet_pton(AF_INET, addr, &a);
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));   /* < IFNAMSIZ: nic_find() */
	in_addr_set(&ifr.ifr_addr, a.s_addr);
	if (ioctl(fd, SIOCSIFADDR, &ifr))
		ret = -errno;
	in_addr_set(&ifr.ifr_netmask, htonl(~0u << (32 - AGENT_GUEST_NET_PREFIX)));
	if (!ret && ioctl(fd, SIOCSIFNETMASK, &ifr))
		ret = -errno;
	close(fd);
	return ret ?: agent_if_up(ifname);
}

int agent_net_up(char *why, size_t len)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	char addr[64], ifname[IFNAMSIZ];
	int i, ret = -ENODEV;

	if (agent_net_addr(addr, sizeof(addr)))
		return 0;
	agent_modules_load(AGENT_GUEST_NET_MODULES);
	for (i = 0; i < NIC_WAIT_MS / 10 && (ret = nic_find(ifname, sizeof(ifname))); i++)
		nanosleep(&nap, NULL);
	if (ret) {
		snprintf(why, len, "cvmbench.net=%s but no network interface besides lo after "
			 "%d ms (modules %s)", addr, NIC_WAIT_MS, AGENT_GUEST_NET_MODULES);
		return ret;
	}
	ret = nic_configure(ifname, addr);
	if (ret) {
		snprintf(why, len, "%s: cannot set %s/%d up: %s", ifname, addr, AGENT_GUEST_NET_PREFIX,
			 strerror(-ret));
		return ret;
	}
	snprintf(why, len, "%s %s/%d up", ifname, addr, AGENT_GUEST_NET_PREFIX);
	return 1;
}
