// SPDX-License-Identifier: MIT
/*
 * loopback-port.c - a free TCP port on 127.0.0.1 (loopback-port.h): the
 * kernel picks one for a socket bound to port 0.
 */
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loopback-port.h"

int loopback_port_free(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t n = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ret;

	if (fd < 0)
		return -errno;
	ret = bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	      getsockname(fd, (struct sockaddr *)&a, &n) ? -errno : ntohs(a.sin_port);
	close(fd);
	return ret;
}
