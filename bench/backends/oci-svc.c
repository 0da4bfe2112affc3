// SPDX-License-Identifier: MIT
/*
 * oci-svc.c - a service cell (the system suite, bench/services/) on runc or
 * crun: one container per cell, whose process is cvmbench-agent --stdio
 * (bench/agent/guest/agent-main.c) speaking the guest's `svc` lines
 * (svc-wire.h) on its stdin and stdout, so the server and every window's
 * load generator run inside the container, on its own loopback (the new
 * network namespace the runtime makes and brings lo up in), from the
 * `system` root filesystem the guests use (a read-only directory tree).
 *
 * What prepare() adds for such a cell: the static cvmbench-agent and cvmload
 * (from beside cvmbench) in the cell's /data, and the service's directory
 * $TMPDIR/cvmbench-svc-PID-N (journal kind svc-dir, as natively), bound
 * read-write on /mnt: everything the service writes is there, on the
 * host's disk, never on the container's tmpfs (fio and PostgreSQL: a tmpfs
 * TMPDIR is a skip naming it, from the agent's check inside).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file-copy.h"
#include "journal.h"
#include "oci-host.h"
#include "paths.h"

/* Copy cvmbench-agent and cvmload into the cell's /data. */
static int programs(const struct oci_cell *oc, char *err, size_t errlen)
{
	static const char *const names[] = { "cvmbench-agent", "cvmload" };
	char from[PATH_MAX], to[PATH_MAX + 64];
	size_t i;
	int ret;

	for (i = 0; i < 2; i++) {
		if (exe_beside(names[i], from, sizeof(from)))
			continue;     /* cvmload: only nginx-open needs it (svc_ct_runnable()) */
		snprintf(to, sizeof(to), "%s/data/%s", oc->rootfs, names[i]);
		ret = link(from, to) ? file_copy(from, to, 0755) : 0;
		if (ret) {
			snprintf(err, errlen, "cannot copy %s into %s: %s", from, to,
				 strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/*
 * A tmpfs TMPDIR: the agent's own check (svc-proc.c) finds the tmpfs under
 * /mnt and refuses fio and PostgreSQL there, a skip naming TMPDIR.
 */
int oci_svc_prepare(struct oci_cell *oc, char *err, size_t errlen)
{
	int ret = programs(oc, err, errlen);

	if (ret)
		return ret;
	ret = journal_tmpdir("svc-dir", "svc", 200, oc->svc_dir, sizeof(oc->svc_dir),
			     &oc->svc_dir_id);
	/* searchable by the container's postgres user (its files are its own) */
	if (!ret && chmod(oc->svc_dir, 0711))
		ret = -errno;
	if (ret)
		snprintf(err, errlen, "the service's directory %s: %s", oc->svc_dir,
			 strerror(-ret));
	return ret;
}
