// SPDX-License-Identifier: MIT
/*
 * probe-window.c - start, stop and emit of one probe for one window, with
 * the rule that a window whose start or stop failed is a skip row, never
 * numbers (a probe that did not start cannot have measured the window).
 */
#include <stdio.h>
#include <string.h>

#include "probe-window.h"

static int wants(const struct probe *p, enum probe_window w)
{
	return (p->ops->windows & w) != 0;
}

/* Mark @w skipped and say why: the probe's message of this call, or @err. */
static int skip_window(struct probe *p, enum probe_window w, long seq, const char *op,
		       int err, struct sink *s)
{
	char why[512], where[48];

	if (w == PROBE_WINDOW_CELL)
		snprintf(where, sizeof(where), "cell window");
	else
		snprintf(where, sizeof(where), "invocation %ld window", seq);
	snprintf(why, sizeof(why), "%s: %s failed: %s", where, op,
		 p->error[0] ? p->error : strerror(err < 0 ? -err : err));
	p->error[0] = '\0';       /* this call's, not the cell's first error */
	p->skipped |= (unsigned int)w;
	sink_skip(s, why);
	return err < 0 ? err : -err;
}

int probe_window_start(struct probe *p, enum probe_window w, long seq, struct sink *s)
{
	int err;

	p->skipped &= ~(unsigned int)w;
	if (!wants(p, w) || !p->ops->start)
		return 0;
	if (p->error[0])
		p->error[0] = '\0';
	err = p->ops->start(p, w);
	return err ? skip_window(p, w, seq, "start", err, s) : 0;
}

int probe_window_stop(struct probe *p, enum probe_window w, long seq, struct sink *s)
{
	int err;

	if (!wants(p, w) || !p->ops->stop || (p->skipped & (unsigned int)w))
		return 0;
	err = p->ops->stop(p, w);
	return err ? skip_window(p, w, seq, "stop", err, s) : 0;
}

int probe_window_emit(struct probe *p, enum probe_window w, long seq, struct sink *s)
{
	(void)seq;
	if (!wants(p, w) || !p->ops->emit)
		return 0;
	if (p->skipped & (unsigned int)w) {
		p->skipped &= ~(unsigned int)w;
		return 0;
	}
	return p->ops->emit(p, w, s);
}
