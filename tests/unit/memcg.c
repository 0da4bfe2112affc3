// SPDX-License-Identifier: MIT
/*
 * tests/unit/memcg.c - memory cgroups (lib/memcg.c). On fake trees
 * (CVMBENCH_SYSROOT): cgroup v2 with the memory controller for this
 * process's children, v2 with it at the root only, v2 without it beside a
 * v1 memory hierarchy (this machine's kind), neither; a process's cgroup
 * and whether it is alone there; memory.stat of v1 and v2 against the
 * numbers in them. Against the kernel (root and a memory cgroup needed,
 * else SKIP naming why): a stand-in VM process in a cgroup made by the
 * tool's code fills an unmapped memfd of 64 MiB with write(), as
 * guest_memfd holds a CVM's memory: the cgroup's shmem and usage grow by
 * 64 MiB within 1 MiB while the process's PSS grows by less than 1 MiB.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake-file.h"
#include "memcg.h"
#include "procmem.h"
#include "tap.h"

#define FILL_MIB 64

static char root[PATH_MAX];

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)type;
	(void)f;
	remove(path);
	return 0;
}

static void mkdirs(const char *rel)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static const char mountinfo_v1[] =
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
static const char cgroup_v1[] =
	"4:memory:/process_api/abc\n1:cpu:/\n0::/\n";
static const char mountinfo_v2[] =
	"30 22 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";

/* A v1 memory.stat (bytes), as this machine's kernel writes it. */
static const char stat_v1[] =
	"cache 517767168\nrss 2142208\nrss_huge 0\nshmem 67108864\nmapped_file 32768\n"
	"unevictable 4096\nhierarchical_memory_limit 9223372036854771712\n"
	"total_cache 517767168\ntotal_rss 2142208\ntotal_shmem 67108864\n";
/* A v2 memory.stat (bytes), the lines of Documentation/admin-guide/cgroup-v2.rst. */
static const char stat_v2[] =
	"anon 10485760\nfile 73400320\nkernel 3145728\nkernel_stack 65536\n"
	"shmem 67108864\nfile_mapped 0\nunevictable 8192\nanon_thp 0\n";

static void tree_v1(void)
{
	mkdirs("/proc/self");
	mkdirs("/proc/4242");
	mkdirs("/sys/fs/cgroup/memory/process_api/abc");
	mkdirs("/sys/fs/cgroup/unified");
	fake_file_put(root, "/proc/self/mountinfo", mountinfo_v1);
	fake_file_put(root, "/proc/self/cgroup", cgroup_v1);
	fake_file_put(root, "/sys/fs/cgroup/unified/cgroup.subtree_control", "hugetlb\n");
	fake_file_put(root, "/proc/4242/cgroup", "4:memory:/process_api/abc/cvmbench-vm-1-0\n");
}

static void fake_tests(void)
{
	struct memcg_host h;
	struct memcg_stat st;
	char path[PATH_MAX];

	tree_v1();
	memcg_detect(&h);
	tap_ok(h.version == MEMCG_V1 && !strcmp(h.parent, "/sys/fs/cgroup/memory/process_api/abc"),
	       "v2 with hugetlb only, v1 memory: v1, below this process's memory cgroup (%d, %s)",
	       h.version, h.parent);
	tap_ok(!memcg_create(&h, "cvmbench-vm-1-0", path, sizeof(path)) &&
	       !strcmp(path, "/sys/fs/cgroup/memory/process_api/abc/cvmbench-vm-1-0"),
	       "a cgroup is made below it (%s)", path);
	fake_file_put(root, "/sys/fs/cgroup/memory/process_api/abc/cvmbench-vm-1-0/cgroup.procs",
		      "4242\n");
	tap_ok(!memcg_of_pid(&h, 4242, path, sizeof(path)) &&
	       !strcmp(path, "/sys/fs/cgroup/memory/process_api/abc/cvmbench-vm-1-0") &&
	       memcg_others(path, 4242) == 0, "a process's own cgroup, found from /proc/PID/cgroup");
	fake_file_put(root, "/sys/fs/cgroup/memory/process_api/abc/cvmbench-vm-1-0/cgroup.procs",
		      "4242\n17\n");
	tap_ok(memcg_others(path, 4242) == 1, "one more process there: it is not alone");
	tap_ok(memcg_create(&h, "../x", path, sizeof(path)) == -EINVAL, "a name with a slash is refused");

	/* a mount that shows only a subtree (mountinfo's ROOT), as in a container */
	fake_file_put(root, "/proc/self/mountinfo",
		      "34 30 0:31 /process_api /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
	mkdirs("/sys/fs/cgroup/memory/abc");
	memcg_detect(&h);
	tap_ok(h.version == MEMCG_V1 && !strcmp(h.parent, "/sys/fs/cgroup/memory/abc"),
	       "v1 mounted at /process_api: the cgroup's path below the mount's root (%s)",
	       h.parent);
	fake_file_put(root, "/proc/4242/cgroup", "4:memory:/process_api/abc/cvmbench-vm-1-0\n");
	tap_ok(!memcg_of_pid(&h, 4242, path, sizeof(path)) &&
	       !strcmp(path, "/sys/fs/cgroup/memory/abc/cvmbench-vm-1-0"),
	       "and a process's cgroup likewise (%s)", path);
	fake_file_put(root, "/proc/self/cgroup", "4:memory:/process_apiother/abc\n1:cpu:/\n0::/\n");
	memcg_detect(&h);
	tap_ok(h.version == MEMCG_NONE,
	       "a cgroup outside what the mount shows: no memory cgroup (%s)", h.why);
	fake_file_put(root, "/proc/self/cgroup", cgroup_v1);

	/* v2: the memory controller for the children of this process's cgroup */
	fake_file_put(root, "/proc/self/mountinfo", mountinfo_v2);
	fake_file_put(root, "/proc/self/cgroup", "0::/user.slice/run\n");
	mkdirs("/sys/fs/cgroup/user.slice/run");
	fake_file_put(root, "/sys/fs/cgroup/cgroup.subtree_control", "cpu memory pids\n");
	fake_file_put(root, "/sys/fs/cgroup/user.slice/run/cgroup.subtree_control", "memory\n");
	memcg_detect(&h);
	tap_ok(h.version == MEMCG_V2 && !strcmp(h.parent, "/sys/fs/cgroup/user.slice/run"),
	       "v2, memory for this cgroup's children: made below it (%s)", h.parent);
	fake_file_put(root, "/sys/fs/cgroup/user.slice/run/cgroup.subtree_control", "\n");
	memcg_detect(&h);
	tap_ok(h.version == MEMCG_V2 && !strcmp(h.parent, "/sys/fs/cgroup"),
	       "v2, memory at the root only: made below the root (%s)", h.parent);
	fake_file_put(root, "/sys/fs/cgroup/cgroup.subtree_control", "cpu pids\n");
	memcg_detect(&h);
	tap_ok(h.version == MEMCG_NONE && strstr(h.why, "no memory cgroup"),
	       "v2 without memory and no v1 hierarchy: none, and why (%s)", h.why);

	tap_ok(!memcg_stat_parse(stat_v1, MEMCG_V1, &st) && st.anon == 2092 &&
	       st.file == 505632 && st.shmem == 65536 && st.unevictable == 4 && st.kernel == -1,
	       "v1 memory.stat: rss, cache, shmem, unevictable in kB; no kernel line");
	tap_ok(!memcg_stat_parse(stat_v2, MEMCG_V2, &st) && st.anon == 10240 &&
	       st.file == 71680 && st.shmem == 65536 && st.unevictable == 8 && st.kernel == 3072,
	       "v2 memory.stat: anon, file, shmem, unevictable, kernel in kB (not kernel_stack)");
	tap_ok(memcg_stat_parse("pgfault 12\n", MEMCG_V2, &st) == -EINVAL,
	       "a memory.stat without anon or file is refused");
}

/* The stand-in: fill an unmapped memfd with write(), say so, wait to be killed. */
static void stand_in(int go_fd, int ready_fd)
{
	static char chunk[1 << 20];
	int fd = memfd_create("stand-in-guest-memfd", MFD_CLOEXEC), i;
	char go;

	memset(chunk, 0x5a, sizeof(chunk));     /* its own pages before the baseline */
	if (fd < 0 || write(ready_fd, "s", 1) != 1 || read(go_fd, &go, 1) != 1)
		_exit(1);
	for (i = 0; i < FILL_MIB; i++)
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
			_exit(1);
	if (write(ready_fd, "r", 1) != 1)
		_exit(1);
	pause();
	_exit(0);
}

static long long pss_kb(pid_t pid)
{
	char path[64], buf[8192];
	struct smaps_rollup r;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	return procmem_read(path, buf, sizeof(buf)) > 0 && !smaps_rollup_parse(buf, &r) ?
	       r.pss : -1;
}

/* After its go byte: usage, shmem and PSS before and after the fill. */
static void measure(pid_t pid, const char *path, enum memcg_version v, int go, int ready)
{
	const long long want = FILL_MIB * 1024LL;
	long long u0, u1, p0, p1;
	struct memcg_stat s0, s1;
	char r;

	if (read(ready, &r, 1) != 1) {
		for (int i = 0; i < 3; i++)
			tap_ok(0, "the stand-in started");
		return;
	}
	u0 = memcg_usage_kb(path, v);
	p0 = pss_kb(pid);
	memcg_stat_read(path, v, &s0);
	if (write(go, "g", 1) != 1 || read(ready, &r, 1) != 1) {
		for (int i = 0; i < 3; i++)
			tap_ok(0, "the stand-in filled its memfd");
		return;
	}
	u1 = memcg_usage_kb(path, v);
	p1 = pss_kb(pid);
	memcg_stat_read(path, v, &s1);
	tap_ok(llabs(s1.shmem - s0.shmem - want) <= 1024,
	       "the cgroup's shmem grew by %d MiB within 1 MiB (%lld kB)", FILL_MIB,
	       s1.shmem - s0.shmem);
	tap_ok(u1 - u0 >= want - 1024 && u1 - u0 <= want + 4096,
	       "its usage grew by %d MiB (%lld kB, within -1/+4 MiB)", FILL_MIB, u1 - u0);
	tap_ok(p0 >= 0 && p1 - p0 < 1024,
	       "while the process's PSS grew by less than 1 MiB (%lld kB): smaps misses it",
	       p1 - p0);
}

static void kernel_tests(void)
{
	int go[2], ready[2];
	struct memcg_host h;
	char path[PATH_MAX], name[64];
	pid_t pid;
	int ret;

	unsetenv("CVMBENCH_SYSROOT");
	memcg_detect(&h);
	if (getuid() || h.version == MEMCG_NONE) {
		for (int i = 0; i < 4; i++)
			tap_ok(1, "# SKIP %s", getuid() ? "needs root" : h.why);
		return;
	}
	snprintf(name, sizeof(name), "cvmbench-test-%d", (int)getpid());
	ret = memcg_create(&h, name, path, sizeof(path));
	if (ret == -EROFS || ret == -EACCES || ret == -EPERM) {
		/* a container's read-only or undelegated cgroup file system */
		for (int i = 0; i < 4; i++)
			tap_ok(1, "# SKIP cannot make a memory cgroup below %s: %s", h.parent,
			       strerror(-ret));
		return;
	}
	if (ret || pipe(go) || pipe(ready)) {
		for (int i = 0; i < 4; i++)
			tap_ok(0, "a memory cgroup made below %s: %s", h.parent,
			       strerror(ret ? -ret : errno));
		return;
	}
	pid = fork();
	if (pid == 0)
		stand_in(go[0], ready[1]);
	tap_ok(pid > 0 && !memcg_attach(path, pid) && memcg_others(path, pid) == 0,
	       "the stand-in is alone in its cgroup %s (v%d)", path, h.version);
	measure(pid, path, h.version, go[1], ready[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	for (int i = 0; i < 500 && memcg_remove(path) == -EBUSY; i++)
		usleep(2000);
	if (access(path, F_OK) == 0)
		printf("# the test's cgroup %s could not be removed\n", path);
}

int main(void)
{
	snprintf(root, sizeof(root), "/tmp/cvmbench-memcg-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	setenv("CVMBENCH_SYSROOT", root, 1);
	tap_plan(18);
	fake_tests();
	kernel_tests();
	nftw(root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
