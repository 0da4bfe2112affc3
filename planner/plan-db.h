/* SPDX-License-Identifier: MIT */
/*
 * plan-db.h - `cvmbench plan --config FILE --db DB`: the platforms from
 * the database's cells, the answers stored in it (docs/capacity.md).
 */
#ifndef CVMBENCH_PLAN_DB_H
#define CVMBENCH_PLAN_DB_H

/**
 * plan_db_run() - run the plan config @config against database @db
 * (@trace, when not NULL, instead of the config's). Returns an exit code:
 * 0, 2 (bad input or missing measurements, named; nothing written), 1.
 */
int plan_db_run(const char *config, const char *db, const char *trace);

#endif
