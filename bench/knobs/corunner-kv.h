/* SPDX-License-Identifier: MIT */
/*
 * corunner-kv.h - corunner-kind = kv: a key-value server under load beside
 * the cell (the study used memtier against memcached; Debian packages
 * neither memtier nor a memcached load generator, so: redis-server driven
 * by redis-benchmark, both from Debian). cvmbench starts its own
 * redis-server on a free loopback port with its own directory (no
 * persistence: --save '' --appendonly no) and a driver process that runs
 * redis-benchmark rounds (SET and GET, --csv) back to back until it is
 * killed; each round's CSV is appended to a file whose requests/s are the
 * load achieved. Server and driver are journalled; the rounds die with
 * their driver (PR_SET_PDEATHSIG), the directory is journalled too.
 */
#ifndef CVMBENCH_CORUNNER_KV_H
#define CVMBENCH_CORUNNER_KV_H

#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * requests per redis-benchmark round (each of SET and GET): a round ends
 * about every 0.3 s on a quiet machine, every 2-3 s beside a cell on two
 * busy CPUs (10000 took 10 s there: most cell windows held no round's end)
 */
#define CORUNNER_KV_ROUND 2000
#define CORUNNER_KV_ROUND_TEXT "2000"
/*
 * A cell window in which no round ended is widened by at most this much
 * (ten times a round on two busy CPUs); a window that still holds none is
 * a skip row of the cell.
 */
#define CORUNNER_KV_WIDEN_MS 30000
#define CORUNNER_KV_WIDEN_TEXT "30 s"

/** struct corunner_kv - a running kv co-runner; read only. */
struct corunner_kv {
	pid_t server, driver;
	long server_jid, driver_jid, dir_jid;
	int port, clients;
	/* bench.csv's size at the cell window's start and end (-1: not marked) */
	long win_start, win_end;
	/* how much later the window's end was marked (corunner_kv_load_widened()) */
	long widened_ms, alone_widened_ms;
	char dir[PATH_MAX];
};

/** corunner_kv_found() - redis-server and redis-benchmark in PATH: 1, or 0 with @why. */
int corunner_kv_found(char *why, size_t len);
/**
 * corunner_kv_start() - start the server on @server_cpus and the driver
 * on @load_cpus (NULL: unpinned) with @clients connections, wait up to
 * 10 s for the server's PONG. 0, or -errno with @why (all of it undone).
 */
int corunner_kv_start(struct corunner_kv *kv, const cpu_set_t *server_cpus,
		      const cpu_set_t *load_cpus, int clients, char *why, size_t len);
/** corunner_kv_alive() - both processes still run: 0, or -EIO with @why. */
int corunner_kv_alive(struct corunner_kv *kv, char *why, size_t len);
/**
 * corunner_kv_csv_parse() - redis-benchmark --csv output @text: requests
 * over time of its test rows ("SET","43383.95",...; header rows skipped)
 * into @rps, their number into @rows. Every test is CORUNNER_KV_ROUND
 * requests taking ROUND / its rate seconds, so the total requests over
 * the total time is @rows / sum(1 / rate) (not the mean of the rates).
 * 0, or -ENODATA (no complete row).
 */
int corunner_kv_csv_parse(const char *text, double *rps, int *rows);
/**
 * corunner_kv_mark() - bench.csv's size now as the cell window's start
 * (@end 0) or end (@end 1). The driver's rounds write their CSV when they
 * exit, so the bytes between the marks are the rounds completed within
 * the window.
 */
void corunner_kv_mark(struct corunner_kv *kv, int end);
/**
 * corunner_kv_load() - corunner_kv_csv_parse() of the rounds completed
 * between the marks; -ENODATA when a mark is missing.
 */
int corunner_kv_load(const struct corunner_kv *kv, double *rps, int *rows);
/**
 * corunner_kv_load_widened() - corunner_kv_load(), and when no round ended
 * within the window, the window widened: its end marked again every 50 ms
 * until a round has ended in it, for at most @max_ms (kv->widened_ms: by
 * how much). 0, or -ENODATA: no round ended in the window so widened.
 */
int corunner_kv_load_widened(struct corunner_kv *kv, int max_ms, double *rps, int *rows);
/*
 * The co-runner alone: a window of this many ms right after it started,
 * before the cell's instances (or VMs) are set up, widened like the cell's.
 */
#define CORUNNER_KV_ALONE_MS 3000
/**
 * corunner_kv_alone() - the requests/s of the rounds completed in a window
 * of @ms from now (widened as corunner_kv_load_widened(); its widening in
 * kv->alone_widened_ms), the marks cleared after. 0, or -ENODATA.
 */
int corunner_kv_alone(struct corunner_kv *kv, int ms, double *rps, int *rows);
/** corunner_kv_stop() - kill both by their pids, reap, remove the directory. */
void corunner_kv_stop(struct corunner_kv *kv);

#endif
