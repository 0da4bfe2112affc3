// SPDX-License-Identifier: MIT
/*
 * agent-loopback.c - bring the guest's loopback interface up at boot
 * (SIOCGIFFLAGS, then SIOCSIFFLAGS with IFF_UP): no init runs in the guest
 * to do it, and what serves on 127.0.0.1 there (the kv co-runner's
 * redis-server, agent-kv.c) needs it. The kernel gives lo its address.
 * agent-net.c brings a service's NIC up the same way.
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent-guest-local.h"

int agent_if_up(const char *name)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	if (strlen(name) >= sizeof(ifr.ifr_name)) {
		close(fd);
		return -ENAMETOOLONG;
	}
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, name, strlen(name));
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		ret = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!ret && ioctl(fd, SIOCSIFFLAGS, &ifr))
		ret = -errno;
	close(fd);
	return ret;
}

int agent_loopback_up(void)
{
	return agent_if_up("lo");
}
