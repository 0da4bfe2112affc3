// SPDX-License-Identifier: MIT
/*
 * oci-remove.c - undoing a journalled container (oci_container_remove(),
 * bench/backends/oci-objects.c) with shell scripts standing in for crun.
 * After a kill -9 the killed run's runtime is an orphan that may remove the
 * container's state directory /run/crun/ID itself, just before our
 * `crun delete --force` does, which then fails ("cannot rm state
 * directory"; journal-kill.t saw it): the container is gone, so the undo
 * succeeds. A runtime that fails and leaves the state directory is still an
 * error, and one that succeeds is success. Needs root (/run/crun).
 * Before the delete, restore ends the killed run's orphaned runtime
 * processes of that container (oci_orphans_end()): a process of the
 * runtime's program with the id as an argument is killed, one with another
 * id is not (a copy of /bin/sh standing in for crun, blocked in `read`).
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oci-host.h"
#include "tap.h"

static char dir[] = "/tmp/cvmbench-oci-remove-XXXXXX";
static char state[PATH_MAX], id[64];

/* Write an executable "crun" in dir running shell @body ($3 is the id). */
static void fake_runtime(const char *body, char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/crun", dir);
	f = fopen(path, "w");
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
}

static int made_run_crun;         /* /run/crun was not there: removed at the end */

static int case_with(const char *body)
{
	char runtime[PATH_MAX];

	if (!mkdir("/run/crun", 0700))
		made_run_crun = 1;
	mkdir(state, 0700);
	fake_runtime(body, runtime, sizeof(runtime));
	return oci_container_remove(runtime, id, NULL);
}

/* A copy of /bin/sh at @exe, as "crun delete @cid", blocked reading @rd. */
static pid_t fake_orphan(const char *exe, const char *cid, int rd)
{
	char path[64], real[PATH_MAX] = "";
	pid_t pid = fork();

	if (pid == 0) {
		dup2(rd, 0);
		execl(exe, "crun", "-c", "read x", "crun", "delete", cid, (char *)NULL);
		_exit(127);
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	for (int i = 0; i < 400 && strcmp(real, exe); i++) {   /* until it has exec'd */
		ssize_t n = readlink(path, real, sizeof(real) - 1);

		real[n > 0 ? n : 0] = '\0';
		usleep(5000);
	}
	return pid;
}

static void orphan_checks(void)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 64], other[80];
	int fds[2], status = 0, n;
	pid_t mine, theirs;

	snprintf(exe, sizeof(exe), "%s/crun-orphan", dir);
	snprintf(cmd, sizeof(cmd), "cp /bin/sh %s", exe);
	snprintf(other, sizeof(other), "%s-other", id);
	if (system(cmd) || pipe(fds)) {
		printf("ok %d # SKIP cannot copy /bin/sh\nok %d # SKIP\n", tap_count + 1,
		       tap_count + 2);
		tap_count += 2;
		return;
	}
	mine = fake_orphan(exe, id, fds[0]);
	theirs = fake_orphan(exe, other, fds[0]);
	n = oci_orphans_end(exe, id);
	waitpid(mine, &status, 0);
	tap_ok(n == 1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	       "the orphaned runtime of the container: found and killed (%d found)", n);
	tap_ok(!kill(theirs, 0), "one of another container's id: left running");
	kill(theirs, SIGKILL);
	waitpid(theirs, NULL, 0);
	close(fds[0]);
	close(fds[1]);
	unlink(exe);
}

int main(void)
{
	struct stat st;
	int ret;

	tap_plan(6);
	if (geteuid()) {
		for (int i = 1; i <= 6; i++)
			printf("ok %d # SKIP needs root (the runtime's state is in /run/crun)\n", i);
		return 0;
	}
	if (!mkdtemp(dir))
		return 1;
	snprintf(id, sizeof(id), "cvmbench-unit-%d", (int)getpid());
	snprintf(state, sizeof(state), "/run/crun/%s", id);

	ret = case_with("rm -rf \"/run/crun/$3\"\n"
			"echo \"cannot rm state directory\" >&2; exit 1");
	tap_ok(ret == 0, "the orphan removed the state first, delete failed: undone (got %d)", ret);
	ret = case_with("exit 1");
	tap_ok(ret == -EIO, "delete fails and the state stays: an error (got %d)", ret);
	tap_ok(!stat(state, &st), "and the state directory is left for the user to see");
	ret = case_with("rm -rf \"/run/crun/$3\"");
	tap_ok(ret == 0, "delete succeeds: undone (got %d)", ret);
	orphan_checks();
	rmdir(state);
	if (made_run_crun)
		rmdir("/run/crun");
	snprintf(state, sizeof(state), "%s/crun", dir);
	unlink(state);
	rmdir(dir);
	return tap_done();
}
