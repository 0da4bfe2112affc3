// SPDX-License-Identifier: MIT
/*
 * journal.c - an append-only text file of changes and their undoing, and
 * an in-memory index of the entries still open:
 *
 *   set ID PATH OLD-VALUE     (both hex-encoded, "-" is the empty string)
 *   proc ID PID STARTTIME     (starttime from /proc/PID/stat: no pid reuse)
 *   obj ID KIND NAME          (an object cvmbench created; NAME hex-encoded)
 *   done ID
 *
 * An entry line is fsync'd before the change it records; a "done" line is
 * only written (a kill -9 cannot lose it; a machine crash can, and then
 * restore undoes the entry once more, which every undo tolerates). The
 * index is sorted by id (ids only grow), so finding an entry is a binary
 * search; closed entries are dropped from it once they are half of it,
 * and the file is rewritten with only the open entries once it holds more
 * than twice as many lines: both cost O(1) amortized per entry. The file
 * is emptied when no entry is open. Lines are read back whole, of any
 * length; a last line cut by a crash (its change was never made) is cut off.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "journal.h"
#include "journal-local.h"
#include "log.h"
#include "state-dir.h"
#include "sysfs.h"

struct journal_state J = { .fd = -1, .dir_fd = -1, .next_id = 1 };

static const struct journal_kind **kinds;
static size_t nkinds;

const char *journal_path(void)
{
	return J.file;
}

size_t journal_open_entries(void)
{
	return J.n - J.ndone;
}

static int kind_name_ok(const char *s)
{
	if (!s || !*s || strlen(s) > 63)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return 0;
	return 1;
}

const struct journal_kind *journal_kind_find(const char *kind)
{
	size_t i;

	for (i = 0; i < nkinds; i++)
		if (!strcmp(kinds[i]->kind, kind))
			return kinds[i];
	return NULL;
}

int journal_kind_register(const struct journal_kind *k)
{
	const struct journal_kind **v;

	if (!k || !kind_name_ok(k->kind) || !k->undo)
		return -EINVAL;
	if (journal_kind_find(k->kind))
		return -EEXIST;
	v = realloc(kinds, (nkinds + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	kinds = v;
	kinds[nkinds++] = k;
	return 0;
}

static int open_file(char *err, size_t errlen)
{
	J.fd = open(J.file, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (J.fd < 0) {
		snprintf(err, errlen, "cannot open journal %s: %s", J.file, strerror(errno));
		return -errno;
	}
	return 0;
}

/* Create, open and flock the state directory (one run per directory). */
static int open_dir(const char *dir, char *err, size_t errlen)
{
	int ret = state_dir_create(dir);

	if (ret) {
		snprintf(err, errlen, "cannot create state directory %s: %s", dir,
			 strerror(-ret));
		return ret;
	}
	J.dir_fd = state_dir_open(dir, err, errlen);
	if (J.dir_fd < 0) {
		ret = J.dir_fd;
		J.dir_fd = -1;
		return ret;
	}
	if (flock(J.dir_fd, LOCK_EX | LOCK_NB)) {
		snprintf(err, errlen, "state directory %s is held by another running "
			 "cvmbench", dir);
		close(J.dir_fd);
		J.dir_fd = -1;
		return -EBUSY;
	}
	return 0;
}

int journal_open(char *err, size_t errlen)
{
	char dir[PATH_MAX - 16];
	int ret;

	if (J.fd >= 0)
		return 0;
	ret = journal_lock_host(0, err, errlen);
	if (ret)
		return ret;
	state_dir_path(dir, sizeof(dir));
	snprintf(J.file, sizeof(J.file), "%s/journal", dir);
	ret = open_dir(dir, err, errlen);
	ret = ret ?: open_file(err, errlen);
	ret = ret ?: journal_load(err, errlen);
	if (ret)
		journal_close();
	return ret;
}

void journal_close(void)
{
	journal_index_free();
	J.unreadable = 0;
	if (J.fd >= 0)
		close(J.fd);
	if (J.dir_fd >= 0)
		close(J.dir_fd);
	J.fd = J.dir_fd = -1;
	journal_unlock_host();
}

long journal_set_old(const char *path, const char *old, const char *value)
{
	long id = journal_add('s', path, old, 0, 0);
	int ret;

	if (id < 0)
		return id;
	ret = sysfs_write(path, value);
	if (ret) {
		if (journal_forget(id))
			pr_warn("journal %s: cannot close entry %ld", J.file, id);
		return ret;
	}
	return id;
}

long journal_set(const char *path, const char *value)
{
	char old[4096];
	int ret = sysfs_read_line(path, old, sizeof(old));

	if (ret < 0)
		return ret;
	if ((size_t)ret >= sizeof(old) - 1)
		return -E2BIG;    /* would be restored cut */
	return journal_set_old(path, old, value);
}

long long journal_process_starttime(long long pid)
{
	char path[64], buf[1024], *p;
	long long start = -1;
	int i;

	snprintf(path, sizeof(path), "/proc/%lld/stat", pid);
	if (sysfs_read_line(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strrchr(buf, ')');
	for (i = 0; p && i < 20; i++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%lld", &start);
	return start;
}

long journal_process(pid_t pid)
{
	return journal_add('p', NULL, NULL, pid, journal_process_starttime(pid));
}

long journal_object(const char *kind, const char *name)
{
	if (!journal_kind_find(kind) || !name)
		return -EINVAL;
	return journal_add('o', kind, name, 0, 0);
}

static int undo_object(const struct journal_entry *x, FILE *report)
{
	const struct journal_kind *k = journal_kind_find(x->a);
	int ret = k ? k->undo(x->b) : -ENOPROTOOPT;

	if (ret == -ENOENT)
		ret = 0;          /* already gone */
	if (report)
		fprintf(report, "removed %s %s%s%s\n", x->a, x->b, ret ? ": " : "",
			!k ? "no module of this cvmbench knows this kind (left in the "
			"journal)" : ret ? strerror(-ret) : "");
	return ret;
}

/* Undo @x; -ENOPROTOOPT: an object of a kind nobody registered. */
static int undo_entry(const struct journal_entry *x, FILE *report)
{
	int ret = 0;

	if (x->type == 's') {
		ret = sysfs_write(x->a, x->b);
		if (report)
			fprintf(report, "restored %s = %s%s%s\n", x->a, x->b,
				ret ? ": " : "", ret ? strerror(-ret) : "");
		return ret;
	}
	if (x->type == 'o')
		return undo_object(x, report);
	if (x->starttime >= 0 && journal_process_starttime(x->pid) == x->starttime) {
		kill((pid_t)x->pid, SIGKILL);
		waitpid((pid_t)x->pid, NULL, WNOHANG);
		if (report)
			fprintf(report, "ended leftover process %lld\n", x->pid);
	}
	return 0;
}

int journal_undo(long id)
{
	ssize_t i = journal_find(id);
	int ret;

	if (i < 0)
		return -ENOENT;
	ret = undo_entry(&J.v[i], NULL);
	/* a failed undo stays open: the next run or `restore` tries again */
	if (!ret && journal_forget(id))
		pr_warn("journal %s: cannot close entry %ld", J.file, id);
	return ret;
}

int journal_restore_all_but(long keep, FILE *report, int *failed)
{
	ssize_t i;
	int undone = 0, bad = 0, ret;

	if (J.fd < 0)
		return -EBADF;
	J.hold = 1;               /* no compaction while walking the index */
	for (i = (ssize_t)J.n - 1; i >= 0; i--) {
		if (J.v[i].done || J.v[i].id == keep)
			continue;
		ret = undo_entry(&J.v[i], report);
		bad += ret != 0;
		if (ret)          /* kept: the next run or `restore` tries again */
			continue;
		if (journal_forget(J.v[i].id))
			pr_warn("journal %s: cannot close entry %ld", J.file, J.v[i].id);
		undone++;
	}
	J.hold = 0;
	ret = journal_compact();
	if (J.unreadable && report)
		fprintf(report, "kept %zu unreadable line(s) in %s\n", J.unreadable, J.file);
	if (failed)
		*failed = bad + (int)J.unreadable;
	return ret ? ret : undone;
}

int journal_restore_all(FILE *report, int *failed)
{
	return journal_restore_all_but(0, report, failed);
}
