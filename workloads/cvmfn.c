// SPDX-License-Identifier: MIT
/*
 * cvmfn.c - the static function runner: `cvmfn list | run | prepare | serve`.
 * It hosts one workload in a process, a container or a guest, and is the
 * only thing cvmbench needs inside any of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "memstat.h"
#include "pyapp.h"
#include "protocol.h"
#include "serve.h"
#include "wlclock.h"
#include "wlfile.h"
#include "workload.h"
#include "zygote.h"

struct cvmfn_opts {
	struct wl_params params;
	struct wl_digest_policy digest;   /* which calls are hashed */
	int repeat;
	int json;
	int python;                       /* --runtime python */
	const char *layer;                /* seed: --layer */
	int children;                     /* fork-check: --children */
};

static const char usage_text[] =
	"usage: cvmfn list [--json]\n"
	"       cvmfn run NAME [options]      run the function and print its digest\n"
	"       cvmfn prepare NAME [options]  write its model and data files\n"
	"       cvmfn serve NAME [options]    warm instance on stdin/stdout (protocol.h)\n"
	"       cvmfn check NAME --runtime python  python3 has its Python twin's modules\n"
	"                                     (exit 0, or 4 naming a missing package)\n"
	"       cvmfn seed NAME --layer bare|runtime|warm [options]\n"
	"                                     a seed forking instances (zygote.h) on\n"
	"                                     the Unix socket on stdin\n"
	"       cvmfn fork-check NAME [--children N] [options]\n"
	"                                     fork N children (default 4) from each\n"
	"                                     layer; exit 1 if any drew what another did\n"
	"                                     (seed, fork-check with --runtime python:\n"
	"                                     the Python seed, workloads/python/seed.py)\n"
	"options:\n"
	"  --size test|small|large   input size (default test)\n"
	"  --seed N                  seed of model and inputs (default 1)\n"
	"  --threads N               worker threads (default: online CPUs)\n"
	"  --wait spin|block|hybrid[:US]  how idle workers wait (default hybrid:200)\n"
	"  --repeat N                invocations for run (default 1)\n"
	"  --digest every|first|N    hash the output of every call, the first only,\n"
	"                            or the first and every N-th (default every);\n"
	"                            hashing is never inside the timed window\n"
	"  --data-dir DIR            model and data files (default $" DATA_DIR_ENV " or "
	DATA_DIR_DEFAULT ")\n"
	"  --scratch-dir DIR         where compression, crud-api and random-disk-io\n"
	"                            write their scratch files (default: the data dir)\n"
	"  --prepare                 create missing model/data files (run, serve)\n"
	"  --variant NAME            workload variant (e.g. resnet152)\n"
	"  --input PATH --output PATH  user input / output (a function that writes\n"
	"                            no file, null and hello-world, refuses --output)\n"
	"  --key HEX --iv HEX        pyaes key and IV, 32 hex digits each\n"
	"  --json                    machine-readable output\n"
	"  --runtime c|python        the C function (default) or its Python twin\n"
	"                            (run, serve: " PYAPP_INTERPRETER " on the handler\n"
	"                            inside cvmfn; prepare writes its inputs either way)\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "cvmfn: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage_text);
	return CVMFN_EXIT_USAGE;
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static int cmd_list(int json)
{
	size_t i;

	if (json)
		printf("[");
	for (i = 0; i < workload_count(); i++) {
		const struct workload_info *w = workload_at(i);
		int threads = workload_ops_at(i)->uses_threads;

		if (!json) {
			printf("%-22s %-16s %s\n", w->name, w->origin, w->description);
			continue;
		}
		printf("%s{\"name\":", i ? "," : "");
		json_string(stdout, w->name);
		printf(",\"origin\":");
		json_string(stdout, w->origin);
		printf(",\"description\":");
		json_string(stdout, w->description);
		printf(",\"threads\":%s}", threads ? "true" : "false");
	}
	if (json)
		printf("]\n");
	return 0;
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

enum { OPT_SIZE = 256, OPT_SEED, OPT_THREADS, OPT_WAIT, OPT_REPEAT,
       OPT_DATA_DIR, OPT_SCRATCH_DIR, OPT_PREPARE, OPT_VARIANT, OPT_INPUT, OPT_OUTPUT,
       OPT_KEY, OPT_IV, OPT_JSON, OPT_DIGEST, OPT_RUNTIME, OPT_LAYER, OPT_CHILDREN,
       OPT_HELP };

static const struct option long_opts[] = {
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "wait", required_argument, NULL, OPT_WAIT },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "data-dir", required_argument, NULL, OPT_DATA_DIR },
	{ "scratch-dir", required_argument, NULL, OPT_SCRATCH_DIR },
	{ "prepare", no_argument, NULL, OPT_PREPARE },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "input", required_argument, NULL, OPT_INPUT },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "key", required_argument, NULL, OPT_KEY },
	{ "iv", required_argument, NULL, OPT_IV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "digest", required_argument, NULL, OPT_DIGEST },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "layer", required_argument, NULL, OPT_LAYER },
	{ "children", required_argument, NULL, OPT_CHILDREN },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static int apply_number_opt(int opt, const char *arg, struct cvmfn_opts *o)
{
	long v;

	switch (opt) {
	case OPT_SEED:
		if (parse_long(arg, 0, 0x7fffffffffffffffL, &v))
			return usage_error("bad --seed '%s': a non-negative integer", arg);
		o->params.seed = (uint64_t)v;
		return 0;
	case OPT_THREADS:
		if (parse_long(arg, 0, 1024, &v))
			return usage_error("bad --threads '%s': 0 (= CPUs) to 1024", arg);
		o->params.threads = (int)v;
		return 0;
	case OPT_CHILDREN:
		if (parse_long(arg, 2, 256, &v))
			return usage_error("bad --children '%s': 2 to 256", arg);
		o->children = (int)v;
		return 0;
	default:
		if (parse_long(arg, 1, 100000000, &v))
			return usage_error("bad --repeat '%s': 1 or more", arg);
		o->repeat = (int)v;
		return 0;
	}
}

static int apply_opt(int opt, const char *arg, struct cvmfn_opts *o)
{
	switch (opt) {
	case OPT_SIZE:
		if (wl_size_parse(arg, &o->params.size))
			return usage_error("bad --size '%s': test, small or large", arg);
		return 0;
	case OPT_SEED: case OPT_THREADS: case OPT_REPEAT: case OPT_CHILDREN:
		return apply_number_opt(opt, arg, o);
	case OPT_WAIT:
		if (pool_wait_parse(arg, &o->params.wait))
			return usage_error("bad --wait '%s': spin, block or hybrid[:MICROSECONDS]", arg);
		return 0;
	case OPT_DATA_DIR: o->params.data_dir = arg; return 0;
	case OPT_SCRATCH_DIR: o->params.scratch_dir = arg; return 0;
	case OPT_PREPARE: o->params.prepare = 1; return 0;
	case OPT_VARIANT: o->params.variant = arg; return 0;
	case OPT_INPUT: o->params.input = arg; return 0;
	case OPT_OUTPUT: o->params.output = arg; return 0;
	case OPT_KEY: o->params.key_hex = arg; return 0;
	case OPT_IV: o->params.iv_hex = arg; return 0;
	case OPT_JSON: o->json = 1; return 0;
	case OPT_DIGEST:
		if (wl_digest_policy_parse(arg, &o->digest))
			return usage_error("bad --digest '%s': every, first or a count N >= 1", arg);
		return 0;
	case OPT_RUNTIME:
		if (strcmp(arg, "c") && strcmp(arg, "python"))
			return usage_error("bad --runtime '%s': c or python", arg);
		o->python = !strcmp(arg, "python");
		return 0;
	case OPT_LAYER: o->layer = arg; return 0;
	case OPT_HELP: fputs(usage_text, stdout); return -1;
	default: return usage_error("%s", "unknown option");
	}
}

static int parse_opts(int argc, char **argv, struct cvmfn_opts *o)
{
	const char *env_dir = getenv(DATA_DIR_ENV);
	int opt, err;

	memset(o, 0, sizeof(*o));
	o->params.seed = 1;
	o->params.wait = (struct pool_wait){ POOL_WAIT_HYBRID, POOL_DEFAULT_SPIN_US };
	o->params.data_dir = env_dir && *env_dir ? env_dir : DATA_DIR_DEFAULT;
	o->repeat = 1;
	o->digest.every = 1;
	o->children = 4;
	optind = 2;
	while ((opt = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		err = apply_opt(opt, optarg, o);
		if (err)
			return err;
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	return 0;
}

struct run_result {
	long long init_ns;
	long long fn_ns_first, fn_ns_min, fn_ns_total;
	int digests;                        /* calls hashed */
	long long digest_ns_first, digest_ns_min;
	int outputs;                        /* calls that wrote --output */
	long long output_ns_first, output_ns_min;
	char digest[DIGEST_HEX_LEN];
	struct memstat mem;
};

static void print_run(const struct wl_instance *inst, const struct cvmfn_opts *o,
		      const struct run_result *r)
{
	char wait[32];

	pool_wait_format(&inst->params.wait, wait, sizeof(wait));
	if (!o->json) {
		printf("%s size=%s seed=%llu threads=%d wait=%s\n", inst->ops->info->name,
		       wl_size_name(inst->params.size),
		       (unsigned long long)inst->params.seed, pool_threads(inst->pool), wait);
		printf("init %.3f ms, rss %ld KiB, pss %ld KiB\n", r->init_ns / 1e6,
		       r->mem.rss_kb, r->mem.pss_kb);
		printf("invoke x%d: first %.3f ms, min %.3f ms, mean %.3f ms\n", o->repeat,
		       r->fn_ns_first / 1e6, r->fn_ns_min / 1e6,
		       r->fn_ns_total / 1e6 / o->repeat);
		printf("sha256 x%d (not in the times above): first %.3f ms, min %.3f ms\n",
		       r->digests, r->digest_ns_first / 1e6, r->digest_ns_min / 1e6);
		if (r->outputs)
			printf("output x%d (not in the times above): first %.3f ms, min %.3f ms\n",
			       r->outputs, r->output_ns_first / 1e6, r->output_ns_min / 1e6);
		if (inst->summary[0])
			printf("result: %s\n", inst->summary);
		printf("digest %s\n", r->digest);
		return;
	}
	printf("{\"workload\":");
	json_string(stdout, inst->ops->info->name);
	printf(",\"size\":\"%s\",\"seed\":%llu,\"threads\":%d,\"wait\":\"%s\","
	       "\"init_ns\":%lld,\"rss_kb\":%ld,\"pss_kb\":%ld,\"repeat\":%d,"
	       "\"fn_ns_first\":%lld,\"fn_ns_min\":%lld,\"fn_ns_mean\":%lld,"
	       "\"digests\":%d,\"digest_ns_first\":%lld,\"digest_ns_min\":%lld,"
	       "\"outputs\":%d,\"output_ns_first\":%lld,\"output_ns_min\":%lld,\"summary\":",
	       wl_size_name(inst->params.size), (unsigned long long)inst->params.seed,
	       pool_threads(inst->pool), wait, r->init_ns, r->mem.rss_kb, r->mem.pss_kb,
	       o->repeat, r->fn_ns_first, r->fn_ns_min, r->fn_ns_total / o->repeat,
	       r->digests, r->digest_ns_first, r->digest_ns_min,
	       r->outputs, r->output_ns_first, r->output_ns_min);
	json_string(stdout, inst->summary);
	printf(",\"digest\":\"%s\"}\n", r->digest);
}

/* Hash call @i's output after its time was taken; every digest must agree. */
static int check_digest(struct wl_instance *inst, const struct wl_output *out, int i,
			struct run_result *r)
{
	char hex[DIGEST_HEX_LEN];
	long long t0 = wl_now_ns(), dt;
	int err = wl_output_digest(out, hex);

	dt = wl_now_ns() - t0;
	if (err)
		return wl_error(inst, err, "cannot digest the output: %s", strerror(-err));
	if (r->digests++ == 0) {
		memcpy(r->digest, hex, sizeof(hex));
		r->digest_ns_first = r->digest_ns_min = dt;
	} else if (strcmp(hex, r->digest)) {
		return wl_error(inst, -EPROTO, "invocation %d gave digest %s, the first gave %s",
				i + 1, hex, r->digest);
	}
	if (dt < r->digest_ns_min)
		r->digest_ns_min = dt;
	return 0;
}

/* Write call @i's files (--output) after its time was taken, timed apart. */
static int write_files(struct wl_instance *inst, const struct wl_output *out,
		       struct run_result *r)
{
	long long t0, dt;
	int err;

	if (!out->nfile)
		return 0;
	t0 = wl_now_ns();
	err = wl_output_write_files(inst, out);
	dt = wl_now_ns() - t0;
	if (err)
		return err;
	if (r->outputs++ == 0)
		r->output_ns_first = r->output_ns_min = dt;
	else if (dt < r->output_ns_min)
		r->output_ns_min = dt;
	return 0;
}

static int invoke_repeatedly(struct wl_instance *inst, const struct cvmfn_opts *o,
			     struct wl_output *out, struct run_result *r)
{
	int i, err;

	for (i = 0; i < o->repeat; i++) {
		long long t0, dt;

		wl_output_reset(out);
		t0 = wl_now_ns();
		err = inst->ops->invoke(inst, out);
		dt = wl_now_ns() - t0;
		if (!err && out->err)
			err = wl_error(inst, out->err, "cannot record the output: %s",
				       strerror(-out->err));
		if (!err)
			err = write_files(inst, out, r);
		if (err)
			return err;
		if (i == 0)
			r->fn_ns_first = r->fn_ns_min = dt;
		if (dt < r->fn_ns_min)
			r->fn_ns_min = dt;
		r->fn_ns_total += dt;
		if (wl_digest_due(&o->digest, (unsigned long)i)) {
			err = check_digest(inst, out, i, r);
			if (err)
				return err;
		}
	}
	return 0;
}

static int cmd_run(const struct workload_ops *ops, const struct cvmfn_opts *o,
		   int invoke)
{
	struct run_result r = { 0 };
	struct wl_output out = { 0 };
	struct wl_instance inst;
	long long t0 = wl_now_ns();
	int err = wl_instance_open(&inst, ops, &o->params);

	if (err) {
		fprintf(stderr, "cvmfn: %s\n", inst.error);
		return CVMFN_EXIT_INIT;
	}
	r.init_ns = wl_now_ns() - t0;
	memstat_read(0, &r.mem);
	if (invoke) {
		err = invoke_repeatedly(&inst, o, &out, &r);
		if (err)
			fprintf(stderr, "cvmfn: %s: %s\n", ops->info->name,
				inst.error[0] ? inst.error : strerror(-err));
		else
			print_run(&inst, o, &r);
	} else if (ops->export_inputs && (err = ops->export_inputs(&inst))) {
		fprintf(stderr, "cvmfn: %s: exporting the inputs: %s\n", ops->info->name,
			inst.error[0] ? inst.error : strerror(-err));
	} else {
		printf("prepared %s (size %s, seed %llu) in %s\n", ops->info->name,
		       wl_size_name(o->params.size), (unsigned long long)o->params.seed,
		       o->params.data_dir);
	}
	wl_instance_close(&inst);
	wl_output_free(&out);
	return err ? CVMFN_EXIT_FAILED : CVMFN_EXIT_OK;
}

/* `cvmfn prepare` with its line on stdout left out (serve's stdout is the protocol). */
static int prepare_quietly(const struct workload_ops *ops, struct cvmfn_opts *o)
{
	int saved = dup(1), devnull = open("/dev/null", O_WRONLY), err;

	if (saved < 0 || devnull < 0 || dup2(devnull, 1) < 0)
		return CVMFN_EXIT_INIT;
	err = cmd_run(ops, o, 0);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(devnull);
	return err ? CVMFN_EXIT_INIT : 0;
}

/* The Python twin in this process's place; returns only if it cannot start. */
static int run_python(const char *cmd, char **argv)
{
	char err[512];

	pyapp_exec(argv, err, sizeof(err));
	if (!strcmp(cmd, "serve"))
		dprintf(1, "error %s\n", err);
	else if (!strcmp(cmd, "seed"))
		dprintf(0, "error %s\n", err);    /* a record on the seed's socket */
	else
		fprintf(stderr, "cvmfn: %s\n", err);
	return CVMFN_EXIT_INIT;
}

/*
 * seed and fork-check: before any set-up, which is the layers' to do
 * (zygote.c); --runtime python: the Python seed (python/seed.py, forkcheck.py).
 */
static int cmd_seed(const char *cmd, const struct workload_ops *ops, struct cvmfn_opts *o,
		    char **argv)
{
	enum seed_layer layer;

	if (o->python && !strcmp(cmd, "fork-check"))
		return run_python(cmd, argv);
	if (!strcmp(cmd, "fork-check")) {
		fork_manifest_print(ops->info->name);
		return zygote_fork_check(ops, &o->params, o->children);
	}
	if (!o->layer || seed_layer_parse(o->layer, &layer))
		return usage_error("seed needs --layer bare, runtime or warm (got '%s')",
				   o->layer ? o->layer : "none");
	if (o->python)
		return run_python(cmd, argv);
	return zygote_seed_main(ops, &o->params, &o->digest, layer);
}

int main(int argc, char **argv)
{
	const struct workload_ops *ops;
	struct cvmfn_opts o;
	const char *cmd = argc > 1 ? argv[1] : "";
	int err;

	if (!strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(cmd, "list")) {
		if (argc > 3 || (argc == 3 && strcmp(argv[2], "--json")))
			return usage_error("unexpected argument '%s' after list", argv[argc - 1]);
		return cmd_list(argc == 3);
	}
	if (strcmp(cmd, "run") && strcmp(cmd, "prepare") && strcmp(cmd, "serve") &&
	    strcmp(cmd, "check") && strcmp(cmd, "seed") && strcmp(cmd, "fork-check"))
		return usage_error("unknown command '%s'", cmd);
	if (argc < 3 || argv[2][0] == '-')
		return usage_error("%s needs a workload name (see cvmfn list)", cmd);
	ops = workload_ops_find(argv[2]);
	if (!ops)
		return usage_error("unknown workload '%s' (see cvmfn list)", argv[2]);
	err = parse_opts(argc - 1, argv + 1, &o);
	if (err)
		return err < 0 ? 0 : err;
	if (o.params.output && ops->info->no_output) {
		fprintf(stderr, "cvmfn: %s writes no output file (its result is the digest "
			"and the summary): --output %s refused\n", argv[2], o.params.output);
		return CVMFN_EXIT_USAGE;
	}
	if (!strcmp(cmd, "seed") || !strcmp(cmd, "fork-check"))
		return cmd_seed(cmd, ops, &o, argv);
	/* libcrypto's set-up now, not in the first call's digest_ns */
	if (digest_warm()) {
		fprintf(stderr, "cvmfn: SHA-256 from libcrypto is not available\n");
		return CVMFN_EXIT_INIT;
	}
	if (!o.python && !strcmp(cmd, "check"))
		return usage_error("%s: check is for --runtime python", argv[2]);
	if (o.python && strcmp(cmd, "prepare")) {
		/* --prepare: the C side writes the inputs, then hands over */
		if (o.params.prepare && (err = prepare_quietly(ops, &o)))
			return err;
		return run_python(cmd, argv);
	}
	if (!strcmp(cmd, "prepare")) {
		o.params.prepare = 1;
		return cmd_run(ops, &o, 0);
	}
	if (!strcmp(cmd, "serve"))
		return serve_loop(ops, &o.params, &o.digest, 0, 1);
	return cmd_run(ops, &o, 1);
}
