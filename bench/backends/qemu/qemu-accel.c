// SPDX-License-Identifier: MIT
/*
 * qemu-accel.c - `accel = auto` made honest. Opening /dev/kvm is not
 * enough: on a nested host QEMU can open it and still abort at the first
 * vCPU reset (QEMU 7.2, -cpu host: "failed to set MSR 0x10a"). A probe of
 * our own (KVM_CREATE_VM, KVM_CREATE_VCPU, KVM_SET_MSRS) would test one
 * known failure, not QEMU's; so auto starts the cell's own VM under KVM,
 * and only when QEMU ends before the guest's first console byte, saying
 * something about KVM or an MSR, starts it again: first under KVM with the
 * other CPU models of kvm_cpu_retries (when the cell left cpu = auto),
 * then under TCG. Each failed try costs one QEMU start; the outcome (the
 * model KVM took, or none) is remembered for the rest of the process per
 * QEMU binary, so later VMs and cells start with it at once. A guest
 * that got as far as its console is never restarted (its failure is the
 * guest's, not the accelerator's), nor is a CVM (it needs KVM), nor an
 * accelerator the cell asked for. qemu_accel_for_cell() is the one place
 * that decides which accelerator and model a cell starts under.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cvm-host.h"
#include "qemu-accel.h"
#include "qemu-argv.h"
#include "qemu-cell.h"

/*
 * The -cpu models tried under KVM after "host", in order. QEMU writes
 * MSR_IA32_ARCH_CAPABILITIES (0x10a) at every vCPU reset whenever KVM lists
 * that MSR, whatever the model (target/i386/kvm/kvm.c, kvm_init_msrs():
 * has_msr_arch_capabs comes from KVM_GET_MSR_INDEX_LIST), with the model's
 * FEAT_ARCH_CAPABILITIES word: for "host" what KVM reports as supported.
 * -arch-capabilities clears that whole word (cpu.c, feature_dependencies),
 * so QEMU writes 0, the value of a CPU without the MSR, and everything
 * else of "host" stays. qemu64 writes 0 there too and, having no PDCM, no
 * VMX and no PMU, none of PERF_CAPABILITIES or the VMX capability MSRs: the
 * last try, for a host that also refuses one of those. max,-arch-capabilities
 * is not tried: under KVM max takes KVM's features as host does, so QEMU
 * writes the same MSRs.
 */
static const char *const kvm_cpu_retries[] = { "host,-arch-capabilities", "qemu64" };
#define N_RETRIES (sizeof(kvm_cpu_retries) / sizeof(kvm_cpu_retries[0]))

/* What auto found under KVM for one QEMU binary (cpu = auto cells), for the process. */
static struct {
	int set;
	char qemu[256];     /* the cells' qemu key ("" = from PATH) */
	char cpu[64];       /* the model KVM took; "" = none: tcg */
	char why[1024];     /* how it was found */
} memo;

/* memo.why, as said of a later VM or cell. */
static void memo_reason(char *buf, size_t len)
{
	snprintf(buf, len, "found earlier in this process: %.960s", memo.why);
}

void qemu_accel_forget(void)
{
	memset(&memo, 0, sizeof(memo));
}

static int memo_applies(const struct cell *c)
{
	return memo.set && !strcmp(c->cpu, "auto") && !strcmp(memo.qemu, c->qemu);
}

/* The model this process found KVM takes for @c's QEMU, or NULL. */
static const char *memo_model(const struct cell *c)
{
	return memo_applies(c) && memo.cpu[0] ? memo.cpu : NULL;
}

static void memo_keep(const struct cell *c, const char *cpu, const char *why)
{
	if (strcmp(c->cpu, "auto"))
		return;
	memo.set = 1;
	snprintf(memo.qemu, sizeof(memo.qemu), "%s", c->qemu);
	snprintf(memo.cpu, sizeof(memo.cpu), "%s", cpu ? cpu : "");
	snprintf(memo.why, sizeof(memo.why), "%s", why);
}

/* QEMU's own first line out of vm_start()'s message ("QEMU said: ..."). */
static void qemu_said(const char *err, char *out, size_t len)
{
	const char *p = strstr(err, "QEMU said: ");

	out[0] = '\0';
	if (!p)
		return;
	p += strlen("QEMU said: ");
	snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
}

static int kvm_failed_early(const struct vm *vm, int ret, const char *err)
{
	char said[512];

	if (ret != -ECHILD || vm->ph.first_console >= 0)
		return 0;
	qemu_said(err, said, sizeof(said));
	return strcasestr(said, "kvm") != NULL || strstr(said, "MSR") != NULL;
}

/* The model @vc's argv gives (QEMU's default where it gives none). */
static const char *argv_cpu(const struct vm_config *vc)
{
	const char *cpu = qemu_argv_cpu(vc);

	return cpu ? cpu : QEMU_TCG_DEFAULT_CPU;
}

void qemu_accel_vm_config(const struct qemu_accel *acc, struct vm_config *vc)
{
	vc->accel = acc->used;
	if (acc->cpu_arg[0])
		vc->cpu = acc->cpu_arg;
}

/* vm_start() @vc under @accel with -cpu @cpu (NULL: @vc's own), recording both. */
static int start_as(const char *accel, const char *cpu, double timeout_s, struct vm *vm,
		    struct vm_config *vc, struct qemu_accel *acc, char *err, size_t errlen)
{
	snprintf(acc->used, sizeof(acc->used), "%s", accel);
	snprintf(acc->cpu_arg, sizeof(acc->cpu_arg), "%s", cpu ? cpu : "");
	qemu_accel_vm_config(acc, vc);
	snprintf(acc->cpu, sizeof(acc->cpu), "%s", argv_cpu(vc));
	return vm_start(vm, vc, timeout_s, err, errlen);
}

/* The models auto tries under KVM, into @m (NULL: the cell's own): how many. */
static size_t kvm_models(const struct cell *c, const char *m[1 + N_RETRIES])
{
	size_t i;

	if (memo_model(c)) {
		m[0] = memo.cpu;
		return 1;
	}
	m[0] = NULL;
	if (strcmp(c->cpu, "auto"))
		return 1;
	for (i = 0; i < N_RETRIES; i++)
		m[1 + i] = kvm_cpu_retries[i];
	return 1 + N_RETRIES;
}

/* After a KVM start that worked with model @i of @n: why this model. */
static void kvm_took(const struct cell *c, struct qemu_accel *acc, size_t i,
		     const char *tried)
{
	if (acc->fallback)
		snprintf(acc->reason, sizeof(acc->reason),
			 "auto: kvm, /dev/kvm opens and the guest booted under KVM");
	if (memo_model(c))
		memo_reason(acc->cpu_reason, sizeof(acc->cpu_reason));
	else if (strcmp(c->cpu, "auto"))
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason), "asked (cpu = %s)", c->cpu);
	else if (!i)
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason),
			 "cpu = auto under KVM: host, and KVM took it");
	else
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason), "cpu = auto under KVM: the "
			 "first model KVM took; QEMU ended before the guest's console with %s",
			 tried);
	if (!memo_model(c) && i)   /* host took it: nothing to remember (memo.cpu "" is tcg) */
		memo_keep(c, acc->cpu_arg, acc->cpu_reason);
}

/* Append "MODEL: QEMU's line" of a failed KVM try to @tried. */
static void note_try(char *tried, size_t len, const char *cpu, const char *err)
{
	char said[512];
	size_t o = strlen(tried);

	qemu_said(err, said, sizeof(said));
	snprintf(tried + o, len - o, "%s%s: %.160s", o ? "; " : "", cpu, said);
}

/*
 * No model worked under KVM (@why says how: QEMU ended early with each, or
 * the guest stayed silent): TCG with the cell's own -cpu.
 */
static int start_tcg(const struct cell *c, double timeout_s, struct vm *vm,
		     struct vm_config *vc, const char *cell_cpu, struct qemu_accel *acc,
		     const char *why, char *err, size_t errlen)
{
	int ret;

	vc->cpu = cell_cpu;
	snprintf(acc->reason, sizeof(acc->reason), "auto: tcg, %s", why);
	memo_keep(c, NULL, acc->reason);
	ret = start_as("tcg", NULL, timeout_s, vm, vc, acc, err, errlen);
	if (cell_cpu)
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason), "asked (cpu = %s)", cell_cpu);
	else
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason),
			 "no -cpu under TCG: QEMU's default model");
	return ret;
}

/*
 * Under accel = auto, a guest that prints nothing on its console for this
 * long under KVM does not boot under this machine's KVM (a nested KVM that
 * opens and runs toy guests but not Linux, docs/backends/qemu.md): TCG
 * then. A guest that boots under KVM prints within a second or two.
 */
#define KVM_SILENT_S 20.0

/* Did the guest stay silent under KVM until the try's deadline? */
static int kvm_silent(const struct vm *vm, int ret)
{
	return ret == -ETIMEDOUT && vm->ph.first_console < 0;
}

/*
 * A regular or model VM under KVM (auto where /dev/kvm opens, or kvm as
 * asked): the models of kvm_models() in turn while QEMU dies early, then
 * TCG where the cell's accel is auto (@acc->fallback), also at once when
 * the guest stays silent under KVM for KVM_SILENT_S.
 */
static int start_kvm_or_tcg(const struct cell *c, double timeout_s, struct vm *vm,
			    struct vm_config *vc, struct qemu_accel *acc, char *err,
			    size_t errlen)
{
	const char *m[1 + N_RETRIES], *cell_cpu = vc->cpu;
	char tried[1024] = "", why[1200];
	size_t i, n = kvm_models(c, m);
	double t = acc->fallback && timeout_s > KVM_SILENT_S ? KVM_SILENT_S : timeout_s;
	int ret;

	for (i = 0; i < n; i++) {
		vc->cpu = cell_cpu;
		ret = start_as("kvm", m[i], t, vm, vc, acc, err, errlen);
		if (ret == -ETIMEDOUT && t < timeout_s && !kvm_silent(vm, ret))
			ret = start_as("kvm", m[i], timeout_s, vm, vc, acc, err, errlen);
		if (!ret) {
			kvm_took(c, acc, i, tried);
			return 0;
		}
		if (acc->fallback && kvm_silent(vm, ret)) {
			snprintf(why, sizeof(why), "under KVM the guest printed nothing on its "
				 "console within %.0f s (-cpu %s)", t, acc->cpu);
			return start_tcg(c, timeout_s, vm, vc, cell_cpu, acc, why, err, errlen);
		}
		if (!kvm_failed_early(vm, ret, err)) {
			if (acc->fallback)
				snprintf(acc->reason, sizeof(acc->reason), "auto: kvm, /dev/kvm "
					 "opens (the VM failed after QEMU started under KVM)");
			snprintf(acc->cpu_reason, sizeof(acc->cpu_reason), "the model of the "
				 "last KVM try (%s)", tried[0] ? tried : "the first");
			return ret;
		}
		note_try(tried, sizeof(tried), acc->cpu, err);
	}
	if (!acc->fallback) {
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason), "cpu = auto under KVM: KVM "
			 "took no model (%s)", tried);
		return ret;
	}
	snprintf(why, sizeof(why), "QEMU under KVM ended before the guest's first console "
		 "byte (%s)", tried);
	return start_tcg(c, timeout_s, vm, vc, cell_cpu, acc, why, err, errlen);
}

/* The model a cell starting under @acc->used gets, and why, before anything runs. */
static void plan_cpu(const struct cell *c, struct qemu_accel *acc)
{
	struct vm_config v = { .accel = acc->used, .cvm = qemu_cell_cvm(c) };

	v.cpu = strcmp(c->cpu, "auto") ? c->cpu : NULL;
	qemu_accel_vm_config(acc, &v);
	snprintf(acc->cpu, sizeof(acc->cpu), "%s", argv_cpu(&v));
	if (v.cpu && !acc->cpu_arg[0])
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason), "asked (cpu = %s)", c->cpu);
	else if (acc->cpu_arg[0])
		memo_reason(acc->cpu_reason, sizeof(acc->cpu_reason));
	else if (v.cvm && strcmp(acc->cpu, "host"))
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason), "cpu = auto: %s's model",
			 v.cvm);
	else if (!strcmp(acc->used, "kvm"))
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason), "cpu = auto under KVM: "
			 "host%s", acc->cpu_retry ? " (untested: a run tries it first)" : "");
	else
		snprintf(acc->cpu_reason, sizeof(acc->cpu_reason),
			 "no -cpu under TCG: QEMU's default model");
}

/* accel = kvm or tcg, as asked: never changed; kvm only where /dev/kvm opens. */
static int accel_asked(const struct cell *c, struct qemu_accel *acc)
{
	snprintf(acc->used, sizeof(acc->used), "%s", c->accel);
	snprintf(acc->reason, sizeof(acc->reason), "asked (accel = %s)", c->accel);
	if (strcmp(c->accel, "kvm"))
		return 1;
	if (cvm_host_kvm_opens(acc->host, sizeof(acc->host))) {
		acc->cpu_retry = !qemu_cell_cvm(c) && !strcmp(c->cpu, "auto");
		if (acc->cpu_retry && memo_model(c))
			snprintf(acc->cpu_arg, sizeof(acc->cpu_arg), "%s", memo.cpu);
		return 1;
	}
	snprintf(acc->reason, sizeof(acc->reason), "accel = kvm: %s", acc->host);
	return 0;
}

/* auto, a regular or model VM where /dev/kvm opens: KVM, or what this process found. */
static void auto_on_kvm(const struct cell *c, struct qemu_accel *acc)
{
	snprintf(acc->host, sizeof(acc->host), "/dev/kvm opens");
	if (memo_applies(c) && !memo.cpu[0]) {
		snprintf(acc->used, sizeof(acc->used), "tcg");
		memo_reason(acc->reason, sizeof(acc->reason));
		return;
	}
	snprintf(acc->used, sizeof(acc->used), "kvm");
	snprintf(acc->reason, sizeof(acc->reason), "auto: kvm, /dev/kvm opens");
	if (memo_model(c))
		snprintf(acc->cpu_arg, sizeof(acc->cpu_arg), "%s", memo.cpu);
	acc->fallback = 1;
	acc->cpu_retry = !strcmp(c->cpu, "auto");
}

static int decide(const struct cell *c, struct qemu_accel *acc)
{
	const char *cvm = qemu_cell_cvm(c);

	if (strcmp(c->accel, "auto"))
		return accel_asked(c, acc);
	if (cvm) {
		snprintf(acc->used, sizeof(acc->used), "kvm");
		snprintf(acc->reason, sizeof(acc->reason), "auto: kvm, a %s guest needs KVM",
			 cvm);
		return 1;
	}
	if (!cvm_host_kvm_opens(acc->host, sizeof(acc->host))) {
		snprintf(acc->used, sizeof(acc->used), "tcg");
		snprintf(acc->reason, sizeof(acc->reason), "auto: tcg, %s", acc->host);
		return 1;
	}
	auto_on_kvm(c, acc);
	return 1;
}

int qemu_accel_for_cell(const struct cell *c, struct qemu_accel *acc)
{
	int ok;

	memset(acc, 0, sizeof(*acc));
	ok = decide(c, acc);
	plan_cpu(c, acc);
	return ok;
}

int qemu_accel_start(const struct cell *c, struct vm *vm, struct vm_config *vc,
		     double timeout_s, struct qemu_accel *acc, char *err, size_t errlen)
{
	qemu_accel_for_cell(c, acc);
	if (acc->fallback || acc->cpu_retry)
		return start_kvm_or_tcg(c, timeout_s, vm, vc, acc, err, errlen);
	qemu_accel_vm_config(acc, vc);
	return vm_start(vm, vc, timeout_s, err, errlen);
}

void qemu_accel_note(const struct qemu_accel *acc,
		     void (*note)(void *ctx, const char *key, const char *value), void *ctx)
{
	note(ctx, "qemu.accel", acc->used);
	note(ctx, "qemu.accel_reason", acc->reason);
	note(ctx, "qemu.cpu", acc->cpu);
	note(ctx, "qemu.cpu_reason", acc->cpu_reason);
}

void qemu_accel_env_facts(env_emit_fn emit, void *ctx)
{
	static const char src[] = "qemu_accel_for_cell(): accel = auto, cpu = auto, no VM started";
	struct qemu_accel acc;
	struct cell c;
	char v[2400];

	memset(&c, 0, sizeof(c));
	snprintf(c.accel, sizeof(c.accel), "auto");
	snprintf(c.cpu, sizeof(c.cpu), "auto");
	snprintf(c.confidential, sizeof(c.confidential), "none");
	qemu_accel_for_cell(&c, &acc);
	snprintf(v, sizeof(v), "%s (%s%s)", acc.used, acc.reason,
		 acc.fallback ? "; untested: a run starts QEMU to know" : "");
	emit(ctx, "qemu.accel", v, src);
	snprintf(v, sizeof(v), "%s (%s%s)", acc.cpu, acc.cpu_reason, acc.cpu_retry ?
		 "; if QEMU dies under KVM before the guest's console: host,-arch-capabilities, "
		 "then qemu64, then tcg; tcg also if the guest prints nothing for 20 s" : "");
	emit(ctx, "qemu.cpu", v, src);
}
