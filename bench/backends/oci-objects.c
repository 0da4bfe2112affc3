// SPDX-License-Identifier: MIT
/*
 * oci-objects.c - removing what the runc and crun backends create: a
 * container (runtime delete --force, then any cgroup directory named after
 * it, then its bundle), a rootfs, a cgroup, a bound network namespace, a
 * remounted cgroup2; and making a bound network namespace. Called by the backend itself and, through the
 * journal kinds "oci-*" this file registers, by restore after a crash.
 * Only names cvmbench recorded are touched, and trees only inside the
 * state directory.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "instance.h"
#include "journal.h"
#include "oci-bundle.h"
#include "oci-host.h"
#include "state-dir.h"
#include "sysfs.h"

void oci_state_dir(char *buf, size_t len)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", journal_path());
	snprintf(buf, len, "%s", dirname(tmp));
}

/*
 * Reap @pid into @status, or kill it at @deadline (-ETIMEDOUT). Blocks on a
 * pidfd, so the wait ends when the child does (a poll every 2 ms, where the
 * kernel has no pidfd_open, added up to 2 ms to each timed ip run).
 */
static int wait_until(pid_t pid, long long deadline, int *status)
{
	struct timespec pause = { 0, 2000000 };
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	long long left;

	while (waitpid(pid, status, WNOHANG) == 0) {
		left = deadline - clock_now_ns();
		if (left <= 0) {
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			if (pfd >= 0)
				close(pfd);
			return -ETIMEDOUT;
		}
		if (pfd >= 0) {
			struct pollfd p = { .fd = pfd, .events = POLLIN };

			poll(&p, 1, (int)(left / 1000000) + 1);
		} else {
			nanosleep(&pause, NULL);
		}
	}
	if (pfd >= 0)
		close(pfd);
	return 0;
}

int oci_run_wait(char *const argv[], double timeout_s)
{
	return oci_run_wait_in(argv, NULL, timeout_s);
}

int oci_run_wait_in(char *const argv[], const char *netns, double timeout_s)
{
	long long deadline = clock_now_ns() + (long long)(timeout_s * 1e9);
	int status, fd;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		fd = netns ? open(netns, O_RDONLY | O_CLOEXEC) : -1;
		if (netns && (fd < 0 || setns(fd, CLONE_NEWNET)))
			_exit(126);
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait_until(pid, deadline, &status))
		return -ETIMEDOUT;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR;
}

int oci_cgroup_remove(const char *dir)
{
	char procs[PATH_MAX], parent[PATH_MAX], line[32];
	FILE *f;
	int fd;

	if (!rmdir(dir) || errno == ENOENT)
		return 0;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(parent, sizeof(parent), "%s/../cgroup.procs", dir);
	f = fopen(procs, "re");
	fd = open(parent, O_WRONLY | O_CLOEXEC);
	while (f && fd >= 0 && fgets(line, sizeof(line), f))
		if (write(fd, line, strlen(line)) < 0)
			break;
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	return sysfs_rmdir_busy(dir, 200);
}

void oci_cgroups_remove_named(const char *name)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir("/sys/fs/cgroup");

	if (!name[0] || strchr(name, '/') || !d) {
		if (d)
			closedir(d);
		return;
	}
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s", name);
	oci_cgroup_remove(path);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/%s", e->d_name, name);
			oci_cgroup_remove(path);
		}
	closedir(d);
}

/*
 * `RUNTIME delete --force ID` until the runtime's state directory @state is
 * gone. After a kill -9 the killed run's runtime process is an orphan that
 * may still be creating or deleting the container itself: its own removal
 * of the state directory races ours, and ours then fails ("cannot rm state
 * directory: No such file or directory"). Gone is what counts, so the state
 * directory is checked after each failure; up to 5 tries, 200 ms apart.
 */
static int runtime_delete(const char *runtime, const char *id, const char *state)
{
	char *argv[] = { (char *)runtime, "delete", "--force", (char *)id, NULL };
	struct timespec pause = { 0, 200000000 };
	struct stat st;
	int i;

	for (i = 0; i < 5; i++) {
		if (stat(state, &st) || !oci_run_wait(argv, 10.0) || stat(state, &st))
			return 0;
		nanosleep(&pause, NULL);
	}
	return -EIO;
}

int oci_container_remove(const char *runtime, const char *id, const char *bundle)
{
	char state[PATH_MAX];
	int ret, tree = 0;

	snprintf(state, sizeof(state), "/run/%s/%s",
		 strstr(runtime, "crun") ? "crun" : "runc", id);
	ret = runtime_delete(runtime, id, state);
	oci_cgroups_remove_named(id);
	if (bundle && bundle[0])
		tree = state_dir_remove_tree(bundle);
	return ret ?: tree;
}

/* Is controller @ctrl bound to a cgroup v1 hierarchy (/proc/cgroups)? */
static int on_v1(const char *ctrl)
{
	char line[256], name[64];
	int hier = 0, found = 0;
	FILE *f = fopen("/proc/cgroups", "re");

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63s %d", name, &hier) == 2 && !strcmp(name, ctrl);
	if (f)
		fclose(f);
	return found && hier > 0;
}

/* Remove the cgroups cvmbench's containers left under hierarchy @dir. */
static void remove_ours(const char *dir)
{
	char path[PATH_MAX + 256];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "cvmbench-", 9)) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			oci_cgroup_remove(path);
		}
	if (d)
		closedir(d);
}

/* Wait up to 1 s for @ctrl to leave cgroup v1; 1 if it did. */
static int v1_released(const char *ctrl)
{
	struct timespec pause = { 0, 20000000 };
	int i;

	for (i = 0; i < 50; i++) {
		if (!on_v1(ctrl))
			return 1;
		nanosleep(&pause, NULL);
	}
	return 0;
}

/*
 * Unmount a v1 hierarchy cvmbench mounted and give its controller back to
 * cgroup2. A hierarchy unmounted while a child cgroup was still dying
 * lingers after the child is gone; mounting and unmounting it once more
 * releases it (asynchronously).
 */
static int v1mount_remove(const char *dir)
{
	const char *ctrl = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	int i;

	remove_ours(dir);
	if (umount2(dir, 0) && errno != EINVAL && errno != ENOENT)
		return -errno;
	for (i = 0; i < 5 && !v1_released(ctrl); i++)
		if (!mount("cgroup", dir, "cgroup", 0, ctrl))
			umount2(dir, 0);
	return rmdir(dir) && errno != ENOENT ? -errno : 0;
}

/* Split "A\tB\tC" in place into up to @n fields. */
static int split_tabs(char *s, char **f, int n)
{
	int i = 0;

	while (i < n) {
		f[i++] = s;
		s = strchr(s, '\t');
		if (!s)
			break;
		*s++ = '\0';
	}
	return i;
}

/*
 * "RUNTIME\tID\tBUNDLE": the runtime's orphans of a killed run ended,
 * then delete --force, its cgroups, its bundle.
 */
static int container_undo(const char *name)
{
	char *buf = strdup(name), *f[3] = { NULL, NULL, NULL };
	int ret = -EINVAL;

	if (buf && split_tabs(buf, f, 3) >= 2) {
		oci_orphans_end(f[0], f[1]);
		ret = oci_container_remove(f[0], f[1], f[2]);
	}
	free(buf);
	return buf ? ret : -ENOMEM;
}

/* "PATH\tDATA": remount cgroup2 with its old options. */
static int mountopt_undo(const char *name)
{
	char *buf = strdup(name), *f[2] = { NULL, NULL };
	int ret = -EINVAL;

	if (buf && split_tabs(buf, f, 2) == 2)
		ret = mount(NULL, f[0], NULL, MS_REMOUNT, f[1]) ? -errno : 0;
	free(buf);
	return buf ? ret : -ENOMEM;
}

int oci_netns_bind(const char *path)
{
	int status, fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	pid_t pid;

	if (fd < 0)
		return -errno;
	close(fd);
	pid = fork();
	if (pid == 0)
		_exit(unshare(CLONE_NEWNET) ||
		      mount("/proc/self/ns/net", path, NULL, MS_BIND, NULL) ? errno : 0);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		status = -errno;
		unlink(path);
		return status;
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	unlink(path);
	return WIFEXITED(status) ? -WEXITSTATUS(status) : -EINTR;
}

int oci_netns_unbind(const char *path)
{
	umount2(path, MNT_DETACH);
	return unlink(path) && errno != ENOENT ? -errno : 0;
}

static const struct journal_kind kind_container = { "oci-container", container_undo };
static const struct journal_kind kind_rootfs = { "oci-rootfs", state_dir_remove_tree };
static const struct journal_kind kind_cgroup = { "oci-cgroup", oci_cgroup_remove };
static const struct journal_kind kind_netns = { "oci-netns", oci_netns_unbind };
static const struct journal_kind kind_v1mount = { "oci-v1mount", v1mount_remove };
static const struct journal_kind kind_mountopt = { "oci-mountopt", mountopt_undo };
JOURNAL_KIND_REGISTER(kind_container)
JOURNAL_KIND_REGISTER(kind_rootfs)
JOURNAL_KIND_REGISTER(kind_cgroup)
JOURNAL_KIND_REGISTER(kind_netns)
JOURNAL_KIND_REGISTER(kind_v1mount)
JOURNAL_KIND_REGISTER(kind_mountopt)
