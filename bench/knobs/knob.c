// SPDX-License-Identifier: MIT
/* knob.c - the list of knobs, applied in order and restored in reverse. */
#include <stdio.h>

#include "knob-list.h"
#include "knob.h"

#define DECLARE_KNOB(ident) extern const struct knob_ops knob_##ident;
KNOBS(DECLARE_KNOB)
#undef DECLARE_KNOB

/* The knobs of knob-list.h; NULL ends the list. */
#define LIST_KNOB(ident) &knob_##ident,
static const struct knob_ops *const knobs[] = { KNOBS(LIST_KNOB) NULL };
#undef LIST_KNOB

static int applied;             /* how many of knobs[] are applied now */
/* the cell's sink of knobs_describe(), for the knobs' report() at restore */
static const struct knob_sink *report_sink;

int knobs_apply(const struct cell *c, char *why, size_t len)
{
	int ret;

	applied = 0;
	report_sink = NULL;
	for (; knobs[applied]; applied++) {
		ret = knobs[applied]->apply(c, why, len);
		if (ret) {
			knobs_restore(c);
			return ret;
		}
	}
	return 0;
}

int knobs_supported(const struct cell *c, char *why, size_t len)
{
	int i;

	for (i = 0; knobs[i]; i++)
		if (knobs[i]->supported && !knobs[i]->supported(c, why, len))
			return 0;
	return 1;
}

void knobs_window(const struct cell *c, int end)
{
	int i;

	for (i = 0; i < applied; i++)
		if (knobs[i]->window)
			knobs[i]->window(c, end);
}

int knobs_verify(const struct cell *c, char *why, size_t len)
{
	int i, ret;

	for (i = 0; i < applied; i++)
		if (knobs[i]->verify && (ret = knobs[i]->verify(c, why, len)))
			return ret;
	return 0;
}

void knobs_describe(const struct cell *c, const struct knob_sink *s)
{
	char key[64], buf[256];
	int i;

	report_sink = s;
	for (i = 0; i < applied; i++) {
		if (!knobs[i]->describe)
			continue;
		buf[0] = '\0';
		knobs[i]->describe(c, buf, sizeof(buf));
		snprintf(key, sizeof(key), "%s.applied", knobs[i]->name);
		if (buf[0])
			s->put(s->ctx, key, buf);
	}
}

void knobs_restore(const struct cell *c)
{
	while (applied > 0) {
		applied--;
		if (report_sink && knobs[applied]->report)
			knobs[applied]->report(c, report_sink);
		knobs[applied]->restore(c);
	}
}
