// SPDX-License-Identifier: MIT
/*
 * svc-server.c - how each service's server is configured and started
 * (svc-proc-local.h), on ADDR = 127.0.0.1 at a port the kernel gave free a
 * moment before (or, for a generator on the host, on the guest's NIC at the
 * port QEMU forwards to: svc-wire.h), everything it writes in the service's
 * directory DIR:
 *
 *   nginx     DIR/nginx.conf (one process: master_process off, so the
 *             journalled pid is the whole server; access log on, unbuffered
 *             as Debian ships it, in DIR/access.log: one line a request,
 *             nginx's own count, svc_proc_requests()) serving
 *             DIR/www/index.html, 1 KiB;
 *             nginx -p DIR -e DIR/error.log -c DIR/nginx.conf
 *   redis     redis-server --port P --bind ADDR --save '' --appendonly no
 *             --dir DIR --logfile DIR/server.log --daemonize no
 *             --protected-mode yes (no on a guest's NIC: clients come from
 *             QEMU's forward, never the network)
 *   postgres  initdb -D DIR/pg -U postgres --auth=trust --no-sync, then
 *             postgres -D DIR/pg -p P -c listen_addresses=ADDR
 *             -c unix_socket_directories=DIR/pg, both as the user postgres
 *             (PostgreSQL refuses root; `nobody` where the system has no
 *             postgres user), then pgbench -i -s 1 once, before any window.
 *
 * A server is ready when its port accepts a connection (PostgreSQL: also
 * when postmaster.pid says "ready"), within 30 s.
 */
#include <errno.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "file-tail.h"
#include "loopback-port.h"
#include "svc-proc-local.h"

#define READY_MS 30000

static int port_answers(const char *addr, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (fd < 0)
		return 0;
	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		close(fd);
		return 0;
	}
	ok = !connect(fd, (struct sockaddr *)&a, sizeof(a));
	close(fd);
	return ok;
}

/* PostgreSQL's postmaster.pid holds "ready" once it accepts connections. */
static int pg_ready(const struct svc_proc *sp)
{
	char path[PATH_MAX + 32], buf[1024] = "";
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/pg/postmaster.pid", sp->dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, "ready") != NULL;
}

static int wait_ready(struct svc_proc *sp, const char *log, char *why, size_t len)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	char tail[512];
	int i, st;

	for (i = 0; i < READY_MS / 20; i++) {
		if (waitpid(sp->server, &st, WNOHANG) == sp->server) {
			sp->server = 0;
			file_tail_line(log, tail, sizeof(tail));
			snprintf(why, len, "%s ended at its start; its log ends: %s",
				 svc_server_name(sp->svc->server), tail);
			return -ECHILD;
		}
		if (port_answers(sp->addr, sp->port) && (sp->svc->server != SVC_POSTGRES || pg_ready(sp)))
			return 0;
		nanosleep(&nap, NULL);
	}
	file_tail_line(log, tail, sizeof(tail));
	snprintf(why, len, "%s did not answer on %s:%d within %d s; its log ends: %s",
		 svc_server_name(sp->svc->server), sp->addr, sp->port, READY_MS / 1000, tail);
	return -ETIMEDOUT;
}

static int write_file(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "we");
	int ok = f && fwrite(text, 1, n, f) == n;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -EIO;
}

static int nginx_files(struct svc_proc *sp)
{
	char path[PATH_MAX + 32], conf[8192], page[1024];
	const char *d = sp->dir;
	int n;

	snprintf(path, sizeof(path), "%s/www", d);
	if (mkdir(path, 0755))
		return -errno;
	memset(page, 'x', sizeof(page));
	page[sizeof(page) - 1] = '\n';
	snprintf(path, sizeof(path), "%s/www/index.html", d);
	if (write_file(path, page, sizeof(page)))
		return -EIO;
	n = snprintf(conf, sizeof(conf),
		     "daemon off;\nmaster_process off;\nworker_processes 1;\n"
		     "pid %s/nginx.pid;\nerror_log %s/error.log;\n"
		     "events { worker_connections 1024; }\n"
		     "http {\n access_log %s/access.log;\n client_body_temp_path %s/body;\n"
		     " proxy_temp_path %s/proxy;\n fastcgi_temp_path %s/fastcgi;\n"
		     " uwsgi_temp_path %s/uwsgi;\n scgi_temp_path %s/scgi;\n"
		     " server { listen %s:%d; root %s/www; }\n}\n",
		     d, d, d, d, d, d, d, d, sp->addr, sp->port, d);
	snprintf(path, sizeof(path), "%s/nginx.conf", d);
	return n < (int)sizeof(conf) ? write_file(path, conf, (size_t)n) : -ENOSPC;
}

static int start_nginx(struct svc_proc *sp, char *log, size_t loglen)
{
	char prog[PATH_MAX], conf[PATH_MAX + 16], elog[PATH_MAX + 16];
	char *argv[] = { prog, "-p", sp->dir, "-e", elog, "-c", conf, NULL };
	int ret = nginx_files(sp);

	snprintf(conf, sizeof(conf), "%s/nginx.conf", sp->dir);
	snprintf(elog, sizeof(elog), "%s/error.log", sp->dir);
	snprintf(log, loglen, "%s", elog);
	if (ret || svc_which("nginx", svc_sbin_dirs(), prog, sizeof(prog)))
		return ret ?: -ENOENT;
	sp->server = svc_spawn(argv, NULL, NULL, NULL);
	return sp->server < 0 ? sp->server : 0;
}

static int start_redis(struct svc_proc *sp, char *log, size_t loglen)
{
	char prog[PATH_MAX], port[16];
	/* protected mode refuses clients from other addresses than loopback's:
	 * on a guest's NIC they come from QEMU's forward (10.0.2.2) */
	char *argv[] = { prog, "--port", port, "--bind", sp->addr, "--save", "",
			 "--appendonly", "no", "--dir", sp->dir, "--logfile", log,
			 "--daemonize", "no", "--protected-mode",
			 strcmp(sp->addr, "127.0.0.1") ? "no" : "yes", NULL };

	snprintf(port, sizeof(port), "%d", sp->port);
	snprintf(log, loglen, "%s/server.log", sp->dir);
	if (svc_which("redis-server", NULL, prog, sizeof(prog)))
		return -ENOENT;
	sp->server = svc_spawn(argv, NULL, NULL, NULL);
	return sp->server < 0 ? sp->server : 0;
}

/* The postgres user's uid and gid from /etc/passwd (no NSS in a static agent). */
static int pg_user(struct svc_proc *sp, struct svc_cred *c)
{
	static const char *const names[] = { "postgres", "nobody" };
	char line[512], *f[4], *save;
	FILE *p;
	int i, k;

	for (i = 0; i < 2; i++) {
		p = fopen("/etc/passwd", "re");
		while (p && fgets(line, sizeof(line), p)) {
			for (k = 0, f[0] = strtok_r(line, ":", &save); k < 3 && f[k]; k++)
				f[k + 1] = strtok_r(NULL, ":", &save);
			if (k == 3 && f[3] && !strcmp(f[0], names[i])) {
				c->uid = (uid_t)atoi(f[2]);
				c->gid = (gid_t)atoi(f[3]);
				snprintf(sp->user, sizeof(sp->user), "%s", names[i]);
				fclose(p);
				return c->uid ? 0 : -EPERM;
			}
		}
		if (p)
			fclose(p);
	}
	return -ENOENT;
}

/* Run @argv to its end (at most 300 s), as @cred; stderr into @log. */
static int run_to_end(char *const *argv, const char *log, const struct svc_cred *cred)
{
	int st, ret;
	pid_t p = svc_spawn(argv, log, log, cred);
	long jid = p > 0 ? svc_journal_process(p) : 0;

	if (p < 0)
		return p;
	ret = svc_wait(p, 300, &st);
	svc_journal_forget(jid);
	return ret ?: (WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO);
}

static int pg_initdb(struct svc_proc *sp, const struct svc_cred *cred, char *pg,
		     const char *log)
{
	char prog[PATH_MAX];
	char *argv[] = { prog, "-D", pg, "-U", "postgres", "--auth=trust", "--no-sync",
			 "-E", "UTF8", NULL };

	if (svc_which("initdb", svc_sbin_dirs(), prog, sizeof(prog)))
		return -ENOENT;
	if (chmod(sp->dir, 0711) || mkdir(pg, 0700) || chown(pg, cred->uid, cred->gid))
		return -errno;
	return run_to_end(argv, log, cred);
}

/*
 * Can @cred reach the service's directory? Each parent must let others
 * search it (x), or belong to the user; else -EACCES naming the parent.
 */
static int pg_reachable(const struct svc_proc *sp, const struct svc_cred *cred, char *log,
			size_t loglen)
{
	char path[PATH_MAX], *slash;
	struct stat st;

	snprintf(path, sizeof(path), "%s", sp->dir);
	while ((slash = strrchr(path, '/')) && slash != path) {
		*slash = '\0';
		if (!stat(path, &st) && !(st.st_mode & S_IXOTH) && st.st_uid != cred->uid) {
			snprintf(log, loglen, "%.300s (mode %o) keeps %s out: PostgreSQL runs as that "
				 "user; set TMPDIR to a directory it can reach", path,
				 (unsigned)(st.st_mode & 07777), sp->user);
			return -EACCES;
		}
	}
	return 0;
}

static int start_postgres(struct svc_proc *sp, char *log, size_t loglen)
{
	char prog[PATH_MAX], pg[PATH_MAX + 8], port[16], sock[PATH_MAX + 40], listen[48];
	char *argv[] = { prog, "-D", pg, "-p", port, "-c", listen, "-c", sock, NULL };
	struct svc_cred cred;
	int ret = pg_user(sp, &cred);

	snprintf(pg, sizeof(pg), "%s/pg", sp->dir);
	snprintf(port, sizeof(port), "%d", sp->port);
	snprintf(sock, sizeof(sock), "unix_socket_directories=%s", pg);
	snprintf(listen, sizeof(listen), "listen_addresses=%s", sp->addr);
	snprintf(log, loglen, "%s/server.log", sp->dir);
	if (ret)
		return ret;
	ret = pg_reachable(sp, &cred, log, loglen);
	if (ret)
		return ret;
	ret = pg_initdb(sp, &cred, pg, log);
	if (ret || svc_which("postgres", svc_sbin_dirs(), prog, sizeof(prog)))
		return ret ?: -ENOENT;
	if (chown(sp->dir, cred.uid, cred.gid))
		return -errno;          /* its log: the server writes it as postgres */
	sp->server = svc_spawn(argv, log, log, &cred);
	return sp->server < 0 ? sp->server : 0;
}

/* pgbench -i -s 1: the tables, once, outside every window. */
static int pg_tables(struct svc_proc *sp, char *why, size_t len)
{
	char prog[PATH_MAX], port[16], log[PATH_MAX + 32], tail[512];
	char *argv[] = { prog, "-i", "-s", "1", "-h", sp->addr, "-p", port, "-U",
			 "postgres", "postgres", NULL };
	int ret;

	snprintf(port, sizeof(port), "%d", sp->port);
	snprintf(log, sizeof(log), "%s/pgbench-init.log", sp->dir);
	if (svc_which("pgbench", svc_sbin_dirs(), prog, sizeof(prog)))
		return -ENOENT;
	ret = run_to_end(argv, log, NULL);
	if (ret) {
		file_tail_line(log, tail, sizeof(tail));
		snprintf(why, len, "pgbench -i failed (%s): %s", strerror(-ret), tail);
	}
	return ret;
}

static int start_kind(struct svc_proc *sp, char *log, size_t loglen)
{
	switch (sp->svc->server) {
	case SVC_NGINX:
		return start_nginx(sp, log, loglen);
	case SVC_REDIS:
		return start_redis(sp, log, loglen);
	case SVC_POSTGRES:
		return start_postgres(sp, log, loglen);
	default:
		return 0;
	}
}

int svc_server_start(struct svc_proc *sp, char *why, size_t len)
{
	char log[PATH_MAX + 16] = "", tail[512];
	int ret;

	if (sp->svc->server == SVC_NONE)
		return 0;
	if (!sp->port)
		sp->port = loopback_port_free();
	if (sp->port < 0) {
		snprintf(why, len, "no free loopback port: %s", strerror(-sp->port));
		return sp->port;
	}
	ret = start_kind(sp, log, sizeof(log));
	if (!ret && sp->server > 0) {
		sp->server_jid = svc_journal_process(sp->server);
		ret = sp->server_jid < 0 ? (int)sp->server_jid : 0;
	}
	if (ret == -EACCES) {
		snprintf(why, len, "cannot start %s: %s", svc_server_name(sp->svc->server), log);
		return ret;
	}
	if (ret) {
		file_tail_line(log, tail, sizeof(tail));
		snprintf(why, len, "cannot start %s (as %s): %s; its log ends: %s",
			 svc_server_name(sp->svc->server), sp->user, strerror(-ret), tail);
		return ret;
	}
	ret = wait_ready(sp, log, why, len);
	return ret ?: sp->svc->server == SVC_POSTGRES ? pg_tables(sp, why, len) : 0;
}
