/* SPDX-License-Identifier: MIT */
/*
 * suite-data.h - the system suite as its figures and the report draw it
 * (suite-data.c): the service cells of a database grouped by tool and
 * pair key, each group with the bars of its headline metric per side,
 * the overheads `compare` gives its pairs, and the sides that are missing
 * with why (a skipped cell: no CVM here; a refused pair; no twin).
 */
#ifndef CVMBENCH_SUITE_DATA_H
#define CVMBENCH_SUITE_DATA_H

struct sqlite3;
struct cJSON;

struct cJSON *suite_json(struct sqlite3 *h);

#endif
