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
 */
#include <errno.h>
#include <limits.h>
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

int main(void)
{
	struct stat st;
	int ret;

	tap_plan(4);
	if (geteuid()) {
		for (int i = 1; i <= 4; i++)
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
	rmdir(state);
	if (made_run_crun)
		rmdir("/run/crun");
	snprintf(state, sizeof(state), "%s/crun", dir);
	unlink(state);
	rmdir(dir);
	return tap_done();
}
