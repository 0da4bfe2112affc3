// SPDX-License-Identifier: MIT
/*
 * vm-journal.c - the VM launcher's process handling without QEMU
 * (bench/backends/qemu/vm.c), with `sleep` standing in for it: with a
 * journal open, the child's pid is journalled before it may exec, and
 * undoing that entry ends exactly that process (pid and start time match);
 * vm_stop() kills and reaps it and closes the entry; without a journal
 * the launcher still runs it. Its private directory is journalled as well,
 * and undoing that entry removes it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest-local.h"
#include "vm-local.h"
#include "journal.h"
#include "tap.h"

static struct qemu_argv sleeper = { .argv = { "sleep", "30", NULL }, .argc = 2 };

/* 1 if @pid runs the program @comm (after its exec) within about 2 s. */
static int runs(pid_t pid, const char *comm)
{
	char path[64], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	for (int i = 0; i < 200; i++) {
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = '\0';
		if (f)
			fclose(f);
		if (!strcmp(buf, comm))
			return 1;
		usleep(10000);
	}
	return 0;
}

static void test_journalled(void)
{
	struct vm vm;
	int status = 0, ret;
	pid_t pid;

	ret = vm_prepare(&vm, 0);
	if (!ret)
		ret = vm_spawn(&vm, &sleeper);
	tap_ok(ret == 0 && vm.pid > 0 && vm.journal_id > 0, "spawned and journalled (entry %ld)",
	       vm.journal_id);
	tap_ok(runs(vm.pid, "sleep"), "the child execs once journalled");
	pid = vm.pid;
	ret = journal_undo(vm.journal_id);
	tap_ok(ret == 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	       WTERMSIG(status) == SIGKILL, "undoing the entry kills that very process");
	vm.pid = 0;
	vm.journal_id = 0;
	tap_ok(vm.dir_id > 0 && access(vm.sock, F_OK) == 0 && journal_undo(vm.dir_id) == 0 &&
	       access(vm.dir, F_OK) == -1 && errno == ENOENT,
	       "undoing the directory's entry removes it, socket and all");
	vm.dir_id = 0;
	vm.dir[0] = '\0';
	vm_stop(&vm);
	ret = vm_prepare(&vm, 0);
	if (!ret)
		ret = vm_spawn(&vm, &sleeper);
	pid = vm.pid;
	long id = vm.journal_id, dir_id = vm.dir_id;
	vm_stop(&vm);
	tap_ok(ret == 0 && kill(pid, 0) == -1 && errno == ESRCH, "vm_stop kills and reaps it");
	tap_ok(journal_undo(id) == -ENOENT && journal_undo(dir_id) == -ENOENT,
	       "... and closes its journal entries (process and directory)");
}

static void test_no_journal(void)
{
	struct vm vm;
	int ret;
	pid_t pid;

	ret = vm_prepare(&vm, 0);
	if (!ret)
		ret = vm_spawn(&vm, &sleeper);
	tap_ok(ret == 0 && vm.journal_id == 0 && vm.dir_id == 0 && runs(vm.pid, "sleep"),
	       "without a journal the child runs all the same");
	pid = vm.pid;
	vm_stop(&vm);
	tap_ok(kill(pid, 0) == -1 && errno == ESRCH, "... and vm_stop ends it");
}

int main(void)
{
	char dir[] = "/tmp/cvmbench-vm-journal-XXXXXX", err[512];

	tap_plan(8);
	char lock[64];

	/* a journal and host lock of our own: never the machine's */
	if (!mkdtemp(dir) || snprintf(lock, sizeof(lock), "%s/host.lock", dir) < 0 ||
	    setenv("CVMBENCH_STATE_DIR", dir, 1) || setenv("TMPDIR", dir, 1) ||
	    setenv("CVMBENCH_TEST_HOST_LOCK", lock, 1) || journal_open(err, sizeof(err))) {
		printf("Bail out! journal in %s: %s\n", dir, err);
		return 1;
	}
	test_journalled();
	journal_close();
	test_no_journal();
	guest_rm_tree(dir);          /* our mkdtemp directory */
	return tap_done();
}
