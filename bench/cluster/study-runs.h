/* SPDX-License-Identifier: MIT */
/*
 * study-runs.h - what a study's database already holds of each config:
 * a finished run (kept), an unfinished one (resumed) or none (a new run).
 */
#ifndef CVMBENCH_STUDY_RUNS_H
#define CVMBENCH_STUDY_RUNS_H

#include <stddef.h>
#include <stdint.h>

enum study_state { STUDY_NEW, STUDY_RESUME, STUDY_DONE };

struct study_run {
	enum study_state state;
	int64_t run_id;           /* the run kept or resumed; 0 for a new one */
	char status[32];          /* its status, "" for a new one */
};

int study_run_find(const char *db_path, const char *config_text, struct study_run *out);
const char *study_state_name(enum study_state s);

#endif
