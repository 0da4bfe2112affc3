// SPDX-License-Identifier: MIT
/*
 * journal.c - an append-only text file of changes and their undoing:
 *
 *   set ID PATH OLD-VALUE     (value hex-encoded, so any bytes survive)
 *   proc ID PID STARTTIME     (starttime from /proc/PID/stat: no pid reuse)
 *   obj ID KIND NAME          (an object cvmbench created; NAME hex-encoded)
 *   done ID
 *
 * When every entry is done the file is truncated.
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
#include "log.h"
#include "sysfs.h"
#include "oci-host.h"

#define MAX_ENTRIES 4096

struct entry {
	long id;
	char kind;                /* 's' setting, 'p' process, 'o' object */
	char path[PATH_MAX];
	char value[512];          /* old value, decoded */
	long long pid, starttime;
	int done;
};

static int journal_fd = -1;
static char journal_file[PATH_MAX];
static long next_id = 1;
static struct entry entries[MAX_ENTRIES];   /* parsed by load_entries() */

static int state_dir(char *buf, size_t len)
{
	const char *env = getenv("CVMBENCH_STATE_DIR"), *home = getenv("HOME");

	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (geteuid() == 0)
		snprintf(buf, len, "/var/lib/cvmbench");
	else
		snprintf(buf, len, "%s/.local/state/cvmbench", home ? home : "/tmp");
	return 0;
}

static int mkdir_p(const char *dir)
{
	char tmp[PATH_MAX], *p;

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(tmp, 0755) && errno != EEXIST ? -errno : 0;
}

const char *journal_path(void)
{
	return journal_file;
}

int journal_open(char *err, size_t errlen)
{
	char dir[PATH_MAX - 16];
	int ret;

	if (journal_fd >= 0)
		return 0;
	state_dir(dir, sizeof(dir));
	ret = mkdir_p(dir);
	snprintf(journal_file, sizeof(journal_file), "%s/journal", dir);
	if (ret) {
		snprintf(err, errlen, "cannot create state directory %s: %s", dir,
			 strerror(-ret));
		return ret;
	}
	journal_fd = open(journal_file, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (journal_fd < 0) {
		snprintf(err, errlen, "cannot open journal %s: %s", journal_file,
			 strerror(errno));
		return -errno;
	}
	if (flock(journal_fd, LOCK_EX | LOCK_NB)) {
		snprintf(err, errlen, "journal %s is held by another running cvmbench",
			 journal_file);
		close(journal_fd);
		journal_fd = -1;
		return -EBUSY;
	}
	return 0;
}

void journal_close(void)
{
	if (journal_fd >= 0)
		close(journal_fd);
	journal_fd = -1;
}

static int append(const char *line)
{
	size_t len = strlen(line);

	if (journal_fd < 0)
		return -EBADF;
	if (write(journal_fd, line, len) != (ssize_t)len)
		return -EIO;
	return fdatasync(journal_fd) ? -errno : 0;
}

static void hex_encode(const char *s, char *out, size_t len)
{
	size_t i;

	out[0] = '-';             /* "-" stands for the empty value */
	out[1] = '\0';
	for (i = 0; s[i] && 2 * i + 2 < len; i++)
		sprintf(out + 2 * i, "%02x", (unsigned char)s[i]);
}

static void hex_decode(const char *hex, char *out, size_t len)
{
	size_t i;
	unsigned int b;

	for (i = 0; hex[2 * i] && hex[2 * i + 1] && i + 1 < len; i++) {
		sscanf(hex + 2 * i, "%2x", &b);
		out[i] = (char)b;
	}
	out[i] = '\0';
}

long journal_set(const char *path, const char *value)
{
	char old[512], hex[1040], line[PATH_MAX + 1100];
	long id = next_id++;
	int ret = sysfs_read_line(path, old, sizeof(old));

	if (ret < 0)
		return ret;
	hex_encode(old, hex, sizeof(hex));
	snprintf(line, sizeof(line), "set %ld %s %s\n", id, path, hex);
	ret = append(line);
	if (ret)
		return ret;
	ret = sysfs_write(path, value);
	if (ret) {
		journal_forget(id);
		return ret;
	}
	return id;
}

static long long process_starttime(long long pid)
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
	char line[128];
	long id = next_id++;
	int ret;

	snprintf(line, sizeof(line), "proc %ld %d %lld\n", id, (int)pid,
		 process_starttime(pid));
	ret = append(line);
	return ret ? ret : id;
}

long journal_object(const char *kind, const char *name)
{
	char hex[2 * PATH_MAX + 2], line[3 * PATH_MAX];
	long id = next_id++;
	int ret;

	hex_encode(name, hex, sizeof(hex));
	snprintf(line, sizeof(line), "obj %ld %.63s %s\n", id, kind, hex);
	ret = append(line);
	return ret ? ret : id;
}

void journal_forget(long id)
{
	char line[64];

	if (id <= 0)
		return;
	snprintf(line, sizeof(line), "done %ld\n", id);
	append(line);
}

/* Parse the journal into @e (up to MAX_ENTRIES); returns the count. */
static int load_entries(struct entry *e)
{
	char line[PATH_MAX + 1200], hex[1100];
	FILE *f = fopen(journal_file, "re");
	int n = 0, i;
	long id;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < MAX_ENTRIES) {
		struct entry *x = &e[n];

		memset(x, 0, sizeof(*x));
		if (sscanf(line, "set %ld %4095s %1099s", &x->id, x->path, hex) == 3) {
			x->kind = 's';
			hex_decode(strcmp(hex, "-") ? hex : "", x->value, sizeof(x->value));
			n++;
		} else if (sscanf(line, "proc %ld %lld %lld", &x->id, &x->pid,
				  &x->starttime) == 3) {
			x->kind = 'p';
			n++;
		} else if (sscanf(line, "obj %ld %63s %1099s", &x->id, x->value, hex) == 3) {
			x->kind = 'o';
			hex_decode(hex, x->path, sizeof(x->path));
			n++;
		} else if (sscanf(line, "done %ld", &id) == 1) {
			for (i = 0; i < n; i++)
				if (e[i].id == id)
					e[i].done = 1;
		}
	}
	fclose(f);
	for (i = 0; i < n; i++)
		if (e[i].id >= next_id)
			next_id = e[i].id + 1;
	return n;
}

static int undo_object(const struct entry *x, FILE *report)
{
	int ret = -EINVAL;

	if (!strcmp(x->value, "tracefs-instance"))
		ret = rmdir(x->path) && errno != ENOENT ? -errno : 0;
	else if (!strncmp(x->value, "oci-", 4))
		ret = oci_object_undo(x->value, x->path);
	if (report)
		fprintf(report, "removed %s %s%s%s\n", x->value, x->path,
			ret ? ": " : "", ret ? strerror(-ret) : "");
	return ret;
}

static int undo_entry(const struct entry *x, FILE *report)
{
	int ret = 0;

	if (x->kind == 's') {
		ret = sysfs_write(x->path, x->value);
		if (report)
			fprintf(report, "restored %s = %s%s%s\n", x->path, x->value,
				ret ? ": " : "", ret ? strerror(-ret) : "");
		return ret;
	}
	if (x->kind == 'o')
		return undo_object(x, report);
	if (x->starttime >= 0 && process_starttime(x->pid) == x->starttime) {
		kill((pid_t)x->pid, SIGKILL);
		waitpid((pid_t)x->pid, NULL, WNOHANG);
		if (report)
			fprintf(report, "ended leftover process %lld\n", x->pid);
	}
	return 0;
}

int journal_undo(long id)
{
	struct entry *e = entries;
	int n = load_entries(e), i, ret = -ENOENT;

	for (i = n - 1; i >= 0; i--)
		if (e[i].id == id && !e[i].done) {
			ret = undo_entry(&e[i], NULL);
			journal_forget(id);
			break;
		}
	return ret;
}

int journal_restore_all(FILE *report)
{
	struct entry *e = entries;
	int n = load_entries(e), i, undone = 0;

	for (i = n - 1; i >= 0; i--) {
		if (e[i].done)
			continue;
		undo_entry(&e[i], report);
		journal_forget(e[i].id);
		undone++;
	}
	if (journal_fd >= 0 && ftruncate(journal_fd, 0) == 0)
		next_id = 1;
	return undone;
}
