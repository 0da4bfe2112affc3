// SPDX-License-Identifier: MIT
/*
 * tests/unit/pmu-events.c - the pmu probe's event encodings, no PMU needed:
 * the built-in table (what the guest agent uses) against libpfm4's
 * encodings of the same names; host-PMU events with libpfm4 forced onto a
 * PMU model (LIBPFM_FORCE_PMU, in a child: libpfm4 initialises once)
 * against the vendors' event codes (Intel SDM: INST_RETIRED.ANY_P = event
 * 0xC0, umask 0; AMD PPR: retired instructions PMCx0C0, retired
 * mispredicted branches PMCx0C3); unknown names; the user/kernel default
 * and modifiers; the time_enabled / time_running scaling.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmu-counters.h"
#include "pmu-events.h"
#include "tap.h"

static const char *const generic[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branch-misses",
	"dTLB-load-misses", "task-clock", "context-switches", "cpu-migrations",
	"page-faults", "minor-faults", "major-faults",
};

#ifdef HAVE_LIBPFM
static void builtin_matches_libpfm(void)
{
	struct pmu_event a, b;
	char err[256];
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		if (pmu_event_resolve(generic[i], &a, err, sizeof(err)) ||
		    pmu_event_builtin(generic[i], &b) || a.attr.type != b.attr.type ||
		    a.attr.config != b.attr.config) {
			printf("# %s: libpfm4 type %u config %#llx, table type %u config %#llx\n",
			       generic[i], a.attr.type, (unsigned long long)a.attr.config,
			       b.attr.type, (unsigned long long)b.attr.config);
			bad++;
		}
	}
	tap_ok(!bad, "the built-in table encodes its 12 names as libpfm4 does");
}

/*
 * This test run again with LIBPFM_FORCE_PMU=@pmu (a new process: libpfm4
 * reads it once, at its initialisation): "type config" of @name, or "error".
 */
static void forced(const char *pmu, const char *name, char *out, size_t len)
{
	int fd[2];
	ssize_t n;
	pid_t pid;

	out[0] = '\0';
	if (pipe(fd))
		return;
	pid = fork();
	if (pid == 0) {
		setenv("LIBPFM_FORCE_PMU", pmu, 1);
		dup2(fd[1], 1);
		execl("/proc/self/exe", "pmu-events.t", "--encode", name, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	n = read(fd[0], out, len - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fd[0]);
	waitpid(pid, NULL, 0);
}

static void host_pmu_events(void)
{
	char got[300], want[64];

	snprintf(want, sizeof(want), "%u 0xc0", (unsigned int)PERF_TYPE_RAW);
	forced("skl", "INST_RETIRED:ANY_P", got, sizeof(got));
	tap_ok(!strcmp(got, want), "Skylake INST_RETIRED:ANY_P is raw 0xc0 (got '%s')", got);
	forced("amd64_fam19h_zen3", "RETIRED_INSTRUCTIONS", got, sizeof(got));
	tap_ok(!strcmp(got, want), "Zen3 RETIRED_INSTRUCTIONS is raw 0xc0 (got '%s')", got);
	snprintf(want, sizeof(want), "%u 0xc3", (unsigned int)PERF_TYPE_RAW);
	forced("amd64_fam19h_zen3", "amd64_fam19h_zen3::RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
	       got, sizeof(got));
	tap_ok(!strcmp(got, want), "Zen3 mispredicted branches are raw 0xc3 (got '%s')", got);
	forced("skl", "NO_SUCH_EVENT", got, sizeof(got));
	tap_ok(!strncmp(got, "error", 5), "an unknown name on a forced PMU is an error");
}

static void modifiers(void)
{
	struct pmu_event e;
	char err[256];

	tap_ok(!pmu_event_resolve("instructions", &e, err, sizeof(err)) &&
	       !e.attr.exclude_kernel && !e.attr.exclude_user && e.attr.exclude_hv,
	       "without modifiers user and kernel are counted, not the hypervisor");
	tap_ok(!pmu_event_resolve("instructions:u", &e, err, sizeof(err)) &&
	       e.attr.exclude_kernel && !e.attr.exclude_user, "instructions:u: user only");
}
#endif

static void unknown_and_kinds(void)
{
	struct pmu_event e;
	char err[256] = "";

	tap_ok(pmu_event_resolve("no-such-event", &e, err, sizeof(err)) == -ENOENT &&
	       strstr(err, "no-such-event"), "an unknown name: -ENOENT naming it ('%s')", err);
	tap_ok(pmu_event_check("no-such-event", err, sizeof(err)) == -EINVAL,
	       "and the config check refuses it");
	pmu_event_resolve("task-clock", &e, err, sizeof(err));
	tap_ok(!strcmp(pmu_event_source(&e), "software") && !strcmp(pmu_event_unit(&e), "ns"),
	       "task-clock: software, ns");
	pmu_event_resolve("cache-misses", &e, err, sizeof(err));
	tap_ok(!strcmp(pmu_event_source(&e), "hardware") &&
	       !strcmp(pmu_event_unit(&e), "count"), "cache-misses: hardware, count");
}

/* Two groups: one multiplexed half the window, one never on a counter. */
static void scaling(void)
{
	struct pmu_counters c = { .nev = 1, .ngroups = 3 };
	struct pmu_read a[3] = { { 100, 0, 0, 1 }, { 5, 10, 10, 1 }, { 7, 1, 1, 1 } };
	struct pmu_read b[3] = { { 300, 1000, 500, 1 }, { 5, 60, 10, 1 }, { 9, 2, 2, 0 } };
	struct pmu_total t;

	pmu_counters_delta(&c, a, b, 0, &t);
	tap_ok(t.value == 400.0 && t.raw == 200, "200 counted in half the window scale to 400");
	tap_ok(t.enabled == 1050 && t.running == 500 && t.unscheduled == 1,
	       "enabled 1050, running 500, one group never on a counter, a failed read left out");
}

/* --encode NAME: print "type config" of NAME, or "error: why". */
static int encode(const char *name)
{
	struct pmu_event e;
	char err[256];

	if (pmu_event_resolve(name, &e, err, sizeof(err)))
		printf("error: %s", err);
	else
		printf("%u %#llx", e.attr.type, (unsigned long long)e.attr.config);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--encode"))
		return encode(argv[2]);
#ifdef HAVE_LIBPFM
	tap_plan(13);
	builtin_matches_libpfm();
	host_pmu_events();
	modifiers();
#else
	tap_plan(6);
#endif
	unknown_and_kinds();
	scaling();
	return tap_done();
}
