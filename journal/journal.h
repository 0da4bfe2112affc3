/* SPDX-License-Identifier: MIT */
/*
 * journal.h - the one record of what cvmbench changed or created on this
 * machine: host settings (with their old values), processes, and objects
 * of kinds their owning modules register with an undo function
 * (containers, rootfs trees, cgroups, mounts, tracefs instances, runs in a
 * database...). An entry is written and fsync'd *before* the change;
 * restore undoes the open entries newest first - at the end of a run,
 * after Ctrl-C, and after a crash at the next start of cvmbench or with
 * `cvmbench restore`. There is no limit on the number of entries.
 *
 * The journal lives in the state directory (state-dir.h). One machine-wide
 * lock, owned by the journal, serialises every change of host settings
 * (cpuidle, KSM, THP, halt polling, cgroup mounts) between runs, whatever
 * their state directories.
 */
#ifndef CVMBENCH_JOURNAL_H
#define CVMBENCH_JOURNAL_H

#include <stdio.h>
#include <sys/types.h>

#define JOURNAL_CHECK __attribute__((warn_unused_result))

/*
 * The machine-wide lock; CVMBENCH_TEST_HOST_LOCK replaces it in tests only,
 * CVMBENCH_TEST_WAIT_LOCK (seconds) makes every taker wait at least that long.
 */
#define JOURNAL_HOST_LOCK "/run/cvmbench.lock"
/* The idle knob's lock of versions before it (removed when found empty). */
#define JOURNAL_LEGACY_IDLE_LOCK "/run/cvmbench-idle.lock"

/**
 * journal_lock_host() - take the machine-wide host-settings lock, waiting
 * up to @wait_s seconds (0: do not wait). Idempotent. The holder's PID is
 * written into the lock file. Returns 0; -EBUSY with @err naming the
 * holder's PID when another process holds it; -EINTR when a stop was
 * asked while waiting (runner_stop); or -errno.
 */
int journal_lock_host(double wait_s, char *err, size_t errlen) JOURNAL_CHECK;
/** journal_unlock_host() - release the host lock (journal_close() does too). */
void journal_unlock_host(void);

/**
 * journal_open() - take the host lock (if not held yet, without waiting),
 * create the state directory (0700), open and lock the journal, and read
 * its open entries. Returns 0, -EBUSY, -EPERM (a state directory others
 * could write into, state_dir_open()), or -errno (message in @err).
 */
int journal_open(char *err, size_t errlen) JOURNAL_CHECK;
/** journal_close() - close the journal and release the host lock. */
void journal_close(void);
/** journal_path() - where the journal is (for messages). */
const char *journal_path(void);

/**
 * struct journal_kind - a kind of object and how to remove one.
 * @kind: its name, [a-z0-9-] only (e.g. "oci-rootfs")
 * @undo: remove the object called @name; 0 or -errno (-ENOENT: already gone)
 */
struct journal_kind {
	const char *kind;
	int (*undo)(const char *name);
};

/**
 * journal_kind_register() - make @k known to the journal. The module that
 * creates objects of a kind registers it (JOURNAL_KIND_REGISTER), so that
 * restore can undo them in any command. Returns 0, -EINVAL, -EEXIST.
 */
int journal_kind_register(const struct journal_kind *k);

/* Register @var (a struct journal_kind) when the program starts. */
#define JOURNAL_KIND_REGISTER(var) \
	static void __attribute__((constructor)) var##_register(void) \
	{ \
		if (journal_kind_register(&var)) \
			fprintf(stderr, "cvmbench: journal kind %s registered twice\n", \
				var.kind); \
	}

/**
 * journal_set() - write @value to the file @path (a sysfs or module
 * parameter), journalling its current value first. Returns an entry id
 * (> 0) or -errno; nothing is written when the journal cannot be.
 */
long journal_set(const char *path, const char *value) JOURNAL_CHECK;
/**
 * journal_set_old() - journal_set() for a file whose read-back is not what
 * restores it (THP's "always [madvise] never" is restored by writing
 * "madvise"): @old is journalled as the value to write back. Same returns.
 */
long journal_set_old(const char *path, const char *old, const char *value) JOURNAL_CHECK;
/** journal_process() - record a process cvmbench started. Returns an id or -errno. */
long journal_process(pid_t pid) JOURNAL_CHECK;
/**
 * journal_object() - record an object cvmbench is about to create, so that
 * restore removes it if the run dies. @kind must be registered; @name is
 * any string (stored escaped, read back exactly). Returns an id or -errno:
 * the caller must not create the object then.
 */
long journal_object(const char *kind, const char *name) JOURNAL_CHECK;
/**
 * journal_tmpdir() - make a fresh directory "$TMPDIR/cvmbench-@tag-PID-N"
 * (/tmp where TMPDIR is unset, or @tmpdir_max long or longer: a socket path
 * has 108 bytes) into @dir, journalled as @kind before it is made, when a
 * journal is open. *@id is its entry (0 without a journal), set also when
 * mkdir then fails: the caller closes it. Returns 0 or -errno.
 */
int journal_tmpdir(const char *kind, const char *tag, size_t tmpdir_max, char *dir,
		   size_t len, long *id);
/**
 * journal_undo() - undo one open entry now. Returns its undo's result, or
 * -ENOENT. An entry whose undo failed stays open (restore tries it again).
 */
int journal_undo(long id) JOURNAL_CHECK;
/**
 * journal_undo_or_warn() - undo entry *@id now (nothing when *@id <= 0) and
 * set *@id to 0, for a knob's or backend's end of a cell. A failed undo is
 * said once on stderr - @who (the knob or backend), the entry's id, what it
 * records (its kind and path or name), the journal, the reason, and that
 * `cvmbench restore` retries - and its entry stays open for restore.
 * Returns 0 or the undo's -errno (-ENOENT: no such open entry).
 */
int journal_undo_or_warn(long *id, const char *who);
/**
 * journal_undo_each_or_warn() - journal_undo_or_warn() on each of the @n
 * entries @ids, newest (last) first, clearing each. Returns 0 or the first
 * -errno; every entry is tried.
 */
int journal_undo_each_or_warn(long *ids, size_t n, const char *who);
/**
 * journal_forget() - the entry needs no undoing any more (the object was
 * removed, the process reaped). Returns 0 or -errno (ids <= 0 are ignored).
 */
int journal_forget(long id) JOURNAL_CHECK;
/** journal_open_entries() - how many entries are open (for tests and messages). */
size_t journal_open_entries(void);

/**
 * journal_restore_all() - undo every open entry, newest first; report each
 * on @report (NULL: quiet). Entries whose undo failed, and entries of a kind
 * nobody registered, stay in the journal for the next try. Returns the
 * number undone, or -errno; *@failed (if not NULL) gets the number whose
 * undo failed or could not be tried.
 */
int journal_restore_all(FILE *report, int *failed);
/** journal_restore_all_but() - journal_restore_all() leaving entry @keep open. */
int journal_restore_all_but(long keep, FILE *report, int *failed);

#endif
