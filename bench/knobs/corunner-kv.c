// SPDX-License-Identifier: MIT
/*
 * corunner-kv.c - the kv co-runner's processes (corunner-kv.h): its
 * directory $TMPDIR/cvmbench-kv-PID-N (journal kind "corunner-kv-dir":
 * restore removes only the files named below, then the directory),
 *   redis-server --port P --bind 127.0.0.1 --save '' --appendonly no
 *                --dir DIR --logfile DIR/redis.log --daemonize no
 * and a driver that runs, round after round until killed,
 *   redis-benchmark -h 127.0.0.1 -p P -c CLIENTS -n 2000 -t set,get --csv
 * with its output appended to DIR/bench.csv. P is a loopback port the
 * kernel gave free a moment before. Nothing is run through a shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "corunner-kv.h"
#include "file-tail.h"
#ifndef CVMBENCH_GUEST_AGENT
#include "journal.h"
#endif
#include "log.h"
#include "loopback-port.h"
#include "runner-stop.h"

static const char *const dir_files[] = { "redis.log", "bench.csv", "dump.rdb" };

static int kv_dir_undo(const char *dir)
{
	const char *base = strrchr(dir, '/');
	char path[PATH_MAX + 16];
	size_t i;

	if (!base || strncmp(base + 1, "cvmbench-kv-", 12))
		return -EINVAL;
	for (i = 0; i < sizeof(dir_files) / sizeof(dir_files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, dir_files[i]);
		unlink(path);
	}
	return rmdir(dir) && errno != ENOENT ? -errno : 0;
}

#ifndef CVMBENCH_GUEST_AGENT
static const struct journal_kind kind_kv_dir = { "corunner-kv-dir", kv_dir_undo };
JOURNAL_KIND_REGISTER(kind_kv_dir)

static long kv_journal_process(pid_t p)
{
	return journal_process(p);
}

static int kv_journal_forget(long id)
{
	return journal_forget(id);
}

static int kv_tmpdir(char *dir, size_t len, long *id)
{
	return journal_tmpdir(kind_kv_dir.kind, "kv", 200, dir, len, id);
}
#else
/*
 * In a guest (the co-runner VM's agent, agent-kv.c) there is no journal:
 * what the co-runner starts ends with the VM. The agent links no journal.
 */
static long kv_journal_process(pid_t p)
{
	(void)p;
	return -EBADF;          /* as journal_process() without an open journal */
}

static int kv_journal_forget(long id)
{
	(void)id;
	return 0;
}

static int kv_tmpdir(char *dir, size_t len, long *id)
{
	static int n;

	*id = 0;
	snprintf(dir, len, "/tmp/cvmbench-kv-%d-%d", (int)getpid(), n++);
	return mkdir(dir, 0700) ? -errno : 0;
}
#endif

/*
 * @name in PATH into @path (@len >= PATH_MAX): the PATH entry resolved
 * (realpath), so a relative entry does not leave a cwd-relative program, and
 * @name kept as the last component: redis-server is a link to
 * redis-check-rdb, which decides what it is from argv[0]. 0, or -ENOENT.
 */
static int which(const char *name, char *path, size_t len)
{
	const char *p = getenv("PATH"), *end;
	char cand[PATH_MAX], dir[PATH_MAX];

	for (p = p && *p ? p : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(cand, sizeof(cand), "%.*s", (int)(end - p), p);
		if (end == p || !realpath(cand, dir) || len < PATH_MAX ||
		    snprintf(path, len, "%s/%s", dir, name) >= (int)len)
			continue;
		if (!access(path, X_OK))
			return 0;
	}
	return -ENOENT;
}

int corunner_kv_found(char *why, size_t len)
{
	static const char *const need[][2] = { { "redis-server", "redis-server" },
					       { "redis-benchmark", "redis-tools" } };
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < 2; i++)
		if (which(need[i][0], path, sizeof(path))) {
			snprintf(why, len, "corunner-kind = kv: %s not found (Debian package %s)",
				 need[i][0], need[i][1]);
			return 0;
		}
	return 1;
}

/* The directory, journalled before it is made. */
static int make_dir(struct corunner_kv *kv)
{
	return kv_tmpdir(kv->dir, sizeof(kv->dir), &kv->dir_jid);
}

/*
 * In a child of @parent: die with it, ignore Ctrl-C, run on @cpus, output
 * to @out. A parent that died before the prctl sends no signal: the child
 * has another parent then (init or a subreaper) and exits.
 */
static void child_setup(const cpu_set_t *cpus, int out, pid_t parent)
{
	int null = open("/dev/null", O_RDWR);

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(126);
	signal(SIGINT, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);       /* the guest agent ignores it: the driver waits */
	if (cpus)
		sched_setaffinity(0, sizeof(*cpus), cpus);
	if (null >= 0) {
		dup2(null, 0);
		dup2(out >= 0 ? out : null, 1);
		dup2(null, 2);
	}
}

/* The driver's loop (a child): one benchmark round after another. */
static void __attribute__((noreturn)) drive(char *const *argv, int out)
{
	pid_t p, me = getpid();
	int status;

	for (;;) {
		p = fork();
		if (p == 0) {
			child_setup(NULL, out, me);
			execv(argv[0], argv);
			_exit(127);
		}
		if (p < 0 || waitpid(p, &status, 0) != p)
			_exit(4);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			_exit(5);      /* a failed round: verify reports it */
	}
}

/* Journal the child @p just forked (-errno of fork: @p < 0): its pid, or -errno. */
static pid_t journalled(pid_t p, long *jid)
{
	if (p < 0)
		return -errno;
	*jid = kv_journal_process(p);
	if (*jid < 0 && *jid != -EBADF) {       /* -EBADF: no journal open */
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
		return (pid_t)*jid;
	}
	return p;
}

/* Fork @argv on @cpus (the server), journalled: its pid, or -errno. */
static pid_t start_server(char *const *argv, const cpu_set_t *cpus, long *jid)
{
	pid_t me = getpid(), p = fork();

	if (p == 0) {
		child_setup(cpus, -1, me);
		execv(argv[0], argv);
		_exit(127);
	}
	return journalled(p, jid);
}

/* Fork the driver of @argv (benchmark rounds) on @cpus, journalled. */
static pid_t start_driver(char *const *argv, const cpu_set_t *cpus, const char *csv, long *jid)
{
	int out = open(csv, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600), ret;
	pid_t p, me = getpid();

	if (out < 0)
		return -errno;
	p = fork();
	if (p == 0) {
		child_setup(cpus, -1, me);
		drive(argv, out);
	}
	ret = p < 0 ? -errno : 0;
	close(out);
	return ret ? ret : journalled(p, jid);
}

/*
 * Is @pid (our child) still running? A reaped one is set to 0. Where
 * SIGCHLD is ignored (the guest agent) children are reaped by the kernel
 * and waitpid() says ECHILD: then the pid's existence answers.
 */
static int running(pid_t *pid, int *status)
{
	int st;
	pid_t r = *pid > 0 ? waitpid(*pid, status ? status : &st, WNOHANG) : 0;

	if (r < 0 && errno == ECHILD && kill(*pid, 0) && errno == ESRCH)
		r = *pid;
	if (*pid <= 0 || r != *pid)
		return *pid > 0;
	*pid = 0;
	return 0;
}

/* PING the server until it answers +PONG (or @ms pass, or it ends). */
static int wait_pong(struct corunner_kv *kv, int ms)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)kv->port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	char buf[16] = "";
	int fd, i;

	for (i = 0; i < ms / 20; i++) {
		if (!running(&kv->server, NULL))
			return -ECHILD;
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a)) &&
		    write(fd, "PING\r\n", 6) == 6 && read(fd, buf, sizeof(buf) - 1) >= 5 &&
		    !strncmp(buf, "+PONG", 5)) {
			close(fd);
			return 0;
		}
		if (fd >= 0)
			close(fd);
		nanosleep(&nap, NULL);
	}
	return -ETIMEDOUT;
}

static int start_both(struct corunner_kv *kv, const cpu_set_t *server_cpus,
		      const cpu_set_t *load_cpus, char *why, size_t len)
{
	char srv[PATH_MAX], bench[PATH_MAX], port[16], clients[16], round[16];
	char log[PATH_MAX + 16], csv[PATH_MAX + 16];
	char *sargv[] = { srv, "--port", port, "--bind", "127.0.0.1", "--save", "",
			  "--appendonly", "no", "--dir", kv->dir, "--logfile", log,
			  "--daemonize", "no", NULL };
	char *bargv[] = { bench, "-h", "127.0.0.1", "-p", port, "-c", clients, "-n", round,
			  "-t", "set,get", "--csv", NULL };
	int ret;

	if (which("redis-server", srv, sizeof(srv)) || which("redis-benchmark", bench,
							       sizeof(bench)))
		return corunner_kv_found(why, len), -ENOENT;
	snprintf(port, sizeof(port), "%d", kv->port);
	snprintf(clients, sizeof(clients), "%d", kv->clients);
	snprintf(round, sizeof(round), "%d", CORUNNER_KV_ROUND);
	snprintf(log, sizeof(log), "%s/redis.log", kv->dir);
	snprintf(csv, sizeof(csv), "%s/bench.csv", kv->dir);
	kv->server = start_server(sargv, server_cpus, &kv->server_jid);
	if (kv->server < 0) {
		ret = kv->server;
		kv->server = 0;
		snprintf(why, len, "cannot start redis-server: %s", strerror(-ret));
		return ret;
	}
	ret = wait_pong(kv, 10000);
	if (ret) {
		snprintf(why, len, "redis-server on 127.0.0.1:%d did not answer PING (%s); "
			 "its log ends: ", kv->port, ret == -ECHILD ? "it ended" : "within 10 s");
		file_tail_line(log, why + strlen(why), len - strlen(why));
		return ret;
	}
	kv->driver = start_driver(bargv, load_cpus, csv, &kv->driver_jid);
	if (kv->driver < 0) {
		ret = kv->driver;
		kv->driver = 0;
		snprintf(why, len, "cannot start redis-benchmark: %s", strerror(-ret));
	}
	return ret;
}

int corunner_kv_start(struct corunner_kv *kv, const cpu_set_t *server_cpus,
		      const cpu_set_t *load_cpus, int clients, char *why, size_t len)
{
	int ret;

	memset(kv, 0, sizeof(*kv));
	kv->clients = clients > 0 ? clients : 1;
	kv->win_start = kv->win_end = -1;
	ret = make_dir(kv);
	if (ret) {
		snprintf(why, len, "the kv co-runner's directory %s: %s", kv->dir, strerror(-ret));
		corunner_kv_stop(kv);
		return ret;
	}
	kv->port = loopback_port_free();
	ret = kv->port < 0 ? kv->port : start_both(kv, server_cpus, load_cpus, why, len);
	if (kv->port < 0)
		snprintf(why, len, "no free loopback port: %s", strerror(-ret));
	if (ret)
		corunner_kv_stop(kv);
	return ret;
}

int corunner_kv_alive(struct corunner_kv *kv, char *why, size_t len)
{
	int st = 0;

	if (!running(&kv->server, &st)) {
		snprintf(why, len, "the kv co-runner's redis-server ended during the cell");
		return -EIO;
	}
	if (!running(&kv->driver, &st)) {
		snprintf(why, len, "the kv co-runner's redis-benchmark driver ended during the "
			 "cell (%s %d)", WIFEXITED(st) ? "exit" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return -EIO;
	}
	return 0;
}

int corunner_kv_csv_parse(const char *text, double *rps, int *rows)
{
	const char *l;
	double v, sum = 0;      /* seconds per request, summed over the tests */
	char *end;

	*rows = 0;
	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *c = strchr(l, ',');

		if (*l != '"' || !strncmp(l, "\"test\"", 6) || !c || c[1] != '"')
			continue;
		v = strtod(c + 2, &end);
		if (end == c + 2 || *end != '"' || !(v > 0))
			continue;
		sum += 1 / v;
		(*rows)++;
	}
	*rps = *rows ? *rows / sum : 0;
	return *rows ? 0 : -ENODATA;
}

void corunner_kv_mark(struct corunner_kv *kv, int end)
{
	char path[PATH_MAX + 16];
	struct stat st;
	long n;

	snprintf(path, sizeof(path), "%s/bench.csv", kv->dir);
	n = stat(path, &st) ? (errno == ENOENT ? 0 : -1) : (long)st.st_size;
	if (end)
		kv->win_end = n;
	else
		kv->win_start = n;
}

int corunner_kv_load(const struct corunner_kv *kv, double *rps, int *rows)
{
	char path[PATH_MAX + 16], *text;
	long n = kv->win_end - kv->win_start;
	FILE *f;
	int ret;

	if (kv->win_start < 0 || kv->win_end < 0 || n < 0)
		return -ENODATA;
	snprintf(path, sizeof(path), "%s/bench.csv", kv->dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	fseek(f, kv->win_start, SEEK_SET);
	text = calloc(1, (size_t)n + 1);
	ret = text && fread(text, 1, (size_t)n, f) == (size_t)n ?
	      corunner_kv_csv_parse(text, rps, rows) : -EIO;
	free(text);
	fclose(f);
	return ret;
}

static long now_ms(void)
{
	return (long)(clock_now_ns() / 1000000);
}

int corunner_kv_load_widened(struct corunner_kv *kv, int max_ms, double *rps, int *rows)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	long start = now_ms();
	int ret;

	kv->widened_ms = 0;
	while ((ret = corunner_kv_load(kv, rps, rows)) == -ENODATA && kv->win_start >= 0 &&
	       kv->win_end >= 0 && now_ms() - start < max_ms && !runner_stop) {
		nanosleep(&nap, NULL);
		corunner_kv_mark(kv, 1);        /* the window's end, later */
		kv->widened_ms = now_ms() - start;
	}
	return ret;
}

int corunner_kv_alone(struct corunner_kv *kv, int ms, double *rps, int *rows)
{
	struct timespec nap = { ms / 1000, (long)(ms % 1000) * 1000000L };
	int ret;

	corunner_kv_mark(kv, 0);
	while (nanosleep(&nap, &nap) && errno == EINTR && !runner_stop)
		;
	corunner_kv_mark(kv, 1);
	ret = corunner_kv_load_widened(kv, CORUNNER_KV_WIDEN_MS, rps, rows);
	kv->alone_widened_ms = kv->widened_ms;
	kv->win_start = kv->win_end = -1;
	kv->widened_ms = 0;
	return ret;
}

static void end_process(pid_t *pid, long *jid, const char *what)
{
	if (*pid > 0) {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
	}
	*pid = 0;
	if (*jid > 0 && kv_journal_forget(*jid))
		pr_warn("cannot close the journal entry %ld of the kv co-runner's %s", *jid, what);
	*jid = 0;
}

void corunner_kv_stop(struct corunner_kv *kv)
{
	end_process(&kv->driver, &kv->driver_jid, "redis-benchmark driver");
	end_process(&kv->server, &kv->server_jid, "redis-server");
	if (kv->dir[0] && kv_dir_undo(kv->dir))
		pr_warn("cannot remove %s", kv->dir);
	kv->dir[0] = '\0';
	if (kv->dir_jid > 0 && kv_journal_forget(kv->dir_jid))
		pr_warn("cannot close the journal entry %ld of %s", kv->dir_jid, "its directory");
	kv->dir_jid = 0;
}
