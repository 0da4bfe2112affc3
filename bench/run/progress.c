// SPDX-License-Identifier: MIT
/* progress.c - the run's progress line on stderr. */
#include <stdio.h>
#include <unistd.h>

#include "clock.h"
#include "instance.h"
#include "log.h"
#include "progress.h"

static int on_tty;
static size_t total_cells, cells_done;
static long long t_start, t_drawn;
static int line_shown;
static char current[128];

static void progress_clear(void)
{
	if (line_shown)
		fprintf(stderr, "\r\033[K");
	line_shown = 0;
}

static void format_duration(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

void progress_begin(size_t total)
{
	total_cells = total;
	t_start = clock_now_ns();
	on_tty = isatty(2);
	if (on_tty)
		log_set_progress_clear(progress_clear);
}

/* Redraw the line: @fraction of the current cell is done. */
static void draw(double fraction, long calls, long total_calls)
{
	double elapsed = (double)(clock_now_ns() - t_start) / 1e9;
	double done = (double)cells_done + fraction;
	char el[32], eta[32] = "?", calls_txt[64] = "";

	format_duration(elapsed, el, sizeof(el));
	if (done > 0)
		format_duration(elapsed / done * ((double)total_cells - done), eta, sizeof(eta));
	if (total_calls)
		snprintf(calls_txt, sizeof(calls_txt), " (call %ld/%ld)", calls, total_calls);
	fprintf(stderr, "\r\033[K[%zu/%zu] %s%s  elapsed %s  left ~%s", cells_done,
		total_cells, current, calls_txt, el, eta);
	line_shown = 1;
	t_drawn = clock_now_ns();
}

void progress_cell(size_t done, const char *cell_key)
{
	double elapsed = (double)(clock_now_ns() - t_start) / 1e9;
	char el[32], eta[32] = "?";

	cells_done = done;
	snprintf(current, sizeof(current), "%s", cell_key);
	if (on_tty) {
		draw(0, 0, 0);
		return;
	}
	format_duration(elapsed, el, sizeof(el));
	if (done)
		format_duration(elapsed / (double)done * (double)(total_cells - done),
				eta, sizeof(eta));
	pr_info("cell %zu/%zu %s (elapsed %s, left ~%s)", done + 1, total_cells,
		cell_key, el, eta);
}

void progress_calls(long calls, long total_calls)
{
	if (!on_tty || clock_now_ns() - t_drawn < 250000000LL || total_calls <= 0)
		return;
	draw((double)calls / (double)total_calls, calls, total_calls);
}

void progress_cell_done(const char *cell_key, const char *status)
{
	if (!on_tty)
		pr_info("cell %s: %s", cell_key, status);
}

void progress_end(void)
{
	progress_clear();
	log_set_progress_clear(NULL);
}
