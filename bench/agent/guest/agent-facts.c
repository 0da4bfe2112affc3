// SPDX-License-Identifier: MIT
/*
 * agent-facts.c - the guest's own environment, gathered once when the
 * agent starts with the same detection code `cvmbench env` runs on the host
 * (bench/env/): kernel, hypervisor (CPUID signature), CVM evidence,
 * cpuidle driver and governor, haltpoll parameters, vCPUs, memory, plus the
 * clocksource and what its root is (root.fs, root.os). Sent as "fact KEY VALUE" lines on request; the host stores
 * them as cell_param guest.KEY (docs/agent.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "agent-guest-local.h"
#include "agent-guest.h"
#include "agent.h"
#include "env.h"

#define MAX_FACTS 96

static char facts[MAX_FACTS][AGENT_LINE_MAX];
static int nfacts;

/* The keys the guest reports (prefixes; the rest is the host's business). */
static const char *const wanted[] = {
	"kernel.release", "kernel.version", "kernel.cmdline", "hypervisor.", "cvm.",
	"cpuidle.driver", "cpuidle.governor", "cpuidle.haltpoll.", "cpu.vendor",
	"cpu.flag.hypervisor", "cpu.flag.sev", "cpu.flag.tdx_guest",
	"topology.online_cpus", "memory.total",
};

static void add_fact(const char *key, const char *value)
{
	char *p;
	int n;

	if (nfacts == MAX_FACTS)
		return;
	n = snprintf(facts[nfacts], sizeof(facts[0]) - 1, "fact %s %s", key, value);
	if (n < 0)
		return;
	for (p = facts[nfacts]; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	strcat(facts[nfacts], "\n");
	nfacts++;
}

static void on_fact(void *ctx, const char *key, const char *value, const char *source)
{
	size_t i;

	(void)ctx;
	(void)source;
	if (strchr(key, ' '))
		return;
	for (i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
		if (!strncmp(key, wanted[i], strlen(wanted[i]))) {
			add_fact(key, value);
			return;
		}
}

static void clocksource(void)
{
	char buf[64] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			"re");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	add_fact("kernel.clocksource", buf[0] ? buf : "unavailable: no current_clocksource");
}

/*
 * What the guest's root is: the file system type of / (/proc/mounts:
 * rootfs for the initramfs, overlay on a rootfs disk), the PRETTY_NAME of
 * /etc/os-release (the initramfs has none), and what /scratch is.
 */
/* The file system type of the mount on @path (/proc/mounts), NULL if none. */
static const char *mount_type(const char *path)
{
	static char type[64];
	char line[512], dev[128], mnt[128];
	FILE *f = fopen("/proc/mounts", "re");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%127s %127s %63s", dev, mnt, type) == 3 && !strcmp(mnt, path);
	if (f)
		fclose(f);
	return found ? type : NULL;
}

static void root_facts(void)
{
	char line[512], os[256] = "";
	FILE *f;

	add_fact("root.fs", mount_type("/") ?: "unknown: / not in /proc/mounts");
	f = fopen("/etc/os-release", "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "PRETTY_NAME=\"%255[^\"]\"", os) == 1)
			break;
	if (f)
		fclose(f);
	add_fact("root.os", os[0] ? os : "none: no /etc/os-release (the initramfs)");
	add_fact("scratch.fs", mount_type(AGENT_GUEST_SCRATCH) ?: "none: on the root (guest RAM)");
}

void agent_facts_collect(void)
{
	nfacts = 0;
	env_collect(on_fact, NULL);
	clocksource();
	root_facts();
}

int agent_facts_send(int fd)
{
	char end[32];
	int i, n, ret = 0;

	for (i = 0; i < nfacts && !ret; i++)
		ret = agent_fd_writer(&fd, facts[i], strlen(facts[i]));
	n = snprintf(end, sizeof(end), "env-end %d\n", nfacts);
	return ret ?: agent_fd_writer(&fd, end, (size_t)n);
}

int agent_cmdline_value(const char *name, char *buf, size_t len)
{
	char line[4096] = " ", *p;
	size_t n = strlen(name);
	FILE *f = fopen("/proc/cmdline", "re");

	if (!f)
		return -errno;
	if (!fgets(line + 1, sizeof(line) - 1, f))
		line[1] = '\0';
	fclose(f);
	for (p = line; (p = strstr(p, name)); p += n)
		if (p[-1] == ' ' && p[n] == '=') {
			p += n + 1;
			snprintf(buf, len, "%.*s", (int)strcspn(p, " \n"), p);
			return 0;
		}
	return -ENOENT;
}
