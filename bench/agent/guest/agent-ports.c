// SPDX-License-Identifier: MIT
/*
 * agent-ports.c - the guest agent's instance ports and spawns: each
 * virtio-serial port named org.cvmbench.iN is found through
 * /sys/class/virtio-ports/<dev>/name (no udev); `spawn N serve ...` opens
 * /dev/<dev> (so a port still in use is an error now, not in the child),
 * forks, and execs /bin/cvmfn with its stdin and stdout on the port. No
 * relay sits between the host's socket and cvmfn; no shell runs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent-guest-local.h"

static char port_dev[AGENT_MAX_PORTS][300];

static int read_name(const char *dir, char *buf, size_t len)
{
	char path[600];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -EIO;
}

int agent_ports_find(void)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	struct dirent *e;
	char name[128], *end;
	long n;
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || read_name(e->d_name, name, sizeof(name)))
			continue;
		if (strncmp(name, AGENT_PORT_PREFIX, strlen(AGENT_PORT_PREFIX)))
			continue;
		n = strtol(name + strlen(AGENT_PORT_PREFIX), &end, 10);
		if (*end || n < 0 || n >= AGENT_MAX_PORTS)
			continue;
		snprintf(port_dev[n], sizeof(port_dev[n]), "/dev/%s", e->d_name);
		found++;
	}
	closedir(d);
	return found;
}

static void child(int fd, char *const argv[])
{
	static char *const envp[] = { "PATH=/bin", NULL };

	signal(SIGCHLD, SIG_DFL);       /* the agent's SIG_IGN is not cvmfn's */
	if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0)
		_exit(126);
	if (fd > 1)
		close(fd);
	execve(argv[0], argv, envp);
	dprintf(2, "cvmbench-agent: exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int agent_port_open(int port, const char *verb, char *reply, size_t len)
{
	int fd;

	if (port < 0 || port >= AGENT_MAX_PORTS) {
		snprintf(reply, len, "error %s %d no instance port number %d", verb, port, port);
		return -1;
	}
	if (!port_dev[port][0])
		agent_ports_find();      /* a port that came up late */
	if (!port_dev[port][0]) {
		snprintf(reply, len, "error %s %d no port %s%d in this guest", verb, port,
			 AGENT_PORT_PREFIX, port);
		return -1;
	}
	fd = open(port_dev[port], O_RDWR | O_CLOEXEC);
	if (fd < 0)
		snprintf(reply, len, "error %s %d %s: %s", verb, port, port_dev[port],
			 strerror(errno));
	return fd;
}

void agent_spawn(const char *line, char *reply, size_t len)
{
	struct agent_spawn s;
	char err[256];
	pid_t pid;
	int fd;

	if (agent_spawn_parse(line, &s, err, sizeof(err))) {
		snprintf(reply, len, "error spawn %d %s", s.port, err);
		return;
	}
	fd = agent_port_open(s.port, "spawn", reply, len);
	if (fd < 0)
		return;
	pid = fork();
	if (pid == 0)
		child(fd, s.argv);
	close(fd);
	if (pid < 0)
		snprintf(reply, len, "error spawn %d fork: %s", s.port, strerror(errno));
	else
		snprintf(reply, len, "spawned %d %d", s.port, (int)pid);
}
