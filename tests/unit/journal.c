// SPDX-License-Identifier: MIT
/*
 * tests/unit/journal.c - the journal against what it was given: names of
 * any length and bytes come back exactly; 50 000 changes (files in a temp
 * tree written through journal_set) and 50 000 objects (rootfs trees in the
 * state directory), a run killed with SIGKILL, and `./cvmbench restore`
 * puts back every file byte for byte and removes every tree; a tree
 * outside the state directory is never deleted (the cut-name reproducer
 * of issue 9, symlinks, ".."); the state directory is 0700; the host lock
 * names its holder and waits; a cut last line and an unknown kind.
 * No root: everything lives in a temporary directory (tmpfs when there is
 * one: 100 000 fsyncs on a disk would take minutes).
 *
 * `journal.t bench N` instead times N changes + N objects: fill, reload,
 * undo one by one, restore all (tests/bench/journal-scale.sh; the temporary
 * directory goes in $JOURNAL_BENCH_DIR when set).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "journal.h"
#include "state-dir.h"
#include "tap.h"
#include "test-journal.h"

#define N_KILL 50000

static char tmp[PATH_MAX / 2], state[PATH_MAX / 2 + 16], cwd[PATH_MAX];
static char undone_name[8192];
static int undone_count;

static int test_undo(const char *name)
{
	snprintf(undone_name, sizeof(undone_name), "%s", name);
	undone_count++;
	return 0;
}

static const struct journal_kind kind_test = { "test-record", test_undo };

/* An undo that fails while @fail_undo is set (a busy mount, a read-only file). */
static int fail_undo = 1;

static int test_undo_failing(const char *name)
{
	(void)name;
	return fail_undo ? -EBUSY : 0;
}

static const struct journal_kind kind_failing = { "test-failing", test_undo_failing };

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return f ? (int)n : -1;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* A name with spaces, tabs, a newline, bytes >= 0x80 and 3000 characters. */
static void test_exact_names(void)
{
	char name[4096];
	size_t i;

	snprintf(name, sizeof(name), "a b\tc\nd\xe9\xff/");
	for (i = strlen(name); i < 3000; i++)
		name[i] = (char)('a' + i % 26);
	name[i] = '\0';
	tap_ok(test_journal_reopen() == 0, "journal opens in a new state directory");
	tap_ok(journal_object("test-record", name) > 0, "a 3000-byte name is journalled");
	journal_close();
	tap_ok(test_journal_reopen() == 0, "journal reopens");
	tap_ok(journal_open_entries() == 1, "one open entry read back");
	undone_count = 0;
	tap_ok(journal_restore_all(NULL, NULL) == 1 && undone_count == 1,
	       "restore undoes it once");
	tap_ok(!strcmp(undone_name, name), "the name comes back byte for byte (%zu bytes)",
	       strlen(undone_name));
	journal_close();
}

static void test_state_dir_mode(void)
{
	struct stat st;
	int ret = stat(state, &st);

	tap_ok(!ret && (st.st_mode & 0777) == 0700, "the state directory is created 0700 "
	       "(%o)", ret ? 0 : st.st_mode & 0777);
}

/* journal_open() in state directory @dir: its return, the message in @err. */
static int jopen_in(const char *dir, char *err, size_t len)
{
	int ret;

	setenv("CVMBENCH_STATE_DIR", dir, 1);
	err[0] = '\0';
	ret = journal_open(err, len);
	journal_close();
	setenv("CVMBENCH_STATE_DIR", state, 1);
	return ret;
}

/* A state directory others can write (or a symlink to one) is refused. */
static void test_unsafe_state_dir(void)
{
	char d[PATH_MAX], link[PATH_MAX], jf[PATH_MAX + 16], err[1024];
	struct stat st;

	snprintf(d, sizeof(d), "%s/open", tmp);
	snprintf(link, sizeof(link), "%s/link", tmp);
	snprintf(jf, sizeof(jf), "%s/journal", d);
	mkdir(d, 0700);
	chmod(d, 0777);
	tap_ok(jopen_in(d, err, sizeof(err)) == -EPERM && strstr(err, d) &&
	       strstr(err, "world-writable"), "a 0777 state directory is refused: %s", err);
	tap_ok(!stat(d, &st) && (st.st_mode & 0777) == 0777 && access(jf, F_OK) != 0,
	       "and left as it was, with no journal in it");
	chmod(d, 0770);
	tap_ok(jopen_in(d, err, sizeof(err)) == -EPERM && strstr(err, "group-writable"),
	       "a 0770 state directory is refused: %s", err);
	chmod(d, 0755);
	tap_ok(jopen_in(d, err, sizeof(err)) == 0, "a 0755 one is used (%s)", err);
	chmod(d, 0700);
	symlink(d, link);
	tap_ok(jopen_in(link, err, sizeof(err)) == -EPERM && strstr(err, "symbolic link"),
	       "a symlink to a 0700 state directory is refused: %s", err);
	if (geteuid()) {
		printf("ok %d # SKIP a state directory owned by another user needs root\n",
		       ++tap_count);
		return;
	}
	tap_ok(!chown(d, 65534, 65534) && jopen_in(d, err, sizeof(err)) == -EPERM &&
	       strstr(err, "owned by uid 65534"), "one owned by another user is refused: %s",
	       err);
}

/* Issue 9 item 2: state directory $D/s with $D 549 characters. */
static void test_long_state_dir(void)
{
	char d[PATH_MAX / 2], keep[PATH_MAX], s[PATH_MAX], rootfs[PATH_MAX + 64];
	char old[PATH_MAX + 16];
	size_t n;

	n = (size_t)snprintf(d, sizeof(d), "%s/", tmp);
	for (; n < 549; n++)
		d[n] = n % 100 ? 'd' : '/';
	d[n] = '\0';
	snprintf(s, sizeof(s), "%s/s", d);
	state_dir_create(s);
	snprintf(keep, sizeof(keep), "%s/keep", d);
	write_file(keep, "user data");
	snprintf(rootfs, sizeof(rootfs), "%s/oci", s);
	mkdir(rootfs, 0700);
	snprintf(rootfs, sizeof(rootfs), "%s/oci/rootfs-1-0", s);
	snprintf(old, sizeof(old), "%s", getenv("CVMBENCH_STATE_DIR"));
	setenv("CVMBENCH_STATE_DIR", s, 1);
	if (test_journal_reopen() == 0) {
		tap_ok(journal_object("oci-rootfs", rootfs) > 0 && !mkdir(rootfs, 0700),
		       "a rootfs under a %zu-character state directory is journalled", n + 2);
		journal_close();
		tap_ok(test_journal_reopen() == 0 && journal_restore_all(NULL, NULL) == 1,
		       "restore undoes it after a reopen");
		journal_close();
	}
	tap_ok(access(rootfs, F_OK) && !access(keep, F_OK),
	       "the rootfs is gone, the user's file beside the state directory is not");
	setenv("CVMBENCH_STATE_DIR", old, 1);
}

/* A tree outside the state directory is never removed, whatever the name. */
static void test_outside(void)
{
	char victim[PATH_MAX + 16], file[PATH_MAX + 32], p[PATH_MAX * 2], link[PATH_MAX + 16];

	snprintf(victim, sizeof(victim), "%s/victim", tmp);
	mkdir(victim, 0700);
	snprintf(file, sizeof(file), "%s/precious", victim);
	write_file(file, "x");
	tap_ok(state_dir_remove_tree(victim) == -EPERM, "a tree outside is refused");
	snprintf(p, sizeof(p), "%s/../victim", state);
	tap_ok(state_dir_remove_tree(p) == -EPERM, "state/../victim is refused");
	tap_ok(state_dir_remove_tree(state) == -EPERM, "the state directory itself is refused");
	snprintf(link, sizeof(link), "%s/link", state);
	tap_ok(!symlink(victim, link), "a symlink to it inside the state directory");
	snprintf(p, sizeof(p), "%s/link/precious", state);
	tap_ok(state_dir_remove_tree(p) != 0, "a path through the symlink is refused");
	tap_ok(state_dir_remove_tree(link) == 0 && access(link, F_OK),
	       "removing the symlink removes only the link");
	tap_ok(!access(file, F_OK), "the file outside is still there");
	if (!chdir(tmp)) {
		setenv("CVMBENCH_STATE_DIR", "state", 1);
		state_dir_path(p, sizeof(p));
		tap_ok(!strcmp(p, state), "a relative CVMBENCH_STATE_DIR is made absolute (%s)", p);
		setenv("CVMBENCH_STATE_DIR", state, 1);
		if (chdir(cwd))
			exit(1);
	}
}

/* Child: N changes and N objects (every third closed again), then hang. */
static void kill_child(const char *tree, int n, int ready)
{
	char path[PATH_MAX + 64], val[16];
	long id;
	int i;

	if (test_journal_reopen())
		_exit(1);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%d", tree, i);
		snprintf(val, sizeof(val), "b%07d", i);
		if (journal_set(path, val) < 0)
			_exit(2);
		snprintf(path, sizeof(path), "%s/oci/r%d", state, i);
		id = journal_object("oci-rootfs", path);
		if (id < 0 || mkdir(path, 0700))
			_exit(3);
		if (i % 3 == 0 && (rmdir(path) || journal_forget(id)))
			_exit(4);
	}
	if (write(ready, "r", 1) != 1)
		_exit(5);
	pause();
	_exit(0);
}

/* `./cvmbench restore`, its exit status; the end of its output in @out. */
static int run_restore(char *out, size_t len)
{
	char cmd[PATH_MAX * 2], file[PATH_MAX + 16];
	int rc;
	FILE *f;
	size_t n = 0;

	snprintf(file, sizeof(file), "%s/restore.out", tmp);
	snprintf(cmd, sizeof(cmd), "./cvmbench restore > '%s' 2>&1", file);
	rc = system(cmd);
	f = fopen(file, "r");
	if (f && !fseek(f, -(long)(len / 2), SEEK_END))
		n = fread(out, 1, len - 1, f);
	else if (f)
		n = fread(out, 1, len - 1, f);
	if (f)
		fclose(f);
	out[n] = '\0';
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int count_bad(const char *tree, int n, int *dirs_left)
{
	char path[PATH_MAX + 64], want[16], got[64];
	int i, bad = 0;

	*dirs_left = 0;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%d", tree, i);
		snprintf(want, sizeof(want), "a%07d", i);
		bad += read_file(path, got, sizeof(got)) != 8 || strcmp(got, want);
		snprintf(path, sizeof(path), "%s/oci/r%d", state, i);
		*dirs_left += !access(path, F_OK);
	}
	return bad;
}

/* Issue 9 item 1: 50 000 changes and 50 000 objects, kill -9, restore. */
static void test_kill_restore(void)
{
	char tree[PATH_MAX + 8], path[PATH_MAX + 64], out[65536], want[64];
	int i, pipefd[2], left, bad, rc;
	long long t0;
	pid_t pid;
	char c;

	if (access("./cvmbench", X_OK)) {
		for (i = 0; i < 6; i++)
			printf("ok %d # SKIP ./cvmbench is not built\n", ++tap_count);
		return;
	}
	snprintf(tree, sizeof(tree), "%s/tree", tmp);
	mkdir(tree, 0700);
	for (i = 0; i < N_KILL; i++) {
		snprintf(path, sizeof(path), "%s/f%d", tree, i);
		snprintf(want, sizeof(want), "a%07d", i);
		write_file(path, want);
	}
	snprintf(path, sizeof(path), "%s/oci", state);
	mkdir(path, 0700);
	if (pipe(pipefd))
		return;
	pid = fork();
	if (pid == 0)
		kill_child(tree, N_KILL, pipefd[1]);
	close(pipefd[1]);
	tap_ok(read(pipefd[0], &c, 1) == 1, "the child journalled %d changes and %d objects",
	       N_KILL, N_KILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	bad = count_bad(tree, N_KILL, &left);
	tap_ok(bad == N_KILL && left == N_KILL - (N_KILL + 2) / 3,
	       "after kill -9: %d files changed, %d trees left", bad, left);
	t0 = now_us();
	rc = run_restore(out, sizeof(out));
	printf("# cvmbench restore took %.2f s\n", (now_us() - t0) / 1e6);
	tap_ok(rc == 0, "cvmbench restore exits 0 (status %d)", rc);
	snprintf(want, sizeof(want), "%d entries restored",
		 N_KILL + N_KILL - (N_KILL + 2) / 3);
	tap_contains(out, want, "restore undid every open entry");
	bad = count_bad(tree, N_KILL, &left);
	tap_ok(bad == 0 && left == 0, "every file is back byte for byte (%d differ), every "
	       "tree removed (%d left)", bad, left);
	snprintf(path, sizeof(path), "%s/journal", state);
	tap_ok(read_file(path, out, sizeof(out)) == 0, "the journal is empty");
}

/*
 * fork_holder() - a child that takes the host lock, holds it @hold_us, then
 * lets go (@unlock: as a run does; else as a killed run, leaving its file).
 * Returns its pid once it holds the lock, or -1.
 */
static pid_t fork_holder(long hold_us, int unlock)
{
	char err[512], c;
	int pipefd[2], got;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (journal_lock_host(0, err, sizeof(err)) || write(pipefd[1], "l", 1) != 1)
			_exit(1);
		usleep((useconds_t)hold_us);
		if (unlock)
			journal_unlock_host();
		_exit(0);
	}
	close(pipefd[1]);
	got = read(pipefd[0], &c, 1) == 1;
	close(pipefd[0]);
	return got ? pid : -1;
}

/* Issue 9 item 3: the host lock is exclusive, names its holder, can be waited for. */
static void test_host_lock(void)
{
	char err[512], pidstr[32];
	int ret;
	long long t0;
	pid_t pid = fork_holder(1200000, 0);

	tap_ok(pid > 0, "a child holds the host lock");
	ret = journal_lock_host(0, err, sizeof(err));
	snprintf(pidstr, sizeof(pidstr), "pid %d", (int)pid);
	tap_ok(ret == -EBUSY, "a second taker is refused");
	tap_contains(err, pidstr, "the refusal names the holder's PID");
	tap_ok(test_journal_reopen() == -EBUSY, "journal_open is refused too");
	t0 = now_us();
	ret = journal_lock_host(0.3, err, sizeof(err));
	tap_ok(ret == -EBUSY && now_us() - t0 >= 300000, "waiting 0.3 s, then refused");
	ret = journal_lock_host(5, err, sizeof(err));
	tap_ok(ret == 0, "waiting long enough gets it when the holder ends");
	journal_unlock_host();
	waitpid(pid, NULL, 0);
	tap_ok(access(getenv("CVMBENCH_TEST_HOST_LOCK"), F_OK) && errno == ENOENT,
	       "the lock file is gone once its holder lets go (a killed holder's is "
	       "removed by the next taker)");
}

/*
 * Another process tries the lock file the path names, as a new taker opens
 * it: 0 if it could lock it, 1 if refused. (A fork of this process would
 * share its journal state, so the file is opened anew here.)
 */
static int other_takes_lock(void)
{
	int status, fd;
	pid_t pid = fork();

	if (pid == 0) {
		fd = open(getenv("CVMBENCH_TEST_HOST_LOCK"), O_RDWR | O_CREAT, 0644);
		_exit(fd >= 0 && !flock(fd, LOCK_EX | LOCK_NB) ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * The holder removes the lock file as it lets go. A taker that was waiting on
 * the removed file must lock the path anew, or a third taker would lock a new
 * file beside it and both would hold "the" lock.
 */
static void test_host_lock_handover(void)
{
	char err[512];
	int ret;
	pid_t pid = fork_holder(300000, 1);

	tap_ok(pid > 0, "a child holds the host lock, then lets go");
	ret = journal_lock_host(5, err, sizeof(err));
	waitpid(pid, NULL, 0);
	tap_ok(ret == 0 && other_takes_lock() == 1, "the waiter holds the lock on the file "
	       "the path names: a third taker is refused");
	journal_unlock_host();
	tap_ok(other_takes_lock() == 0, "and gets it once the waiter lets go");
}

/* A line cut by a crash is dropped; an unknown kind stays in the journal. */
static void test_cut_and_unknown(void)
{
	char path[PATH_MAX + 16], buf[256];
	int failed = -1, undone;

	snprintf(path, sizeof(path), "%s/journal", state);
	write_file(path, "obj 3 no-such-kind 6162\nnot a journal line\nobj 4 test-record 6364\n"
		   "obj 5 test-re");
	undone_count = 0;
	tap_ok(test_journal_reopen() == 0 && journal_open_entries() == 2, "a cut last line is dropped");
	tap_ok(journal_object("no-such-kind", "x") == -EINVAL, "an unregistered kind is refused");
	tap_ok(journal_kind_register(&kind_test) == -EEXIST, "a kind registers once");
	undone = journal_restore_all(NULL, &failed);
	tap_ok(undone == 1 && failed == 2 && undone_count == 1 &&
	       !strcmp(undone_name, "cd"), "restore undoes the known kind, counts the unknown "
	       "kind and the unreadable line (%d)", failed);
	tap_ok(journal_open_entries() == 1, "the unknown kind stays open");
	journal_close();
	read_file(path, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "obj 3 no-such-kind 6162\nnot a journal line\n"
		       "obj 4 test-record 6364\ndone 4\n"),
	       "the file keeps both, the cut line is gone");
	write_file(path, "");
}

/* An undo that fails keeps its entry: the next restore tries again (review B2). */
static void test_failed_undo_kept(void)
{
	long id = 0, keep = 0;
	int failed = -1;

	tap_ok(test_journal_reopen() == 0 && (id = journal_object("test-failing", "x")) > 0 &&
	       (keep = journal_object("test-record", "run")) > 0, "two entries journalled");
	tap_ok(journal_undo(id) == -EBUSY && journal_open_entries() == 2,
	       "journal_undo of a failing undo returns its error and keeps the entry");
	undone_count = 0;
	tap_ok(journal_restore_all_but(keep, NULL, &failed) == 0 && failed == 1 &&
	       journal_open_entries() == 2 && undone_count == 0,
	       "restore_all_but: the failed entry stays, the kept one is not undone");
	journal_close();
	fail_undo = 0;
	tap_ok(test_journal_reopen() == 0 && journal_open_entries() == 2 &&
	       journal_restore_all(NULL, &failed) == 2 && failed == 0 &&
	       journal_open_entries() == 0, "after a reopen, restore undoes both once the "
	       "fault is gone");
	journal_close();
}

/*
 * journal_undo_or_warn() of @ids[0] (@n 1) or journal_undo_each_or_warn()
 * of @ids (@n > 1) as "test-knob", with stderr caught in @err.
 */
static int undo_caught(long *ids, size_t n, char *err, size_t len)
{
	char path[PATH_MAX];
	int saved, fd, ret;

	snprintf(path, sizeof(path), "%s/stderr", tmp);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (saved < 0 || fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		return -EIO;
	close(fd);
	ret = n > 1 ? journal_undo_each_or_warn(ids, n, "test-knob") :
		journal_undo_or_warn(ids, "test-knob");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	read_file(path, err, len);
	return ret;
}

static int count_of(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

/*
 * A setting whose file cannot be written back (a directory now stands in
 * its place): one warning, -EISDIR, the entry left for restore; once the
 * file is back, the undo writes the old value and closes the entry.
 */
static void test_undo_or_warn(void)
{
	char path[PATH_MAX], err[4096], want[2 * PATH_MAX], buf[64];
	long id = 0, x;
	int ret;

	snprintf(path, sizeof(path), "%s/knob-file", tmp);
	write_file(path, "old");
	tap_ok(test_journal_reopen() == 0 && (id = journal_set(path, "new")) > 0 &&
	       journal_open_entries() == 1, "a setting journalled");
	unlink(path);
	mkdir(path, 0700);
	x = id;
	ret = undo_caught(&x, 1, err, sizeof(err));
	snprintf(want, sizeof(want), "warning: test-knob: cannot undo journal entry %ld (set "
		 "%s, in %s): %s; cvmbench restore retries\n", id, path, journal_path(),
		 strerror(EISDIR));
	tap_ok(ret == -EISDIR && x == 0, "undo_or_warn returns the undo's error (%d) and "
	       "clears the id", ret);
	tap_ok(count_of(err, "cannot undo") == 1, "one warning on stderr");
	tap_contains(err, want, "it names who, the entry, its kind and path, the journal, "
		     "the reason and the retry");
	tap_ok(journal_open_entries() == 1 && journal_undo(id) == -EISDIR,
	       "the entry stays open for restore");
	rmdir(path);
	write_file(path, "new");
	x = id;
	ret = undo_caught(&x, 1, err, sizeof(err));
	read_file(path, buf, sizeof(buf));
	tap_ok(ret == 0 && x == 0 && !err[0] && journal_open_entries() == 0 &&
	       !strcmp(buf, "old"), "a successful undo writes the old value back, says "
	       "nothing, and closes the entry ('%s')", err);
	journal_close();
}

/* Several entries, newest first: the failing one is said and kept, the other undone. */
static void test_undo_each_or_warn(void)
{
	char err[4096], want[256];
	long ids[2] = { 0, 0 }, failing;
	int ret;

	fail_undo = 1;
	undone_count = 0;
	tap_ok(test_journal_reopen() == 0 && (ids[0] = journal_object("test-failing", "a")) > 0 &&
	       (ids[1] = journal_object("test-record", "b")) > 0, "two objects journalled");
	failing = ids[0];
	ret = undo_caught(ids, 2, err, sizeof(err));
	snprintf(want, sizeof(want), "test-knob: cannot undo journal entry %ld (test-failing "
		 "a, in ", failing);
	tap_ok(ret == -EBUSY && !ids[0] && !ids[1] && undone_count == 1 &&
	       !strcmp(undone_name, "b") && journal_open_entries() == 1,
	       "undo_each_or_warn undoes the one, keeps the failing one, returns -EBUSY (%d)", ret);
	tap_ok(count_of(err, "cannot undo") == 1, "one warning on stderr");
	tap_contains(err, want, "naming the failing object");
	fail_undo = 0;
	journal_close();
}

static void bench_fill(const char *tree, int n, long *ids)
{
	char path[PATH_MAX + 64], val[16];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%d", tree, i);
		snprintf(val, sizeof(val), "a%07d", i);
		write_file(path, val);
		snprintf(val, sizeof(val), "b%07d", i);
		ids[2 * i] = journal_set(path, val);
		ids[2 * i + 1] = journal_object("test-record", path);
	}
}

/* N changes + N objects: fill, reopen, undo each by id (shuffled), fill, restore all. */
static int bench(int n)
{
	char tree[PATH_MAX + 8];
	long *ids = calloc(2 * (size_t)n, sizeof(*ids)), t, x;
	long long t0, t1, t2, t3, t4;
	int i, j;

	snprintf(tree, sizeof(tree), "%s/tree", tmp);
	mkdir(tree, 0700);
	if (!ids || test_journal_reopen())
		return 1;
	t0 = now_us();
	bench_fill(tree, n, ids);
	t1 = now_us();
	journal_close();
	test_journal_reopen();
	t2 = now_us();
	srand(1);
	for (i = 2 * n - 1; i > 0; i--) {
		j = rand() % (i + 1);
		t = ids[i], ids[i] = ids[j], ids[j] = t;
	}
	for (i = 0, x = 0; i < 2 * n; i++)
		x += journal_undo(ids[i]) == 0;
	t3 = now_us();
	bench_fill(tree, n, ids);
	t4 = now_us();
	i = journal_restore_all(NULL, NULL);
	printf("entries %d fill_s %.3f reopen_s %.3f undo_each_s %.3f restore_all_s %.3f "
	       "undone %ld+%d\n", 2 * n, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6,
	       (now_us() - t4) / 1e6, x, i);
	journal_close();
	free(ids);
	return 0;
}

static void setup(void)
{
	const char *base = getenv("JOURNAL_BENCH_DIR");
	char lock[PATH_MAX + 16];

	if (!base || !*base)
		base = access("/dev/shm", W_OK) ? getenv("TMPDIR") : "/dev/shm";

	snprintf(tmp, sizeof(tmp), "%s/cvmbench-journal-XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(tmp)) {
		perror(tmp);
		exit(1);
	}
	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(lock, sizeof(lock), "%s/host.lock", tmp);
	setenv("CVMBENCH_STATE_DIR", state, 1);
	setenv("CVMBENCH_TEST_HOST_LOCK", lock, 1);
	journal_kind_register(&kind_test);
	journal_kind_register(&kind_failing);
}

int main(int argc, char **argv)
{
	char cmd[PATH_MAX + 16];
	int ret = 0;

	setup();
	if (!getcwd(cwd, sizeof(cwd)))
		return 1;
	if (argc == 3 && !strcmp(argv[1], "bench")) {
		ret = bench(atoi(argv[2]));
	} else {
		tap_plan(60);
		test_exact_names();
		test_state_dir_mode();
		test_unsafe_state_dir();
		test_long_state_dir();
		test_outside();
		test_kill_restore();
		test_host_lock();
		test_host_lock_handover();
		test_cut_and_unknown();
		test_failed_undo_kept();
		test_undo_or_warn();
		test_undo_each_or_warn();
		ret = tap_done();
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) ? 1 : ret;
}
