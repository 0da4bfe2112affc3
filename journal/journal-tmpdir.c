// SPDX-License-Identifier: MIT
/*
 * journal-tmpdir.c - a private directory of cvmbench's in $TMPDIR (or
 * /tmp), journalled before it is made, for the files of a process it
 * starts (a VM's sockets and logs, the kv co-runner's data). The caller's
 * journal kind removes it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"

int journal_tmpdir(const char *kind, const char *tag, size_t tmpdir_max, char *dir,
		   size_t len, long *id)
{
	static unsigned int seq;
	const char *t = getenv("TMPDIR");
	long jid;

	*id = 0;
	do
		snprintf(dir, len, "%s/cvmbench-%s-%d-%u",
			 t && *t && strlen(t) < tmpdir_max ? t : "/tmp", tag, (int)getpid(),
			 seq++);
	while (!access(dir, F_OK));
	jid = journal_object(kind, dir);
	if (jid < 0 && jid != -EBADF)
		return (int)jid;
	*id = jid > 0 ? jid : 0;
	return mkdir(dir, 0700) ? -errno : 0;
}
