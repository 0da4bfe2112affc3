// SPDX-License-Identifier: MIT
/*
 * oci-pool-netns.c - the slots of a network-namespace pool (`netns-pool =
 * N`; the pool itself is oci-pool.c), AFaaS's prepared veth devices: a
 * slot is a network namespace bound onto the file STATE/netns/
 * cvmbench-np-PID-P-N (oci_netns_bind()), with a veth pair: the host end
 * cvbPPPPPPNNNNNN (PID and N in hex: 15 characters, IFNAMSIZ) up in the
 * host's namespace, its peer eth0 in the slot's, up, with the address
 * 10.222.X.Y/16 (a private range). Everything goes through `ip` (iproute2)
 * run by argv, never a shell: `ip link add HOST type veth peer name eth0
 * netns FILE` (the veth pair, timed alone: the kernel creates both devices
 * under its RTNL lock, the host lock AFaaS saw contend), and, in a child
 * that joined the namespace with setns(2), `ip addr add` and `ip link set
 * up`. A start joins a slot through its config.json's
 * linux.namespaces[network].path. Nothing removes the namespace when the
 * container is gone, so a slot comes back whole and is recycled; an empty
 * pool's start gets a slot made on the spot (the fallback, its cost
 * stored). Journal kind oci-netns-pool: the undo deletes each slot's veth
 * pair (`ip link del HOST`) and then unbinds the file.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "journal.h"
#include "oci-host.h"
#include "oci-pool.h"
#include "pool-metrics.h"

#define STEM "cvmbench-np"
#define PEER "eth0"

struct netns_slots {
	char ip[PATH_MAX];        /* the ip binary */
	char dir[PATH_MAX - 80];  /* where the namespaces are bound */
};

/* ip (iproute2) into @out; -ENOENT when not installed. */
int oci_ip_find(char *out, size_t len)
{
	static const char *const dirs[] = { "/usr/sbin", "/sbin", "/usr/bin", "/bin" };
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(out, len, "%s/ip", dirs[i]);
		if (!access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

static void slots_dir(char *dir, size_t len)
{
	char state[PATH_MAX - 160];

	oci_state_dir(state, sizeof(state));
	snprintf(dir, len, "%s/netns", state);
}

static int netns_setup(void **priv, char *why, size_t len)
{
	struct netns_slots *s = calloc(1, sizeof(*s));

	*priv = s;
	if (!s) {
		snprintf(why, len, "netns pool: out of memory");
		return -ENOMEM;
	}
	if (oci_ip_find(s->ip, sizeof(s->ip))) {
		snprintf(why, len, "netns pool: ip (iproute2) is not installed");
		return -ENOENT;
	}
	slots_dir(s->dir, sizeof(s->dir));
	if (mkdir(s->dir, 0700) && errno != EEXIST) {
		snprintf(why, len, "netns pool: cannot create %s: %s", s->dir, strerror(errno));
		return -errno;
	}
	return 0;
}

/* The host end of slot @name's veth pair (from its PID and number). */
static int host_end(const char *name, char *buf, size_t len)
{
	long pid, seq, n;

	if (sscanf(name, STEM "-%ld-%ld-%ld", &pid, &seq, &n) != 3)
		return -EINVAL;
	snprintf(buf, len, "cvb%06lx%06lx", pid & 0xffffff, n & 0xffffff);
	return 0;
}

/* Run @argv (no shell), in the network namespace of file @ns if not NULL. */
static int ip_run(char *const argv[], const char *ns)
{
	int ret = oci_run_wait_in(argv, ns, 10.0);

	return ret > 0 ? -EIO : ret;
}

/* Delete the veth pair whose host end is @host, if it is there. */
static int veth_del(const char *ip, const char *host)
{
	char path[64], *argv[] = { (char *)ip, "link", "del", (char *)host, NULL };

	snprintf(path, sizeof(path), "/sys/class/net/%s", host);
	if (access(path, F_OK))
		return 0;
	return ip_run(argv, NULL);
}

/* The veth pair of slot @file (host end @host), timed into @step_ns; up, addressed. */
static int veth_make(const char *ip, const char *file, const char *host, long n,
		     long long *step_ns)
{
	char addr[32];
	char *add[] = { (char *)ip, "link", "add", (char *)host, "type", "veth", "peer",
			"name", PEER, "netns", (char *)file, NULL };
	char *inaddr[] = { (char *)ip, "addr", "add", addr, "dev", PEER, NULL };
	char *inup[] = { (char *)ip, "link", "set", PEER, "up", NULL };
	char *up[] = { (char *)ip, "link", "set", (char *)host, "up", NULL };
	long a = n % 65534 + 1;
	long long t0 = clock_now_ns();
	int ret = ip_run(add, NULL);

	*step_ns = clock_now_ns() - t0;
	snprintf(addr, sizeof(addr), "10.222.%ld.%ld/16", a >> 8, a & 255);
	ret = ret ?: ip_run(inaddr, file);
	ret = ret ?: ip_run(inup, file);
	return ret ?: ip_run(up, NULL);
}

static void netns_remove(void *priv, const char *name)
{
	const struct netns_slots *s = priv;
	char file[PATH_MAX], host[32];

	snprintf(file, sizeof(file), "%s/%s", s->dir, name);
	if (!host_end(name, host, sizeof(host)))
		veth_del(s->ip, host);
	oci_netns_unbind(file);
}

static int netns_make(void *priv, const char *name, long n, long long *step_ns)
{
	const struct netns_slots *s = priv;
	char file[PATH_MAX], host[32];
	int ret;

	snprintf(file, sizeof(file), "%s/%s", s->dir, name);
	ret = host_end(name, host, sizeof(host));
	ret = ret ?: oci_netns_bind(file);
	ret = ret ?: veth_make(s->ip, file, host, n, step_ns);
	if (ret)
		netns_remove(priv, name);
	return ret;
}

/* Still bound, its veth pair still there? */
static int netns_reusable(void *priv, const char *name)
{
	const struct netns_slots *s = priv;
	char path[PATH_MAX], host[32];

	snprintf(path, sizeof(path), "%s/%s", s->dir, name);
	if (access(path, F_OK) || host_end(name, host, sizeof(host)))
		return 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s", host);
	return !access(path, F_OK);
}

int oci_netns_pool_path(const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX - 80];

	slots_dir(dir, sizeof(dir));
	return snprintf(buf, len, "%s/%s", dir, name) < (int)len ? 0 : -ENAMETOOLONG;
}

static int netns_remove_in(const char *dir, const char *name)
{
	char file[PATH_MAX], host[32], ip[PATH_MAX];
	int ret = 0;

	snprintf(file, sizeof(file), "%s/%s", dir, name);
	if (!host_end(name, host, sizeof(host)) && !oci_ip_find(ip, sizeof(ip)))
		ret = veth_del(ip, host);
	return oci_netns_unbind(file) ?: ret;
}

/* The undo of kind oci-netns-pool: every slot named PREFIX* and its veth pair. */
static int pool_undo(const char *prefix)
{
	char dir[PATH_MAX - 80];

	slots_dir(dir, sizeof(dir));
	return oci_pool_undo_dir(prefix, STEM, dir, netns_remove_in);
}

const struct oci_pool_kind oci_pool_netns = {
	.name = POOL_KIND_NETNS,
	.metric = POOL_PREFIX_NETNS,
	.journal = "oci-netns-pool",
	.stem = STEM,
	.fallback_makes = 1,
	.setup = netns_setup,
	.make = netns_make,
	.reusable = netns_reusable,
	.remove = netns_remove,
};

static const struct journal_kind kind_netns_pool = { "oci-netns-pool", pool_undo };
JOURNAL_KIND_REGISTER(kind_netns_pool)
