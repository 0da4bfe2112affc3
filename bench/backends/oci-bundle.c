// SPDX-License-Identifier: MIT
/*
 * oci-bundle.c - the root filesystem and config.json of an OCI bundle.
 * The rootfs holds only the static cvmfn, the workload's files under /data
 * and the few host files a workload reads (an OpenCV cascade); with the
 * rootfs key the root is instead a cached Debian tree (bench/backends/rootfs/),
 * read-only, with that cvmfn and /data bound onto it (a service cell's
 * container runs cvmbench-agent from /data instead of cvmfn, the service's
 * host directory bound read-write on /mnt: oci-svc.c). config.json is what
 * `runc spec` would give a hardened container
 * (pid, ipc, uts, mount and network namespaces, the usual mounts, masked
 * and read-only paths, a seccomp allow-list, no new privileges) built with
 * cJSON, never by pasting strings.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file-copy.h"
#include "oci-bundle.h"
#include "protocol.h"
#include "state-dir.h"
#include "zygote.h"

#define CVMFN_IN_CONTAINER "/cvmfn"
#define DATA_IN_CONTAINER "/data"
/* a service cell's (oci-svc.c): the agent runs it, its files on /mnt */
#define SVC_DIR_IN_CONTAINER "/mnt"
#define AGENT_IN_CONTAINER DATA_IN_CONTAINER "/cvmbench-agent"

/* Copy @src to @dst with mode @mode (a hard link when both are on one fs). */
static int link_or_copy(const char *src, const char *dst, mode_t mode)
{
	return link(src, dst) ? file_copy(src, dst, mode) : 0;
}

/* Is @name one of @workload's files ("<workload>-..." or "<workload>.")? */
static int workload_file(const char *name, const char *workload)
{
	size_t n = strlen(workload);

	return !strncmp(name, workload, n) && (name[n] == '-' || name[n] == '.');
}

static int copy_data_files(const struct cell *c, const char *data_dir, const char *dst,
			   char *err, size_t errlen)
{
	char from[PATH_MAX + 264], to[PATH_MAX + 264];
	DIR *d = opendir(data_dir);
	struct dirent *e;
	struct stat st;
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!ret && (e = readdir(d))) {
		if (!workload_file(e->d_name, c->workload))
			continue;
		snprintf(from, sizeof(from), "%s/%s", data_dir, e->d_name);
		snprintf(to, sizeof(to), "%s/%s", dst, e->d_name);
		if (lstat(from, &st) || !S_ISREG(st.st_mode))
			continue;
		ret = link_or_copy(from, to, st.st_mode & 07777);
		if (ret)
			snprintf(err, errlen, "cannot copy %s to %s: %s", from, to,
				 strerror(-ret));
	}
	closedir(d);
	return ret;
}

/* Files of the host a workload reads besides its data directory. */
static const struct {
	const char *workload, *path;
} host_files[] = {
	{ "video-face-detection",
	  "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml" },
};

/* Copy the host files @c's workload reads to the same paths in the rootfs. */
static int copy_host_files(const struct cell *c, const char *dir)
{
	char to[PATH_MAX], *p;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(host_files) / sizeof(host_files[0]); i++) {
		if (strcmp(c->workload, host_files[i].workload) ||
		    access(host_files[i].path, R_OK))
			continue;  /* missing: the workload's init says what to install */
		snprintf(to, sizeof(to), "%s%s", dir, host_files[i].path);
		for (p = strchr(to + strlen(dir) + 1, '/'); p; p = strchr(p + 1, '/')) {
			*p = '\0';
			mkdir(to, 0755);
			*p = '/';
		}
		ret = link_or_copy(host_files[i].path, to, 0644);
		if (ret)
			return ret;
	}
	return 0;
}

int oci_rootfs_build(const struct cell *c, const struct backend_env *env,
		     const char *dir, char *err, size_t errlen)
{
	static const char *const subdirs[] = { "data", "proc", "dev", "sys", "tmp" };
	char path[PATH_MAX];
	size_t i;
	int ret;

	if (mkdir(dir, 0755)) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return -errno;
	}
	for (i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, subdirs[i]);
		mkdir(path, 0755);
	}
	snprintf(path, sizeof(path), "%s%s", dir, CVMFN_IN_CONTAINER);
	ret = link_or_copy(env->cvmfn, path, 0755);
	if (ret) {
		snprintf(err, errlen, "cannot copy %s into the rootfs: %s", env->cvmfn,
			 strerror(-ret));
		goto err_tree;
	}
	snprintf(path, sizeof(path), "%s%s", dir, DATA_IN_CONTAINER);
	ret = copy_data_files(c, env->data_dir, path, err, errlen);
	if (ret)
		goto err_tree;
	ret = copy_host_files(c, dir);
	if (ret) {
		snprintf(err, errlen, "cannot copy host files into the rootfs: %s",
			 strerror(-ret));
		goto err_tree;
	}
	return 0;
err_tree:
	state_dir_remove_tree(dir);
	return ret;
}

static cJSON *string_array(const char *const *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

#define ARRAY(v) string_array(v, sizeof(v) / sizeof(v[0]))

static cJSON *capabilities(void)
{
	static const char *const caps[] = {
		"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD",
		"CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP",
		"CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE",
	};
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "bounding", ARRAY(caps));
	cJSON_AddItemToObject(o, "effective", ARRAY(caps));
	cJSON_AddItemToObject(o, "permitted", ARRAY(caps));
	return o;
}

/* The process of a service container: the agent, its requests on stdin. */
static void svc_args(cJSON *args)
{
	static const char *const argv[] = { AGENT_IN_CONTAINER, "--stdio", "--scratch",
					    SVC_DIR_IN_CONTAINER, "--bin", DATA_IN_CONTAINER };
	size_t i;

	for (i = 0; i < sizeof(argv) / sizeof(argv[0]); i++)
		cJSON_AddItemToArray(args, cJSON_CreateString(argv[i]));
}

static cJSON *process(const struct cell *c, const char *digest, int debian,
		      const char *seed_layer, int svc)
{
	static const char *const env[] = { "PATH=/", "HOME=/",
					   DATA_DIR_ENV "=" DATA_IN_CONTAINER };
	static const char *const env_debian[] = {
		"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME=/root",
		DATA_DIR_ENV "=" DATA_IN_CONTAINER };
	char store[1024], *argv[28];
	struct backend_env in = { .cvmfn = CVMFN_IN_CONTAINER, .data_dir = DATA_IN_CONTAINER,
				  .digest = digest };
	cJSON *p = cJSON_CreateObject(), *args, *user, *rl, *nofile, *penv;
	const char *touch = getenv(ZYGOTE_TOUCH_KB_ENV);
	char word[64];
	int i;

	cvmfn_argv(&in, seed_layer ? "seed" : "serve", c, store, sizeof(store), argv, 28);
	args = cJSON_AddArrayToObject(p, "args");
	for (i = 0; !svc && argv[i]; i++)
		cJSON_AddItemToArray(args, cJSON_CreateString(argv[i]));
	if (svc)
		svc_args(args);
	cJSON_AddBoolToObject(p, "terminal", 0);
	user = cJSON_AddObjectToObject(p, "user");
	cJSON_AddNumberToObject(user, "uid", 0);
	cJSON_AddNumberToObject(user, "gid", 0);
	penv = debian ? ARRAY(env_debian) : ARRAY(env);
	if (seed_layer && touch) {        /* the seed's test hook, passed on (tests only) */
		snprintf(word, sizeof(word), "%s=%.20s", ZYGOTE_TOUCH_KB_ENV, touch);
		cJSON_AddItemToArray(penv, cJSON_CreateString(word));
	}
	cJSON_AddItemToObject(p, "env", penv);
	cJSON_AddStringToObject(p, "cwd", "/");
	cJSON_AddItemToObject(p, "capabilities", capabilities());
	rl = cJSON_AddArrayToObject(p, "rlimits");
	nofile = cJSON_CreateObject();
	cJSON_AddStringToObject(nofile, "type", "RLIMIT_NOFILE");
	cJSON_AddNumberToObject(nofile, "hard", 1024);
	cJSON_AddNumberToObject(nofile, "soft", 1024);
	cJSON_AddItemToArray(rl, nofile);
	cJSON_AddBoolToObject(p, "noNewPrivileges", 1);
	return p;
}

static void add_mount(cJSON *mounts, const char *dst, const char *type,
		      const char *src, const char *opts)
{
	cJSON *m = cJSON_CreateObject(), *o = cJSON_AddArrayToObject(m, "options");
	char buf[256], *tok, *save = NULL;

	cJSON_AddStringToObject(m, "destination", dst);
	cJSON_AddStringToObject(m, "type", type);
	cJSON_AddStringToObject(m, "source", src);
	snprintf(buf, sizeof(buf), "%s", opts);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		cJSON_AddItemToArray(o, cJSON_CreateString(tok));
	cJSON_AddItemToArray(mounts, m);
}

/*
 * On a Debian tree (the rootfs key), the cell's cvmfn and data files are
 * bound read-only onto the mount points the rootfs builder made.
 */
static void add_binds(cJSON *m, const char *cell_root)
{
	char src[PATH_MAX + 16];

	snprintf(src, sizeof(src), "%s%s", cell_root, CVMFN_IN_CONTAINER);
	add_mount(m, CVMFN_IN_CONTAINER, "bind", src, "bind,ro,nosuid,nodev");
	snprintf(src, sizeof(src), "%s%s", cell_root, DATA_IN_CONTAINER);
	add_mount(m, DATA_IN_CONTAINER, "bind", src, "rbind,ro,nosuid,nodev");
}

static cJSON *mounts(const struct oci_bundle_opts *o)
{
	cJSON *m = cJSON_CreateArray();

	add_mount(m, "/proc", "proc", "proc", "nosuid,noexec,nodev");
	add_mount(m, "/dev", "tmpfs", "tmpfs", "nosuid,strictatime,mode=755,size=65536k");
	add_mount(m, "/dev/pts", "devpts", "devpts",
		  "nosuid,noexec,newinstance,ptmxmode=0666,mode=0620");
	add_mount(m, "/dev/shm", "tmpfs", "shm", "nosuid,noexec,nodev,mode=1777,size=65536k");
	add_mount(m, "/dev/mqueue", "mqueue", "mqueue", "nosuid,noexec,nodev");
	add_mount(m, "/sys", "sysfs", "sysfs", "nosuid,noexec,nodev,ro");
	add_mount(m, "/tmp", "tmpfs", "tmpfs", "nosuid,nodev,mode=1777");
	if (o->base)
		add_binds(m, o->rootfs);
	if (o->svc_dir)
		add_mount(m, SVC_DIR_IN_CONTAINER, "bind", o->svc_dir, "rbind,rw,nosuid,nodev");
	return m;
}

static void add_namespace(cJSON *ns, const char *type, const char *path)
{
	cJSON *n = cJSON_CreateObject();

	cJSON_AddStringToObject(n, "type", type);
	if (path)
		cJSON_AddStringToObject(n, "path", path);
	cJSON_AddItemToArray(ns, n);
}

/*
 * linux.resources: no device; cpu.quota/period for cpu-quota; cpu.cpus the
 * pin's CPUs of this start (@pin), else the first `cpus` CPUs.
 */
static cJSON *resources(const struct cell *c, const char *pin)
{
	cJSON *r = cJSON_CreateObject(), *dev, *d, *cpu;
	char cpus[32];

	dev = cJSON_AddArrayToObject(r, "devices");
	d = cJSON_CreateObject();
	cJSON_AddBoolToObject(d, "allow", 0);
	cJSON_AddStringToObject(d, "access", "rwm");
	cJSON_AddItemToArray(dev, d);
	if (c->cpus <= 0 && c->cpu_quota >= 100 && !pin)
		return r;
	cpu = cJSON_AddObjectToObject(r, "cpu");
	if (c->cpu_quota < 100) {
		cJSON_AddNumberToObject(cpu, "quota", 1000 * c->cpu_quota);
		cJSON_AddNumberToObject(cpu, "period", 100000);
	}
	if (pin) {
		cJSON_AddStringToObject(cpu, "cpus", pin);
	} else if (c->cpus > 0) {
		snprintf(cpus, sizeof(cpus), c->cpus > 1 ? "0-%d" : "0", c->cpus - 1);
		cJSON_AddStringToObject(cpu, "cpus", cpus);
	}
	return r;
}

static cJSON *linux_section(const struct cell *c, const struct oci_bundle_opts *o)
{
	static const char *const masked[] = {
		"/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys",
		"/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
		"/proc/sched_debug", "/sys/firmware", "/proc/scsi",
	};
	static const char *const readonly[] = {
		"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger",
	};
	cJSON *l = cJSON_CreateObject(), *ns;
	char path[128];

	cJSON_AddItemToObject(l, "resources", resources(c, o->cpus));
	snprintf(path, sizeof(path), "/%s", o->cgroup ? o->cgroup : o->id);
	if (strcmp(c->cgroups, "off"))
		cJSON_AddStringToObject(l, "cgroupsPath", path);
	ns = cJSON_AddArrayToObject(l, "namespaces");
	add_namespace(ns, "pid", NULL);
	add_namespace(ns, "network", o->netns_path);
	add_namespace(ns, "ipc", NULL);
	add_namespace(ns, "uts", NULL);
	add_namespace(ns, "mount", NULL);
	cJSON_AddItemToObject(l, "maskedPaths", ARRAY(masked));
	cJSON_AddItemToObject(l, "readonlyPaths", ARRAY(readonly));
	if (strcmp(c->seccomp, "off"))
		cJSON_AddItemToObject(l, "seccomp", oci_seccomp_profile());
	return l;
}

static cJSON *config_json(const struct cell *c, const struct oci_bundle_opts *o)
{
	cJSON *j = cJSON_CreateObject(), *root;

	cJSON_AddStringToObject(j, "ociVersion", "1.0.2");
	cJSON_AddItemToObject(j, "process", process(c, o->digest, !!o->base, o->seed_layer,
						      !!o->svc_dir));
	root = cJSON_AddObjectToObject(j, "root");
	/* a shared cached tree is never written: read-only, /tmp a tmpfs */
	cJSON_AddStringToObject(root, "path", o->base ? o->base : o->rootfs);
	cJSON_AddBoolToObject(root, "readonly", !!o->base);
	cJSON_AddStringToObject(j, "hostname", "cvmfn");
	cJSON_AddItemToObject(j, "mounts", mounts(o));
	cJSON_AddItemToObject(j, "linux", linux_section(c, o));
	if (o->seccomp_bpf)       /* crun installs it and ignores linux.seccomp */
		cJSON_AddStringToObject(cJSON_AddObjectToObject(j, "annotations"),
					"run.oci.seccomp_bpf_data", o->seccomp_bpf);
	return j;
}

int oci_bundle_write(const struct cell *c, const struct oci_bundle_opts *o,
		     char *err, size_t errlen)
{
	cJSON *j = config_json(c, o);
	char *text = j ? cJSON_Print(j) : NULL, path[PATH_MAX];
	FILE *f = NULL;
	int ret = 0;

	cJSON_Delete(j);
	if (!text) {
		snprintf(err, errlen, "cannot build config.json: out of memory");
		return -ENOMEM;
	}
	snprintf(path, sizeof(path), "%s/config.json", o->dir);
	if (mkdir(o->dir, 0700) || !(f = fopen(path, "we")) || fputs(text, f) < 0)
		ret = -errno;
	if (f && fclose(f) && !ret)
		ret = -errno;
	free(text);
	if (ret) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-ret));
		state_dir_remove_tree(o->dir);
	}
	return ret;
}
