/* SPDX-License-Identifier: MIT */
/*
 * db-check.h - whether a file may be opened as a results database, decided
 * before anything in it changes (used by db.c).
 */
#ifndef CVMBENCH_DB_CHECK_H
#define CVMBENCH_DB_CHECK_H

#include <stddef.h>

struct sqlite3;

/* PRAGMA application_id of a cvmbench database: 'cvmb' */
#define DB_APPLICATION_ID 0x63766d62

int db_path_check(const char *path, char *err, size_t errlen);
const char *db_path_plain(const char *path, char *buf, size_t len);
int db_check(struct sqlite3 *h, const char *path, int latest, int writing,
	     int *sqlite_rc, char *err, size_t errlen);
int db_mark(struct sqlite3 *h, const char *path, char *err, size_t errlen);
int db_readonly_why(const char *path, char *err, size_t errlen);
int db_ro_mount_uri(const char *path, char *buf, size_t len, char *err, size_t errlen);

#endif
