/* SPDX-License-Identifier: MIT */
/*
 * journal.h - the one record of what cvmbench changed or created on this
 * machine: host settings (with their old values) and objects (processes,
 * and later containers, cgroups, tracefs instances, ...). An entry is
 * written and fsync'd *before* the change; restore undoes the open entries
 * in reverse order - at the end of a run, after Ctrl-C, and after a crash
 * at the next start of cvmbench or with `cvmbench restore`.
 *
 * The journal lives in $CVMBENCH_STATE_DIR, else /var/lib/cvmbench (root)
 * or $HOME/.local/state/cvmbench. A run holds an exclusive flock on it.
 */
#ifndef CVMBENCH_JOURNAL_H
#define CVMBENCH_JOURNAL_H

#include <stdio.h>
#include <sys/types.h>

/** journal_open() - open and lock the journal; -EBUSY if a live run holds it. */
int journal_open(char *err, size_t errlen);
void journal_close(void);
/** journal_path() - where the journal is (for messages). */
const char *journal_path(void);

/**
 * journal_set() - write @value to the file @path (a sysfs or module
 * parameter), journalling its current value first. Returns an entry id
 * (> 0) or -errno.
 */
long journal_set(const char *path, const char *value);
/** journal_process() - record a process cvmbench started. Returns an id. */
long journal_process(pid_t pid);
/**
 * journal_object() - record an object cvmbench is about to create, so that
 * restore removes it if the run dies: @kind "tracefs-instance" with @name
 * its directory (restore removes it with rmdir); "oci-*" kinds (containers,
 * rootfs and bundles, cgroups, network namespaces, mount options) are undone
 * by oci_object_undo() (oci-host.h). Returns an id or -errno.
 */
long journal_object(const char *kind, const char *name);
/** journal_undo() - undo one entry now (restore the value / end the process). */
int journal_undo(long id);
/** journal_forget() - the entry needs no undoing any more (process reaped). */
void journal_forget(long id);

/**
 * journal_restore_all() - undo every open entry, newest first; report each
 * on @report (NULL: quiet). Returns the number undone, or -errno.
 */
int journal_restore_all(FILE *report);

#endif
