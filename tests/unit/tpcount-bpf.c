// SPDX-License-Identifier: MIT
/*
 * tests/unit/tpcount-bpf.c - what the bpf method (tracing/tpcount-bpf.c)
 * refuses before it asks the kernel, so these run without root: a field of
 * a size the program cannot load exactly (3, 16 bytes: it was read as 8
 * bytes, the neighbour's bytes counted as the value) and the specs it does
 * not count, each -EOPNOTSUPP with the reason, and a condition value a
 * narrow field (loaded zero-extended) cannot hold, a negative N among them. And pidns.c: this process's
 * namespace read, and a thread of it found in it.
 * As root, the vmexit probe's way of counting against calls the test
 * makes: syscalls:sys_enter_kill by sig, TPCOUNT_TGID (this process: its
 * threads, one started after the open too; a child's calls not), the
 * condition "pid == <this process>" and "pid != 0" tested in the program
 * (kill(0, 0) calls, a check on the process group, not counted) and TPCOUNT_REST (SIGCHLD, not a counted
 * value, in the last counter), with a perf-filter counter of the same
 * event beside it that must still count (the program returns 1). SKIP with the reason where not root, no
 * tracefs or the kernel refuses the program.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pidns.h"
#include "tap.h"
#include "test-journal.h"
#include "tpcount-local.h"
#include "tpcount.h"
#include "tracefs-find.h"

static int open_cond(unsigned int size, const char *extra, unsigned int cond_size,
		     unsigned long long cond_value, char *why, size_t len)
{
	static const unsigned long long vals[] = { 1, 2 };
	struct tpcount_spec spec = { "raw_syscalls", "sys_enter", "id", extra, vals, 2, NULL };
	struct tpbpf_field f = { .offset = 8, .size = size, .cond_offset = 16,
				 .cond_size = cond_size, .cond_value = cond_value };
	struct tpbpf *b = NULL;
	pid_t me = getpid();
	int ret = tpbpf_open(&b, &spec, &f, 1, &me, 1, 0, why, len);

	tpbpf_close(b);
	return ret;
}

static int open_with(unsigned int size, const char *extra, char *why, size_t len)
{
	return open_cond(size, extra, 0, 0, why, len);
}

enum { N_ZERO = 300, N_URG = 70, N_CHLD = 9, N_GRP = 40, N_MAIN = 25, N_KID = 50 };

static void *kills(void *arg)
{
	pid_t me = getpid();
	int i;

	(void)arg;
	for (i = 0; i < N_ZERO; i++)
		kill(me, 0);
	for (i = 0; i < N_URG; i++)
		kill(me, SIGURG);         /* ignored by default */
	for (i = 0; i < N_CHLD; i++)
		kill(me, SIGCHLD);        /* ignored by default: the rest */
	for (i = 0; i < N_GRP; i++)
		kill(0, 0);               /* the condition excludes them (pid 0) */
	return NULL;
}

/* A thread started after the open, the main thread and a child make their calls. */
static void make_kills(void)
{
	pid_t me = getpid(), kid;
	pthread_t th;
	int i;

	if (!pthread_create(&th, NULL, kills, NULL))
		pthread_join(th, NULL);
	for (i = 0; i < N_MAIN; i++)
		kill(me, 0);
	kid = fork();
	if (kid == 0) {
		for (i = 0; i < N_KID; i++)
			kill(me, 0);      /* another process: not counted */
		_exit(0);
	}
	if (kid > 0)
		waitpid(kid, NULL, 0);
}

/*
 * A perf-filter counter of this thread's kill(me, 0) calls, open beside
 * the bpf one: the bpf program belongs to the tracepoint, and one that
 * returned 0 dropped the hit for every perf event on it system-wide (this
 * read 0; a concurrent test's bpf counting blinded vmexit-probe.t's
 * perf-filter counters). Opened and enabled before the bpf counter.
 */
static struct tpcount *perf_beside(char *why, size_t len)
{
	static const unsigned long long zero[] = { 0 };
	struct tpcount_spec spec = { "syscalls", "sys_enter_kill", "sig", NULL, zero, 1, NULL };
	struct tpcount *tc = NULL;
	pid_t me = getpid();

	if (tpcount_open(&tc, &spec, &me, 1, TPCOUNT_PERF_M, why, len) || tpcount_enable(tc)) {
		tpcount_close(tc);
		return NULL;
	}
	return tc;
}

/* The perf-filter counter @pc counted the main thread's N_MAIN calls. */
static void perf_beside_check(struct tpcount *pc, const struct tpcount_snap *a,
			      const char *why)
{
	struct tpcount_snap b;
	uint64_t n = 0;
	int ret = !pc || tpcount_snap_init(pc, &b) || tpcount_read(pc, &b);

	if (!ret)
		n = tpcount_diff(pc, a, &b, 0, -1);
	tap_ok(!ret && n == N_MAIN, "... and a perf-filter counter beside it still counts: "
	       "%llu of the main thread's %d (%s)", (unsigned long long)n, N_MAIN,
	       pc ? tpcount_method_name(tpcount_method(pc)) : why);
	if (pc)
		tpcount_snap_free(&b);
}

static void counted_checks(const char *cond)
{
	static const unsigned long long vals[] = { 0, SIGURG, 0 /* the rest */ };
	struct tpcount_spec spec = { "syscalls", "sys_enter_kill", "sig", cond, vals, 3, NULL };
	struct tpcount_snap a, b, pa;
	struct tpcount *tc = NULL, *pc;
	pid_t me = getpid();
	char why[512] = "", pwhy[512] = "";
	uint64_t z, u, r;
	int ret;

	pc = perf_beside(pwhy, sizeof(pwhy));
	ret = tpcount_open(&tc, &spec, &me, 1, TPCOUNT_TGID | TPCOUNT_REST, why, sizeof(why));
	if (ret) {
		printf("ok %d # SKIP %s\n", ++tap_count, why);
		printf("ok %d # SKIP %s\n", ++tap_count, why);
		tpcount_close(pc);
		return;
	}
	ret = tpcount_snap_init(tc, &a) ?: tpcount_snap_init(tc, &b) ?: tpcount_enable(tc) ?:
	      tpcount_read(tc, &a);
	if (pc && (tpcount_snap_init(pc, &pa) || tpcount_read(pc, &pa))) {
		tpcount_close(pc);
		pc = NULL;
	}
	make_kills();
	ret = ret ?: tpcount_read(tc, &b);
	z = tpcount_diff(tc, &a, &b, 0, -1);
	u = tpcount_diff(tc, &a, &b, 1, -1);
	r = tpcount_diff(tc, &a, &b, 2, -1);
	tap_ok(!ret && tpcount_method(tc) == TPCOUNT_BPF && z == N_ZERO + N_MAIN &&
	       u == N_URG && r == N_CHLD, "bpf, by process, '%s': sig 0 %llu of %d, SIGURG "
	       "%llu of %d, the rest %llu of %d", cond, (unsigned long long)z, N_ZERO + N_MAIN,
	       (unsigned long long)u, N_URG, (unsigned long long)r, N_CHLD);
	perf_beside_check(pc, &pa, pwhy);
	tpcount_snap_free(&a);
	tpcount_snap_free(&b);
	tpcount_close(tc);
	if (pc)
		tpcount_snap_free(&pa);
	tpcount_close(pc);
}

int main(void)
{
	struct pidns_id ns = { 0, 0 };
	char why[512] = "", cond[64];
	int ret;

	tap_plan(12);
	tap_ok(open_with(3, NULL, why, sizeof(why)) == -EOPNOTSUPP,
	       "a 3-byte field: -EOPNOTSUPP (%s)", why);
	tap_contains(why, "size", "... the reason names the size");
	tap_ok(open_with(16, NULL, why, sizeof(why)) == -EOPNOTSUPP,
	       "a 16-byte field: -EOPNOTSUPP (%s)", why);
	tap_ok(open_with(8, "isa == 2", why, sizeof(why)) == -EOPNOTSUPP,
	       "an extra condition: -EOPNOTSUPP (%s)", why);
	/* loaded zero-extended: "pid == -1" on a 4-byte field never matched */
	tap_ok(open_cond(8, "pid == -1", 4, (unsigned long long)-1LL, why, sizeof(why)) ==
	       -EOPNOTSUPP, "a negative N on a 4-byte field: -EOPNOTSUPP (%s)", why);
	tap_ok(open_cond(8, "pid == 4294967296", 4, 1ULL << 32, why, sizeof(why)) ==
	       -EOPNOTSUPP, "an N wider than the 4-byte field: -EOPNOTSUPP (%s)", why);
	ret = pidns_self(&ns);
	tap_ok(ret == 0 && ns.ino != 0, "this process's pid namespace: inode %llu%s",
	       (unsigned long long)ns.ino, pidns_is_initial(&ns) ? " (the initial one)" : "");
	tap_ok(pidns_of_task(getpid(), &ns) == 0, "this process is in it");
	if (geteuid() || !tracefs_usable(why, sizeof(why))) {
		for (int i = 0; i < 4; i++)
			printf("ok %d # SKIP %s\n", ++tap_count, geteuid() ? "needs root" : why);
		return tap_done();
	}
	/* its own journal: where tracefs is not mounted (machine B) it mounts and unmounts it */
	if (test_journal_open(why, sizeof(why))) {
		for (int i = 0; i < 4; i++)
			printf("ok %d # SKIP no journal of its own: %s\n", ++tap_count, why);
		test_journal_done();
		return tap_done();
	}
	snprintf(cond, sizeof(cond), "pid == %d", (int)getpid());
	counted_checks(cond);
	counted_checks("pid != 0");
	test_journal_done();
	return tap_done();
}
