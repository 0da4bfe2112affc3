// SPDX-License-Identifier: MIT
/*
 * kvm-module.c - reload a KVM vendor module with one parameter changed
 * (kvm-module.h): the old value journalled first as a "kvm-module-param"
 * object, `modprobe -r MODULE` then `modprobe MODULE PARAM=VALUE` run as
 * argv arrays (fork + execv of the modprobe found in $PATH, never a
 * shell), the parameter read back. Module and parameter are [a-z0-9_]
 * words and values decimal digits, checked before anything runs.
 * /sys is read through the test root (sysroot.h); modprobe gets the
 * environment, so a test's fake modprobe edits the same fake tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "journal.h"
#include "kvm-module.h"
#include "log.h"
#include "sysfs.h"

#define KVM_MODULE_KIND "kvm-module-param"
#define MODPROBE_TIMEOUT_MS 60000

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

int kvm_module_modprobe(char *path, size_t plen, char *why, size_t len)
{
	const char *p = getenv("PATH"), *end;

	for (p = p ? p : ""; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(path, plen, "%.*s/modprobe", (int)(end - p), p);
		if (end > p && !access(path, X_OK))
			return 0;
	}
	snprintf(why, len, "no modprobe in PATH (Debian package kmod)");
	return -ENOENT;
}

/* Read @fd into @out (the last bytes kept) until EOF (0) or the timeout (-1). */
static int drain(int fd, char *out, size_t olen)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	char buf[256];
	ssize_t n = 1;

	out[0] = '\0';
	while (n > 0 && poll(&pfd, 1, MODPROBE_TIMEOUT_MS) > 0 &&
	       (n = read(fd, buf, sizeof(buf))) > 0) {
		if (got + (size_t)n >= olen)
			got = 0;       /* keep the tail only */
		memcpy(out + got, buf, (size_t)n < olen ? (size_t)n : olen - 1);
		got += (size_t)n < olen ? (size_t)n : olen - 1;
		out[got] = '\0';
	}
	out[strcspn(out, "\n")] = '\0';
	return n > 0 ? -1 : 0;
}

/* Run @argv (argv[0] a full path); 0 when it exits 0, else -ECANCELED with @out. */
static int run(char *const argv[], char *out, size_t olen)
{
	int pfd[2], status = 0, null;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid == 0) {
		null = open("/dev/null", O_RDONLY);
		dup2(null, STDIN_FILENO);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return -errno;
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
	char prog[PATH_MAX], arg[160], out[256], v[32], dir[96];
	char *unload[] = { prog, "-r", (char *)module, NULL };
	char *load[] = { prog, (char *)module, arg, NULL };
	int ret = kvm_module_modprobe(prog, sizeof(prog), why, len);

	if (ret)
		return ret;
	snprintf(arg, sizeof(arg), "%s=%s", param, value);
	snprintf(dir, sizeof(dir), "/sys/module/%s/refcnt", module);
	if (sysfs_read_line(dir, v, sizeof(v)) >= 0 && (ret = run(unload, out, sizeof(out)))) {
		snprintf(why, len, "%s -r %s failed: %s", prog, module, out[0] ? out : "exit != 0");
		return ret;
	}
	ret = run(load, out, sizeof(out));
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
	if (kvm_module_in_use(module, why, sizeof(why)) == 1)
		return -EBUSY;    /* kept: `cvmbench restore` once the VMs are gone */
	ret = reload(module, param, old, why, sizeof(why));
	if (ret)
		pr_warn("restoring %s %s=%s: %s", module, param, old, why);
	return ret;
}

static const struct journal_kind kind_kvm_module = { KVM_MODULE_KIND, kvm_module_undo };
JOURNAL_KIND_REGISTER(kind_kvm_module)

long kvm_module_set(const char *module, const char *param, const char *value,
		    char *why, size_t len)
{
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
	id = journal_object(KVM_MODULE_KIND, name);     /* before any change */
	if (id < 0) {
		snprintf(why, len, "cannot journal %s: %s", name, strerror((int)-id));
		return id;
	}
	ret = reload(module, param, value, why, len);
	if (!ret)
		return id;
	if (journal_undo(id)) {   /* left open: `cvmbench restore` tries again */
		snprintf(why2, sizeof(why2), "%s; putting %s %s = %s back failed too (see "
			 "`cvmbench restore`)", why, module, param, old);
		snprintf(why, len, "%s", why2);
	}
	return ret == -EIO ? ret : -ECANCELED;
}
