// SPDX-License-Identifier: MIT
/*
 * svc-proc.c - a service's directory, server and load-generator runs
 * (svc-proc.h). The directory is $TMPDIR/cvmbench-svc-PID-N on the host
 * (journal kind "svc-dir": restore removes that directory's tree, which
 * holds only what the service wrote), BASE/cvmbench-svc-PID-N in a guest.
 * Every process is forked from an argv (never a shell), dies with this
 * process (PR_SET_PDEATHSIG) and is journalled by pid on the host. A
 * window is one run of the load generator: its wall time runs from the
 * fork to its exit, its stdout is kept whole for the parser.
 */
#include <errno.h>
#include <glob.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "file-tail.h"
#ifndef CVMBENCH_GUEST_AGENT
#include "journal.h"
#endif
#include "log.h"
#include "svc-proc-local.h"

#define SVC_OUT_MAX (8 << 20)     /* a generator's stdout kept: 8 MiB at most */
#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6

static int unlink_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)f;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) && errno != ENOENT ? -1 : 0;
}

/*
 * PostgreSQL's System V segment outlives a killed postmaster. Its key and id
 * are line 7 of DIR/pg/postmaster.pid: removed when the segment with that id
 * still has that key and nothing is attached (so never another server's).
 */
static void pg_segment_undo(const char *dir)
{
	char path[PATH_MAX], line[256] = "";
	struct shmid_ds ds;
	long long key;
	int n = 0, id;
	FILE *f;

	snprintf(path, sizeof(path), "%s/pg/postmaster.pid", dir);
	f = fopen(path, "re");
	if (!f)
		return;
	while (n < 7 && fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	if (n != 7 || sscanf(line, "%lld %d", &key, &id) != 2)
		return;
	if (!shmctl(id, IPC_STAT, &ds) && ds.shm_perm.__key == (key_t)key && !ds.shm_nattch &&
	    shmctl(id, IPC_RMID, NULL))
		pr_warn("%s: cannot remove PostgreSQL's segment %d: %s", dir, id, strerror(errno));
}

/* Remove the tree of a cvmbench-svc-* directory (nothing else), and the
 * PostgreSQL segment its server left. */
static int svc_dir_undo(const char *dir)
{
	const char *base = strrchr(dir, '/');

	if (!base || strncmp(base + 1, "cvmbench-svc-", 13))
		return -EINVAL;
	pg_segment_undo(dir);
	if (nftw(dir, unlink_one, 16, FTW_DEPTH | FTW_PHYS))
		return errno == ENOENT ? 0 : -errno;
	return 0;
}

#ifndef CVMBENCH_GUEST_AGENT
static const struct journal_kind kind_svc_dir = { "svc-dir", svc_dir_undo };
JOURNAL_KIND_REGISTER(kind_svc_dir)

long svc_journal_process(pid_t p)
{
	long id = journal_process(p);

	return id == -EBADF ? 0 : id;          /* -EBADF: no journal open */
}

void svc_journal_forget(long id)
{
	if (id > 0 && journal_forget(id))
		pr_warn("journal %s: cannot close entry %ld", journal_path(), id);
}

static int make_dir(const char *base, char *dir, size_t len, long *id)
{
	if (base)
		return -EINVAL;
	return journal_tmpdir(kind_svc_dir.kind, "svc", 200, dir, len, id);
}
#else
/* In a guest: no journal; what the service starts ends with the VM. */
long svc_journal_process(pid_t p)
{
	(void)p;
	return 0;
}

void svc_journal_forget(long id)
{
	(void)id;
}

static int make_dir(const char *base, char *dir, size_t len, long *id)
{
	static int n;

	*id = 0;
	snprintf(dir, len, "%s/cvmbench-svc-%d-%d", base ? base : "/tmp", (int)getpid(), n++);
	return mkdir(dir, 0700) ? -errno : 0;
}
#endif

/* The child's side of svc_spawn(): never returns. */
static void __attribute__((noreturn)) child(char *const *argv, const char *out,
					    const char *err, const struct svc_cred *cred,
					    pid_t parent)
{
	int null = open("/dev/null", O_RDWR);
	int o = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : null;
	int e = err ? open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644) : null;

	if (cred && (setgroups(0, NULL) || setgid(cred->gid) || setuid(cred->uid)))
		_exit(126);
	/* after setuid: a change of credentials clears the death signal */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(126);
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	if (null < 0 || o < 0 || e < 0 || dup2(null, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
		_exit(126);
	execv(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

pid_t svc_spawn(char *const *argv, const char *out, const char *err,
		const struct svc_cred *cred)
{
	pid_t me = getpid(), p = fork();

	if (p == 0)
		child(argv, out, err, cred, me);
	return p < 0 ? -errno : p;
}

/* Sleep until child @p exits or @ms pass: a pidfd where the kernel has one. */
static void wait_exit(pid_t p, int ms)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	int fd = (int)syscall(SYS_pidfd_open, p, 0);
	struct pollfd pf = { fd, POLLIN, 0 };

	if (fd >= 0) {
		poll(&pf, 1, ms);
		close(fd);
	} else {
		nanosleep(&nap, NULL);
	}
}

int svc_wait(pid_t p, double timeout_s, int *status)
{
	long long deadline = clock_now_ns() + (long long)(timeout_s * 1e9);
	pid_t r;

	for (;;) {
		r = waitpid(p, status, WNOHANG);
		if (r == p)
			return 0;
		if (r < 0)
			return -errno;
		if (clock_now_ns() >= deadline)
			break;
		wait_exit(p, (int)((deadline - clock_now_ns()) / 1000000) + 1);
	}
	kill(p, SIGKILL);
	waitpid(p, status, 0);
	return -ETIMEDOUT;
}

int svc_which(const char *name, const char *extra, char *path, size_t len)
{
	const char *env = getenv("PATH");
	char list[4096], *save = NULL, *d;

	snprintf(list, sizeof(list), "%s:%s", env && *env ? env : "/usr/bin:/bin",
		 extra ? extra : "");
	for (d = strtok_r(list, ":", &save); d; d = strtok_r(NULL, ":", &save))
		if (*d == '/' && snprintf(path, len, "%s/%s", d, name) < (int)len &&
		    !access(path, X_OK))
			return 0;
	return -ENOENT;
}

/* Numbers descending: the newest PostgreSQL first. */
static int version_desc(const void *a, const void *b)
{
	return strverscmp(*(char *const *)b, *(char *const *)a);
}

const char *svc_sbin_dirs(void)
{
	static char dirs[1024];
	glob_t g;
	size_t i, used;

	if (*dirs)
		return dirs;
	used = (size_t)snprintf(dirs, sizeof(dirs), "/usr/sbin:/sbin");
	if (glob("/usr/lib/postgresql/*/bin", GLOB_ONLYDIR | GLOB_NOSORT, NULL, &g))
		return dirs;
	qsort(g.gl_pathv, g.gl_pathc, sizeof(char *), version_desc);
	for (i = 0; i < g.gl_pathc; i++)
		if (used + 1 + strlen(g.gl_pathv[i]) < sizeof(dirs))
			used += (size_t)snprintf(dirs + used, sizeof(dirs) - used, ":%s",
						 g.gl_pathv[i]);
	globfree(&g);
	return dirs;
}

/* A tmpfs or ramfs under @dir: -EXDEV with @why (fio and PostgreSQL need a disk). */
static int real_disk(const struct svc_proc *sp, char *why, size_t len)
{
	struct statfs fs;

	if (!sp->svc->on_disk)
		return 0;
	if (statfs(sp->dir, &fs))
		return -errno;
	if ((unsigned long)fs.f_type != TMPFS_MAGIC_ && (unsigned long)fs.f_type != RAMFS_MAGIC_)
		return 0;
	snprintf(why, len, "%s writes to %s, which is a %s (memory, not a disk); give it a "
		 "disk (TMPDIR on a disk; qemu: scratch-disk = MIB)", sp->svc->name, sp->dir,
		 (unsigned long)fs.f_type == TMPFS_MAGIC_ ? "tmpfs" : "ramfs");
	return -EXDEV;
}

/* @name (a program of @svc) is missing here: 0 with @why naming its package. */
static int missing(const struct svc_info *svc, const char *name, char *why, size_t len)
{
	static const char *const pkg[][2] = {
		{ "nginx", "nginx-light" }, { "redis-server", "redis-server" },
		{ "postgres", "postgresql" }, { "wrk", "wrk" },
		{ "redis-benchmark", "redis-tools" }, { "pgbench", "postgresql-client" },
		{ "sysbench", "sysbench" }, { "fio", "fio" },
		{ "cvmload", "none: cvmbench's own load generator, next to cvmbench once built (make)" },
	};
	size_t i;

	for (i = 0; i < sizeof(pkg) / sizeof(pkg[0]) && strcmp(pkg[i][0], name); i++)
		;
	snprintf(why, len, "workload %s: %s not found (Debian package %s)", svc->name,
		 name, i < sizeof(pkg) / sizeof(pkg[0]) ? pkg[i][1] : "?");
	return 0;
}

/* Where the generator is beyond PATH: cvmbench's directory (cvmload) or the sbins. */
static const char *loadgen_extra(const struct svc_info *svc, const char *loadgen_dir)
{
	return !strcmp(svc->loadgen, "cvmload") ? loadgen_dir : svc_sbin_dirs();
}

int svc_loadgen_found(const struct svc_info *svc, const char *loadgen_dir, char *why,
		      size_t len)
{
	char path[PATH_MAX];

	if (svc_which(svc->loadgen, loadgen_extra(svc, loadgen_dir), path, sizeof(path)))
		return missing(svc, svc->loadgen, why, len);
	return 1;
}

int svc_found(const struct svc_info *svc, const char *loadgen_dir, char *why, size_t len)
{
	char path[PATH_MAX];

	if (svc->server && svc_which(svc_server_name(svc->server), svc_sbin_dirs(), path,
				     sizeof(path)))
		return missing(svc, svc_server_name(svc->server), why, len);
	return svc_loadgen_found(svc, loadgen_dir, why, len);
}

static int proc_begin(struct svc_proc *sp, const struct svc_info *svc,
		      const struct svc_params *p, const char *base, const char *addr,
		      int port, char *why, size_t len)
{
	int ret;

	memset(sp, 0, sizeof(*sp));
	sp->svc = svc;
	sp->p = *p;
	sp->port = port;
	snprintf(sp->addr, sizeof(sp->addr), "%s", addr);
	snprintf(sp->user, sizeof(sp->user), "root");
	ret = make_dir(base, sp->dir, sizeof(sp->dir), &sp->dir_jid);
	if (ret)
		snprintf(why, len, "the service's directory %s: %s", sp->dir, strerror(-ret));
	return ret;
}

int svc_proc_start_at(struct svc_proc *sp, const struct svc_info *svc,
		      const struct svc_params *p, const char *base, const char *loadgen_dir,
		      const char *addr, int port, char *why, size_t len)
{
	int ret;

	if (!svc_found(svc, loadgen_dir, why, len))
		return -ENOENT;
	ret = proc_begin(sp, svc, p, base, addr, port, why, len);
	svc_which(svc->loadgen, loadgen_extra(svc, loadgen_dir), sp->loadgen,
		  sizeof(sp->loadgen));
	ret = ret ?: real_disk(sp, why, len);
	ret = ret ?: svc_server_start(sp, why, len);
	if (ret)
		svc_proc_stop(sp);
	return ret;
}

int svc_proc_start(struct svc_proc *sp, const struct svc_info *svc,
		   const struct svc_params *p, const char *base, const char *loadgen_dir,
		   char *why, size_t len)
{
	return svc_proc_start_at(sp, svc, p, base, loadgen_dir, "127.0.0.1", 0, why, len);
}

int svc_proc_client(struct svc_proc *sp, const struct svc_info *svc,
		    const struct svc_params *p, int port, const char *loadgen_dir,
		    char *why, size_t len)
{
	int ret;

	if (!svc_loadgen_found(svc, loadgen_dir, why, len))
		return -ENOENT;
	ret = proc_begin(sp, svc, p, NULL, "127.0.0.1", port, why, len);
	svc_which(svc->loadgen, loadgen_extra(svc, loadgen_dir), sp->loadgen,
		  sizeof(sp->loadgen));
	if (ret)
		svc_proc_stop(sp);
	return ret;
}

long svc_proc_requests(const struct svc_proc *sp)
{
	char path[PATH_MAX + 16];
	long n = 0;
	FILE *f;
	int c;

	if (!sp->svc || sp->svc->server != SVC_NGINX || !sp->dir[0])
		return -1;
	snprintf(path, sizeof(path), "%s/access.log", sp->dir);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* The file @path whole (at most SVC_OUT_MAX bytes) into @w. */
static int slurp(const char *path, struct svc_window *w)
{
	FILE *f = fopen(path, "re");
	size_t cap = 65536, n;

	if (!f)
		return -errno;
	w->out = malloc(cap + 1);
	while (w->out && (n = fread(w->out + w->len, 1, cap - w->len, f)) > 0) {
		w->len += n;
		if (w->len == cap && cap < SVC_OUT_MAX) {
			char *b = realloc(w->out, 2 * cap + 1);

			if (!b)
				break;
			w->out = b;
			cap *= 2;
		} else if (w->len == cap) {
			break;
		}
	}
	fclose(f);
	if (!w->out)
		return -ENOMEM;
	w->out[w->len] = '\0';
	return 0;
}

int svc_proc_window(struct svc_proc *sp, double timeout_s, struct svc_window *w,
		    char *why, size_t len)
{
	char store[2048], *argv[48], out[PATH_MAX + 16], err[PATH_MAX + 16], tail[512];
	long long t0;
	long jid;
	pid_t p;
	int ret;

	memset(w, 0, sizeof(*w));
	w->wall_ns = -1;
	snprintf(out, sizeof(out), "%s/loadgen.out", sp->dir);
	snprintf(err, sizeof(err), "%s/loadgen.err", sp->dir);
	ret = svc_loadgen_argv(sp->svc, &sp->p, sp->loadgen, sp->port, sp->dir, store,
			       sizeof(store), argv, 48);
	if (ret) {
		snprintf(why, len, "%s: the load generator's argv does not fit", sp->svc->name);
		return ret;
	}
	t0 = clock_now_ns();
	p = svc_spawn(argv, out, err, NULL);
	if (p < 0) {
		snprintf(why, len, "cannot start %s: %s", argv[0], strerror(-p));
		return p;
	}
	jid = svc_journal_process(p);
	ret = svc_wait(p, timeout_s, &w->status);
	w->wall_ns = clock_now_ns() - t0;
	svc_journal_forget(jid);
	slurp(out, w);
	if (!ret && WIFEXITED(w->status) && !WEXITSTATUS(w->status))
		return 0;
	file_tail_line(err, tail, sizeof(tail));
	if (ret == -ETIMEDOUT)
		snprintf(why, len, "%s ran longer than %.0f s (killed); its stderr ends: %s",
			 argv[0], timeout_s, tail);
	else
		snprintf(why, len, "%s %s %d; its stderr ends: %s", argv[0],
			 WIFEXITED(w->status) ? "exited" : "was killed by signal",
			 WIFEXITED(w->status) ? WEXITSTATUS(w->status) : WTERMSIG(w->status), tail);
	return ret ?: -EIO;
}

void svc_window_free(struct svc_window *w)
{
	free(w->out);
	w->out = NULL;
	w->len = 0;
}

int svc_proc_alive(struct svc_proc *sp)
{
	int st;

	if (!sp->svc || sp->svc->server == SVC_NONE)
		return 1;
	return sp->server > 0 && waitpid(sp->server, &st, WNOHANG) == 0;
}

/*
 * End the server: SIGQUIT for PostgreSQL (immediate shutdown: the
 * postmaster ends its backends first), SIGTERM for the others, SIGKILL
 * after 5 s.
 */
void svc_proc_stop(struct svc_proc *sp)
{
	int st;

	if (sp->server > 0) {
		kill(sp->server, sp->svc->server == SVC_POSTGRES ? SIGQUIT : SIGTERM);
		svc_wait(sp->server, 5.0, &st);
	}
	sp->server = 0;
	svc_journal_forget(sp->server_jid);
	sp->server_jid = 0;
	if (sp->dir[0] && svc_dir_undo(sp->dir))
		pr_warn("cannot remove %s", sp->dir);
	sp->dir[0] = '\0';
	svc_journal_forget(sp->dir_jid);
	sp->dir_jid = 0;
}
