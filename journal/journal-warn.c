// SPDX-License-Identifier: MIT
/*
 * journal-warn.c - undoing an entry at the end of a cell, for the knobs
 * and backends: an undo that fails is not fatal there, it is said once
 * (who, which entry, what it records, why) and the entry stays open for
 * `cvmbench restore`.
 */
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "journal.h"
#include "journal-local.h"
#include "log.h"

/* What entry @id records, for a message: "set PATH", "KIND NAME", "process PID". */
static void describe(long id, char *buf, size_t len)
{
	ssize_t i = journal_find(id);
	const struct journal_entry *x = i >= 0 ? &J.v[i] : NULL;

	if (!x)
		snprintf(buf, len, "not open");
	else if (x->type == 's')
		snprintf(buf, len, "set %s", x->a);
	else if (x->type == 'o')
		snprintf(buf, len, "%s %s", x->a, x->b);
	else
		snprintf(buf, len, "process %lld", x->pid);
}

int journal_undo_or_warn(long *id, const char *who)
{
	char what[PATH_MAX + 80];
	int ret = *id > 0 ? journal_undo(*id) : 0;

	if (ret) {
		describe(*id, what, sizeof(what));
		pr_warn("%s: cannot undo journal entry %ld (%s, in %s): %s; cvmbench restore "
			"retries", who, *id, what, J.file, strerror(-ret));
	}
	*id = 0;
	return ret;
}

int journal_undo_each_or_warn(long *ids, size_t n, const char *who)
{
	int ret = 0, err;

	while (n > 0) {
		err = journal_undo_or_warn(&ids[--n], who);
		ret = ret ?: err;
	}
	return ret;
}
