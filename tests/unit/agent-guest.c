// SPDX-License-Identifier: MIT
/*
 * agent-guest.c - the guest agent's control lines (bench/agent/agent-guest.c):
 * spawn requests split into the exact argv the agent execs, every word a
 * shell or a bad config could abuse refused; the host's encoder and the
 * agent's parser agree on cvmfn_argv()'s real output; facts and the ready
 * line's fields; a seed's start request (the same words' rules, only `cvmfn
 * seed`), the memory lines of a seed's children, the seed's own records as
 * workloads/zygote.c writes them, and a child's parent read from /proc
 * against fork()'s. And the qemu backend's decisions: a CVM cell whose guest
 * reports no CVM fails (qemu_cvm_verdict), instances that do not fit the
 * cell's VMs are refused before any VM starts (qemu_vms_layout).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent-guest.h"
#include "backend.h"
#include "qemu-vms.h"
#include "seed-client.h"
#include "tap.h"
#include "zygote-mem.h"

static struct agent_spawn s;
static char err[256];

static void test_parse(void)
{
	int ret = agent_spawn_parse("spawn 3 serve hello-world --size test --data-dir /data",
				    &s, err, sizeof(err));

	tap_ok(ret == 0 && s.port == 3 && s.argc == 7 && !strcmp(s.argv[0], "/bin/cvmfn") &&
	       !strcmp(s.argv[1], "serve") && !strcmp(s.argv[2], "hello-world") &&
	       !strcmp(s.argv[6], "/data") && s.argv[7] == NULL,
	       "spawn 3 serve ...: port 3, argv /bin/cvmfn serve hello-world ... NULL");
	tap_ok(agent_spawn_parse("spawn 28 serve x", &s, err, sizeof(err)) == 0 && s.port == 28,
	       "port 28 is the last one");
}

static void test_refused(void)
{
	static const char *const bad[] = {
		"spawn 29 serve x", "spawn -1 serve x", "spawn x serve x", "spawn 1",
		"spawn 1 ", "spawn 1 sh -c reboot", "spawn 1 serve x;reboot",
		"spawn 1 serve $(reboot)", "spawn 1 serve `id`", "spawn 1 serve a  b",
		"spawn 1 serve a\tb", "spawn 1 serve 'a'", "spawn 1 serve a|b",
		"spawn 1 serve a>b", "spawn 1 serve *", "spawn  1 serve x", "spawnx 1 serve",
		"spawn 0001 serve x",
	};
	size_t i, refused = 0;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (agent_spawn_parse(bad[i], &s, err, sizeof(err)) == -EINVAL && err[0])
			refused++;
		else
			printf("#   accepted: '%s'\n", bad[i]);
	}
	tap_ok(refused == i, "%zu bad spawn lines refused with a reason (ports, not serve, "
	       "shell characters, empty words)", i);
	memset(err, 0, sizeof(err));
	agent_spawn_parse("spawn 1 serve x;reboot", &s, err, sizeof(err));
	tap_contains(err, "x;reboot", "the refusal names the word");
}

static void test_too_many(void)
{
	char line[AGENT_LINE_MAX] = "spawn 0 serve";
	int i;

	for (i = 0; i < AGENT_SPAWN_MAXARGS - 1; i++)
		strcat(line, " a");
	tap_ok(agent_spawn_parse(line, &s, err, sizeof(err)) == 0 &&
	       s.argc == AGENT_SPAWN_MAXARGS + 1, "%d words are taken", AGENT_SPAWN_MAXARGS);
	strcat(line, " a");
	tap_ok(agent_spawn_parse(line, &s, err, sizeof(err)) == -EINVAL,
	       "one more word is refused");
}

/* The host's line for a real cell goes through the agent's parser unchanged. */
static void test_round_trip(void)
{
	struct backend_env env = { .cvmfn = AGENT_GUEST_CVMFN, .data_dir = "/data" };
	struct cell c;
	char store[1024], *argv[AGENT_SPAWN_MAXARGS + 2], line[AGENT_LINE_MAX];
	int i, same = 1, ret;

	memset(&c, 0, sizeof(c));
	snprintf(c.workload, sizeof(c.workload), "matmul");
	snprintf(c.size, sizeof(c.size), "small");
	snprintf(c.wait, sizeof(c.wait), "hybrid:200");
	c.seed = 7;
	c.threads = 2;
	cvmfn_argv(&env, "serve", &c, store, sizeof(store), argv, AGENT_SPAWN_MAXARGS + 2);
	ret = agent_spawn_encode(5, argv + 1, line, sizeof(line), err, sizeof(err)) ?:
	      agent_spawn_parse(line, &s, err, sizeof(err));
	for (i = 0; !ret && argv[i]; i++)
		same &= s.argv[i] && !strcmp(s.argv[i], argv[i]);
	tap_ok(!ret && same && s.port == 5 && s.argv[i] == NULL,
	       "cvmfn_argv() -> spawn line -> the same argv in the guest (%s)", line);
	snprintf(c.variant, sizeof(c.variant), "resnet152");
	cvmfn_argv(&env, "serve", &c, store, sizeof(store), argv, AGENT_SPAWN_MAXARGS + 2);
	ret = agent_spawn_encode(5, argv + 1, line, sizeof(line), err, sizeof(err)) ?:
	      agent_spawn_parse(line, &s, err, sizeof(err));
	for (i = 1, same = 0; !ret && s.argv[i] && s.argv[i + 1]; i++)
		same |= !strcmp(s.argv[i], "--variant") && !strcmp(s.argv[i + 1], "resnet152");
	tap_ok(!ret && same, "a cell's variant reaches the guest's cvmfn as --variant resnet152");
	argv[2] = "bad word";
	tap_ok(agent_spawn_encode(5, argv + 1, line, sizeof(line), err, sizeof(err)) == -EINVAL,
	       "the host refuses to send a word with a space");
}

static void test_lines(void)
{
	char fact[] = "fact kernel.release 6.1.0-57-cloud-amd64 x", bad[] = "facts a b", v[64];
	char *k, *val;
	const char *ready = "cvmbench-ready uptime=1.93 data=ro kernel=6.1.0 agent=abc ports=2";

	tap_ok(agent_fact_decode(fact, &k, &val) == 0 && !strcmp(k, "kernel.release") &&
	       !strcmp(val, "6.1.0-57-cloud-amd64 x"), "fact KEY VALUE: the value to the line's end");
	tap_ok(agent_fact_decode(bad, &k, &val) == -EPROTO, "a line that is not a fact");
	tap_ok(agent_ready_field(ready, "agent", v, sizeof(v)) == 0 && !strcmp(v, "abc") &&
	       agent_ready_field(ready, "ports", v, sizeof(v)) == 0 && !strcmp(v, "2") &&
	       agent_ready_field(ready, "kernel", v, sizeof(v)) == 0 && !strcmp(v, "6.1.0"),
	       "the ready line's agent=, ports=, kernel=");
	tap_ok(agent_ready_field("cvmbench-ready uptime=1 data=ro kernel=6.1", "agent", v,
				 sizeof(v)) == -ENOENT, "a ready line without agent= (no agent)");
}

/* seed-start: cvmfn_argv()'s `seed` words through the encoder and the parser. */
static void test_seed_request(void)
{
	struct backend_env env = { .cvmfn = AGENT_GUEST_CVMFN, .data_dir = "/data" };
	char store[1024], *argv[AGENT_SPAWN_MAXARGS + 2], line[AGENT_LINE_MAX];
	struct cell c;
	int i, n = 0, same = 1, ret;

	memset(&c, 0, sizeof(c));
	snprintf(c.workload, sizeof(c.workload), "graph-bfs");
	snprintf(c.wait, sizeof(c.wait), "spin");
	snprintf(c.size, sizeof(c.size), "test");
	snprintf(c.seed_layer, sizeof(c.seed_layer), "runtime");
	c.threads = 1;
	cvmfn_argv(&env, "seed", &c, store, sizeof(store), argv, AGENT_SPAWN_MAXARGS + 2);
	while (argv[n])
		n++;
	ret = agent_seed_encode(argv + 1, line, sizeof(line), err, sizeof(err)) ?:
	      agent_seed_parse(line, &s, err, sizeof(err));
	for (i = 0; !ret && argv[i]; i++)
		same &= s.argv[i] && !strcmp(s.argv[i], argv[i]);
	tap_ok(!ret && same && s.argv[i] == NULL && !strcmp(s.argv[1], "seed") &&
	       !strcmp(s.argv[n - 1], "runtime"), "seed-start: the same argv in the guest (%s)",
	       line);
	tap_ok(agent_seed_parse("seed-start serve x", &s, err, sizeof(err)) == -EINVAL &&
	       agent_seed_parse("seed-start seed x;reboot", &s, err, sizeof(err)) == -EINVAL &&
	       agent_seed_parse("seed-start", &s, err, sizeof(err)) == -EINVAL &&
	       agent_spawn_parse("spawn 1 seed x", &s, err, sizeof(err)) == -EINVAL,
	       "only `cvmfn seed` as a seed, with a spawn's word rules; spawn still serve only");
}

static void test_mem_lines(void)
{
	struct seed_child_mem k = { .pid = 81, .ppid = 80, .m = { 831, -1, 52 },
				    .seed_shared_kb = -1 }, d;
	char line[AGENT_LINE_MAX];
	long long sp, spss;
	int pids[4], fr;

	tap_ok(agent_mem_encode(&k, line, sizeof(line)) > 0 && !agent_mem_decode(line, &d) &&
	       d.pid == 81 && d.ppid == 80 && d.m.pss_kb == 831 && d.m.uss_kb == -1 &&
	       d.m.private_dirty_kb == 52 && d.seed_shared_kb == -1,
	       "a child's mem line round trip, -1 (unreadable) kept");
	tap_ok(agent_mem_decode("mem pid=81 ppid=80 pss_kb=1 uss_kb=2 private_dirty_kb=3 "
				"seed_shared_kb=4 x", &d) == -EPROTO &&
	       agent_mem_decode("mem pid=81 ppid=80 pss_kb=1", &d) == -EPROTO &&
	       agent_mem_decode("mem pid=0 ppid=80 pss_kb=1 uss_kb=2 private_dirty_kb=3 "
				"seed_shared_kb=4", &d) == -EPROTO,
	       "mem lines with more, fewer fields or no pid are refused");
	tap_ok(!agent_mem_end_decode("mem-end seed_pid=80 seed_pss_kb=3087 frames=-1", &sp, &spss,
				     &fr) && sp == 80 && spss == 3087 && fr == -1 &&
	       agent_mem_end_decode("mem-end seed_pid=80 seed_pss_kb=1 frames=2", &sp, &spss,
				    &fr) == -EPROTO, "mem-end: the seed's pid, PSS, frames' -errno");
	tap_ok(agent_seed_mem_parse("seed-mem 81 82", pids, 4) == 2 && pids[0] == 81 &&
	       pids[1] == 82 && agent_seed_mem_parse("seed-mem", pids, 4) == 0 &&
	       agent_seed_mem_parse("seed-mem 81 x", pids, 4) == -EPROTO &&
	       agent_seed_mem_parse("seed-mem -3", pids, 4) == -EPROTO &&
	       agent_seed_mem_parse("seed-mem 1 2 3 4 5", pids, 4) == -EPROTO,
	       "seed-mem PID ...: pids, none, a word, a negative pid, too many");
}

/* The records as workloads/zygote.c writes them (its format strings). */
static void test_seed_records(void)
{
	struct seed_started st;
	struct seed_seeded sd;

	tap_ok(!seed_started_parse("started pid=81 fork_ns=2746185 init_ns=468247 "
				   "first_call_ns=5759362", &st) && st.pid == 81 &&
	       st.fork_ns == 2746185 && st.init_ns == 468247 && st.first_call_ns == 5759362 &&
	       seed_started_parse("started pid=81 fork_ns=1", &st) == -EPROTO,
	       "a child's started record, and a cut one refused");
	tap_ok(!seed_seeded_parse("seeded pid=80 layer=warm build_ns=9 rss_kb=5000 pss_kb=3866",
				  &sd) && sd.pid == 80 && !strcmp(sd.layer, "warm") &&
	       sd.pss_kb == 3866 && seed_forked_parse("forked pid=82") == 82 &&
	       seed_forked_parse("error fork: EAGAIN") == -EPROTO,
	       "seeded and forked records; an error is not a pid");
}

/* A child forked here: its parent and memory as seed_mem_sample() reads them. */
static void test_mem_sample(void)
{
	struct seed_child_mem k;
	long long seed_pss = -1;
	pid_t kid = fork();

	if (kid == 0) {
		pause();
		_exit(0);
	}
	seed_mem_sample(getpid(), &kid, 1, &k, &seed_pss);
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	tap_ok(k.pid == kid && k.ppid == getpid() && k.m.pss_kb > 0 && seed_pss > 0,
	       "a forked child: its parent is this process (/proc/PID/stat), PSS %lld kB",
	       k.m.pss_kb);
}

static void test_cvm_verdict(void)
{
	char why[512] = "";

	tap_ok(qemu_cvm_verdict("sev-snp", "none", why, sizeof(why)) == -EPERM,
	       "confidential = sev-snp in a guest with cvm.type none: fails");
	tap_contains(why, "not a SEV-SNP guest", "... saying so");
	tap_ok(qemu_cvm_verdict("tdx", "sev-snp", why, sizeof(why)) == -EPERM &&
	       qemu_cvm_verdict("tdx", NULL, why, sizeof(why)) == -EPERM,
	       "tdx in an SEV-SNP guest, or with no evidence at all: fails");
	tap_ok(qemu_cvm_verdict("sev-snp", "sev-snp", why, sizeof(why)) == 0 &&
	       qemu_cvm_verdict("tdx", "tdx", why, sizeof(why)) == 0,
	       "sev-snp and tdx in the guest they asked for: go on");
	tap_ok(qemu_cvm_verdict("none", "none", why, sizeof(why)) == 0 &&
	       qemu_cvm_verdict("model", NULL, why, sizeof(why)) == 0,
	       "none and model need no evidence (a model is never a CVM)");
}

/* MemAvailable in MiB, read here with stdio (not procmem.c), or -1. */
static long avail_mib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

/*
 * VMs of 60 % of MemAvailable each: one fits, two do not; the check is of
 * their sum (issue 13: not enough memory for the requested VMs, checked
 * before starting them).
 */
static void layout_sum(void)
{
	long avail = avail_mib();
	char why[256] = "";
	struct cell c;

	if (avail < 1024) {
		printf("ok %d # SKIP MemAvailable %ld MiB: too little to size the VMs\n",
		       ++tap_count, avail);
		printf("ok %d # SKIP the same\n", ++tap_count);
		return;
	}
	memset(&c, 0, sizeof(c));
	c.memory = (int)(avail * 6 / 10);
	c.vms = c.instances = c.instances_per_vm = 1;
	tap_ok(qemu_vms_layout(&c, why, sizeof(why)) == 1, "1 VM of %d MiB fits MemAvailable "
	       "%ld MiB", c.memory, avail);
	c.vms = c.instances = 2;
	tap_ok(qemu_vms_layout(&c, why, sizeof(why)) == 0 && strstr(why, "vms = 2 x") &&
	       strstr(why, "MiB available"), "2 such VMs do not, refused before any starts: %s",
	       why);
}

static void test_layout(void)
{
	struct cell c;
	char why[256] = "";

	memset(&c, 0, sizeof(c));
	c.memory = 64;
	c.vms = 2;
	c.instances_per_vm = 2;
	c.instances = 4;
	tap_ok(qemu_vms_layout(&c, why, sizeof(why)) == 1, "4 instances fit 2 VMs x 2 ports");
	c.instances = 5;
	tap_ok(qemu_vms_layout(&c, why, sizeof(why)) == 0 && strstr(why, "instances = 5"),
	       "5 do not, and the reason says so");
	c.instances = 2;
	c.vms = 3;
	tap_ok(qemu_vms_layout(&c, why, sizeof(why)) == 0 && strstr(why, "every VM needs"),
	       "3 VMs for 2 instances: one VM would run unmeasured, refused");
	c.instances = 64;
	c.vms = 64;
	c.memory = 1048576;
	tap_ok(qemu_vms_layout(&c, why, sizeof(why)) == 0 && strstr(why, "MiB available"),
	       "64 VMs of 1 TiB: not enough MemAvailable, checked for all VMs");
	layout_sum();
}

int main(void)
{
	tap_plan(33);
	test_parse();
	test_refused();
	test_too_many();
	test_round_trip();
	test_lines();
	test_seed_request();
	test_mem_lines();
	test_seed_records();
	test_mem_sample();
	test_cvm_verdict();
	test_layout();
	return tap_done();
}
