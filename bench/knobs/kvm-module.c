// SPDX-License-Identifier: MIT
/*
 * kvm-module.c - reload a KVM vendor module with one parameter changed
 * (kvm-module.h): the old value journalled first as a "kvm-module-param"
 * object, `rmmod MODULE` (not `modprobe -r`: it would unload kvm too, and
 * kvm would come back with its defaults) then `modprobe MODULE PARAM=VALUE`
 * run as argv arrays (fork + execv of the tools found in $PATH, realpath'd,
 * never a shell), the parameter read back, and every other readable kvm
 * and MODULE parameter compared with before. Module and parameter are [a-z0-9_]
 * words and values decimal digits, checked before anything runs.
 * /sys is read through the test root (sysroot.h); modprobe gets the
 * environment, so a test's fake modprobe and rmmod edit the same fake tree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "journal.h"
#include "kvm-module.h"
#include "log.h"
#include "sysfs.h"
#include "sysroot.h"

#define KVM_MODULE_KIND "kvm-module-param"
#define MODPROBE_TIMEOUT_MS 60000
#define SNAP_LEN 8192
#define UNDO_WAIT_MS 5000       /* a VM's QEMU just ended: its files close soon */

static int word_ok(const char *s, const char *chars)
{
	return s && *s && strlen(s) < 64 && strspn(s, chars) == strlen(s);
}

static int names_ok(const char *module, const char *param, const char *value)
{
	return word_ok(module, "abcdefghijklmnopqrstuvwxyz0123456789_") &&
	       word_ok(param, "abcdefghijklmnopqrstuvwxyz0123456789_") &&
	       word_ok(value, "0123456789");
}

int kvm_module_in_use(const char *module, char *why, size_t len)
{
	char path[128], v[32];
	int ret;

	snprintf(path, sizeof(path), "/sys/module/%s/refcnt", module);
	ret = sysfs_read_line(path, v, sizeof(v));
	if (ret < 0) {
		snprintf(why, len, "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	if (strcmp(v, "0")) {
		snprintf(why, len, "%s is in use (%s = %s: a VM or an open /dev/kvm)",
			 module, path, v);
		return 1;
	}
	return 0;
}

/* Milliseconds left until @deadline (clock_now_ns()), 0 when past. */
static int ms_left(long long deadline)
{
	long long ms = (deadline - clock_now_ns()) / 1000000;

	return ms > 0 ? (int)ms : 0;
}

int kvm_module_wait_free(const char *module, int ms, char *why, size_t len)
{
	struct timespec tick = { 0, 50 * 1000000 };
	long long deadline = clock_now_ns() + ms * 1000000LL;
	int ret;

	while ((ret = kvm_module_in_use(module, why, len)) == 1 && ms_left(deadline))
		nanosleep(&tick, NULL);
	return ret;
}

/* @name in $PATH, resolved (realpath: a relative entry is not cwd-dependent later). */
static int tool(const char *name, char *path, size_t plen)
{
	const char *p = getenv("PATH"), *end;
	char cand[PATH_MAX];

	for (p = p ? p : ""; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(cand, sizeof(cand), "%.*s/%s", (int)(end - p), p, name);
		if (end > p && !access(cand, X_OK) && plen >= PATH_MAX && realpath(cand, path))
			return 0;
	}
	return -ENOENT;
}

int kvm_module_modprobe(char *path, size_t plen, char *why, size_t len)
{
	char rm[PATH_MAX];

	if (!tool("modprobe", path, plen) && !tool("rmmod", rm, sizeof(rm)))
		return 0;
	snprintf(why, len, "no modprobe or rmmod in PATH (Debian package kmod)");
	return -ENOENT;
}

/* Append @n bytes of @buf to @out (@olen), keeping the last olen - 1 bytes. */
static void keep_tail(char *out, size_t olen, size_t *got, const char *buf, size_t n)
{
	size_t keep;

	if (n >= olen) {
		buf += n - (olen - 1);
		n = olen - 1;
	}
	if (*got + n >= olen) {
		keep = olen - 1 - n;
		memmove(out, out + *got - keep, keep);
		*got = keep;
	}
	memcpy(out + *got, buf, n);
	*got += n;
	out[*got] = '\0';
}

/* Read @fd into @out (the last bytes kept) until EOF (0) or the deadline (-1); EINTR retried. */
static int drain(int fd, char *out, size_t olen)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long long deadline = clock_now_ns() + MODPROBE_TIMEOUT_MS * 1000000LL;
	size_t got = 0;
	char buf[256];
	ssize_t n;
	int ret;

	out[0] = '\0';
	for (;;) {
		ret = poll(&pfd, 1, ms_left(deadline));
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			return -1;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		keep_tail(out, olen, &got, buf, (size_t)n);
	}
	out[strcspn(out, "\n")] = '\0';
	return n < 0 ? -1 : 0;
}

/*
 * Run @prog (a full path) with @argv; argv[0] is the tool's own name, as
 * kmod (modprobe, rmmod: symlinks to one binary) picks its job by it.
 * 0 when it exits 0, else -ECANCELED with @out.
 */
static int run(const char *prog, char *const argv[], char *out, size_t olen)
{
	int pfd[2], status = 0, null;
	pid_t pid;

	int err;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	err = errno;
	if (pid == 0) {
		null = open("/dev/null", O_RDONLY);
		dup2(null, STDIN_FILENO);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		execv(prog, argv);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return -err;
	}
	if (drain(pfd[0], out, olen))
		kill(pid, SIGKILL);       /* it outlived the timeout */
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECANCELED;
}

/* The parameter's current value into @v; 0, or -errno (module not loaded: -ENOENT). */
static int param_read(const char *module, const char *param, char *v, size_t vlen)
{
	char path[160];
	int ret;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", module, param);
	ret = sysfs_read_line(path, v, vlen);
	return ret < 0 ? ret : 0;
}

/* Unload @module if loaded, load it with @param=@value, read it back. */
static int reload(const char *module, const char *param, const char *value,
		  char *why, size_t len)
{
	char prog[PATH_MAX], rm[PATH_MAX], arg[160], out[256], v[32], dir[96];
	char *unload[] = { "rmmod", (char *)module, NULL };   /* the vendor module only: kvm stays */
	char *load[] = { "modprobe", (char *)module, arg, NULL };
	int ret = kvm_module_modprobe(prog, sizeof(prog), why, len);

	if (ret || (ret = tool("rmmod", rm, sizeof(rm))))
		return ret;
	snprintf(arg, sizeof(arg), "%s=%s", param, value);
	snprintf(dir, sizeof(dir), "/sys/module/%s/refcnt", module);
	if (sysfs_read_line(dir, v, sizeof(v)) >= 0 && (ret = run(rm, unload, out, sizeof(out)))) {
		snprintf(why, len, "%s %s failed: %s", rm, module, out[0] ? out : "exit != 0");
		return ret;
	}
	ret = run(prog, load, out, sizeof(out));
	if (ret) {
		snprintf(why, len, "%s %s %s failed: %s", prog, module, arg,
			 out[0] ? out : "exit != 0");
		return ret;
	}
	ret = param_read(module, param, v, sizeof(v));
	if (ret || strcmp(v, value)) {
		snprintf(why, len, "%s %s %s: %s reads back %s", prog, module, arg, param,
			 ret ? strerror(-ret) : v);
		return -EIO;
	}
	return 0;
}

/*
 * How long an undo waits for the module to be free: UNDO_WAIT_MS, or
 * CVMBENCH_TEST_UNDO_WAIT_MS (tests of the give-up path, which would
 * otherwise wait the whole time for nothing).
 */
static int undo_wait_ms(void)
{
	const char *s = getenv("CVMBENCH_TEST_UNDO_WAIT_MS");

	return s && atoi(s) > 0 ? atoi(s) : UNDO_WAIT_MS;
}

/* Undo "MODULE PARAM OLD": reload MODULE with PARAM=OLD unless it has it already. */
static int kvm_module_undo(const char *name)
{
	char module[64], param[64], old[64], v[64], why[512];
	int ret;

	if (sscanf(name, "%63s %63s %63s", module, param, old) != 3 ||
	    !names_ok(module, param, old))
		return -EINVAL;
	if (!param_read(module, param, v, sizeof(v)) && !strcmp(v, old))
		return 0;
	if (kvm_module_wait_free(module, undo_wait_ms(), why, sizeof(why)) == 1)
		return -EBUSY;    /* kept: `cvmbench restore` once the VMs are gone */
	ret = reload(module, param, old, why, sizeof(why));
	if (ret)
		pr_warn("restoring %s %s=%s: %s", module, param, old, why);
	return ret;
}

/* Append "MODULE/NAME=VALUE\n" for each readable parameter of @module to @snap. */
static void snap_module(const char *module, char *snap, size_t len)
{
	char dir[PATH_MAX], rel[PATH_MAX], v[256];
	struct dirent *e;
	size_t used;
	DIR *d;

	snprintf(rel, sizeof(rel), "/sys/module/%s/parameters", module);
	d = opendir(sysroot_path(rel, dir, sizeof(dir)));
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "/sys/module/%s/parameters/%s", module, e->d_name);
		if (sysfs_read_line(rel, v, sizeof(v)) < 0)
			continue;       /* write-only: nothing to compare */
		used = strlen(snap);
		snprintf(snap + used, len - used, "%s/%s=%s\n", module, e->d_name, v);
	}
	if (d)
		closedir(d);
}

/* Every readable parameter of kvm and @module, for the comparison after a reload. */
static void snap_take(const char *module, char *snap, size_t len)
{
	snap[0] = '\0';
	snap_module("kvm", snap, len);
	snap_module(module, snap, len);
}

/* Write @v (up to @end) back to @key ("MODULE/NAME="), where writable: 0 or -errno. */
static int put_back(const char *key, const char *v, const char *end)
{
	char path[PATH_MAX], val[256];
	int slash = (int)strcspn(key, "/");

	snprintf(path, sizeof(path), "/sys/module/%.*s/parameters/%.*s", slash, key,
		 (int)strlen(key) - slash - 2, key + slash + 1);
	snprintf(val, sizeof(val), "%.*s", (int)(end - v), v);
	return sysfs_write(path, val);
}

/*
 * Compare @before with the parameters now (all but @module/@param): 0, or
 * -EIO with each one that changed named in @why ("kvm/halt_poll_ns 0 -> 200000"),
 * each written back to its old value where the kernel lets it (0644).
 */
static int snap_check(const char *before, const char *module, const char *param,
		      char *why, size_t len)
{
	static char now[SNAP_LEN];
	char line[320], skip[140], *hit;
	const char *p, *nl;
	size_t used, k;
	int bad = 0;

	snap_take(module, now, sizeof(now));
	snprintf(skip, sizeof(skip), "%s/%s=", module, param);
	snprintf(why, len, "the reload changed other KVM parameters:");
	for (p = before; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		snprintf(line, sizeof(line), "%.*s\n", (int)(nl - p), p);
		k = strcspn(line, "=") + 1;
		if (!strncmp(line, skip, strlen(skip)) || strstr(now, line))
			continue;
		line[k] = '\0';        /* "MODULE/NAME=" */
		hit = strstr(now, line);
		used = strlen(why);
		snprintf(why + used, len - used, " %.*s %.*s -> %.*s%s", (int)k - 1, line,
			 (int)(nl - p - k), p + k, hit ? (int)strcspn(hit + k, "\n") : 4,
			 hit ? hit + k : "gone", put_back(line, p + k, nl) ? "" : " (written back)");
		bad = 1;
	}
	return bad ? -EIO : 0;
}

static const struct journal_kind kind_kvm_module = { KVM_MODULE_KIND, kvm_module_undo };
JOURNAL_KIND_REGISTER(kind_kvm_module)

long kvm_module_set(const char *module, const char *param, const char *value,
		    char *why, size_t len)
{
	static char before[SNAP_LEN];
	char old[32], name[200], prog[PATH_MAX], why2[512];
	long id;
	int ret, busy;

	if (!names_ok(module, param, value))
		return -EINVAL;
	ret = param_read(module, param, old, sizeof(old));
	if (ret || !names_ok(module, param, old)) {
		snprintf(why, len, "%s %s unreadable or not a number", module, param);
		return ret ? ret : -EINVAL;
	}
	busy = kvm_module_in_use(module, why, len);
	if (busy)
		return busy == 1 ? -EBUSY : busy;
	ret = kvm_module_modprobe(prog, sizeof(prog), why, len);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "%s %s %s", module, param, old);
	snap_take(module, before, sizeof(before));
	id = journal_object(KVM_MODULE_KIND, name);     /* before any change */
	if (id < 0) {
		snprintf(why, len, "cannot journal %s: %s", name, strerror((int)-id));
		return id;
	}
	ret = reload(module, param, value, why, len);
	if (!ret)
		ret = snap_check(before, module, param, why, len);
	if (!ret)
		return id;
	if (journal_undo(id)) {   /* left open: `cvmbench restore` tries again */
		snprintf(why2, sizeof(why2), "%s; putting %s %s = %s back failed too (see "
			 "`cvmbench restore`)", why, module, param, old);
		snprintf(why, len, "%s", why2);
		return -ENOTRECOVERABLE;
	}
	return ret == -EIO ? ret : -ECANCELED;
}
