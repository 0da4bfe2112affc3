// SPDX-License-Identifier: MIT
/*
 * kvm-reasons.c - reason tables from a parsed print fmt (kvm-reasons.h):
 * a walk of libtraceevent's print-arg tree, never of the text. A `?:`
 * whose condition is FIELD == ATOM (or !=) passes that condition down to
 * the tables of its branches.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kvm-reasons.h"
#include "tp-format.h"

#ifdef HAVE_TRACEFS
#include <event-parse.h>

struct cond {
	const char *field;
	long long value;
	int eq;
};

struct walk {
	const char *field;
	struct kvm_reasons *rs;
	unsigned long long mask;  /* the field's width: "-1" of a u32 is 0xffffffff */
	int err;
};

/* Does the value expression @a read field @field? */
static int reads_field(const struct tep_print_arg *a, const char *field)
{
	if (!a)
		return 0;
	if (a->type == TEP_PRINT_FIELD)
		return !strcmp(a->field.name, field);
	if (a->type == TEP_PRINT_OP)
		return reads_field(a->op.left, field) || reads_field(a->op.right, field);
	if (a->type == TEP_PRINT_TYPE)
		return reads_field(a->typecast.item, field);
	return 0;
}

/* FIELD == ATOM or FIELD != ATOM (either side), into @c. */
static int as_cond(const struct tep_print_arg *a, struct cond *c)
{
	const struct tep_print_arg *f, *v;

	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	if (!a || a->type != TEP_PRINT_OP ||
	    (strcmp(a->op.op, "==") && strcmp(a->op.op, "!=")))
		return 0;
	f = a->op.left;
	v = a->op.right;
	if (f && f->type == TEP_PRINT_ATOM) {
		f = a->op.right;
		v = a->op.left;
	}
	if (!f || !v || f->type != TEP_PRINT_FIELD || v->type != TEP_PRINT_ATOM)
		return 0;
	c->field = f->field.name;
	c->value = strtoll(v->atom.atom, NULL, 0);
	c->eq = !strcmp(a->op.op, "==");
	return 1;
}

static int table_add(struct walk *w, const struct cond *c)
{
	struct kvm_reason_table *t;

	if (w->rs->ntables == (int)(sizeof(w->rs->tables) / sizeof(w->rs->tables[0])))
		return -E2BIG;
	t = &w->rs->tables[w->rs->ntables];
	memset(t, 0, sizeof(*t));
	if (c && c->field) {
		snprintf(t->cond_field, sizeof(t->cond_field), "%s", c->field);
		t->cond_value = c->value;
		t->cond_eq = c->eq;
		snprintf(t->filter, sizeof(t->filter), "%s %s %lld", c->field,
			 c->eq ? "==" : "!=", c->value);
		/* kvm_exit's isa: KVM_ISA_VMX 1, KVM_ISA_SVM 2 (../shared/CVM.md) */
		if (!strcmp(c->field, "isa"))
			snprintf(t->isa, sizeof(t->isa), "%s",
				 (c->eq && c->value == 1) || (!c->eq && c->value == 2) ?
				 "vmx" : "svm");
	}
	return w->rs->ntables++;
}

static int symbols_add(struct walk *w, const struct tep_print_flag_sym *s, int table)
{
	struct kvm_reason *n;

	for (; s; s = s->next) {
		n = realloc(w->rs->r, (w->rs->n + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		w->rs->r = n;
		n = &w->rs->r[w->rs->n];
		n->code = strtoull(s->value, NULL, 0) & w->mask;
		n->name = strdup(s->str);
		n->table = table;
		if (!n->name)
			return -ENOMEM;
		w->rs->n++;
	}
	return 0;
}

static void walk(struct walk *w, const struct tep_print_arg *a, const struct cond *c)
{
	struct cond sub, neg;
	int t;

	for (; a && !w->err; a = a->next) {
		if (a->type == TEP_PRINT_SYMBOL && reads_field(a->symbol.field, w->field)) {
			t = table_add(w, c);
			w->err = t < 0 ? t : symbols_add(w, a->symbol.symbols, t);
		} else if (a->type == TEP_PRINT_OP && !strcmp(a->op.op, "?") &&
			   a->op.right && a->op.right->type == TEP_PRINT_OP &&
			   as_cond(a->op.left, &sub)) {
			neg = sub;
			neg.eq = !sub.eq;
			walk(w, a->op.right->op.left, &sub);
			walk(w, a->op.right->op.right, &neg);
		} else if (a->type == TEP_PRINT_OP) {
			walk(w, a->op.left, c);
			walk(w, a->op.right, c);
		} else if (a->type == TEP_PRINT_TYPE) {
			walk(w, a->typecast.item, c);
		}
	}
}

int kvm_reasons_read(const struct tp_format *fmt, const char *field,
		     struct kvm_reasons *out, char *err, size_t errlen)
{
	struct walk w = { field, out, ~0ULL, 0 };
	struct tep_format_field *f;

	memset(out, 0, sizeof(*out));
	f = fmt->event ? tep_find_field(fmt->event, field) : NULL;
	if (!f) {
		snprintf(err, errlen, "%s has no field %s", fmt->event ? fmt->event->name :
			 "the event", field);
		return -ENOENT;
	}
	if (f->size > 0 && f->size < 8)
		w.mask = (1ULL << (8 * f->size)) - 1;
	walk(&w, fmt->event->print_fmt.args, NULL);
	if (w.err) {
		snprintf(err, errlen, "%s: reading the reason tables: %s", fmt->event->name,
			 strerror(-w.err));
		kvm_reasons_free(out);
	}
	return w.err;
}

#else /* !HAVE_TRACEFS */

int kvm_reasons_read(const struct tp_format *fmt, const char *field,
		     struct kvm_reasons *out, char *err, size_t errlen)
{
	(void)fmt, (void)field;
	memset(out, 0, sizeof(*out));
	snprintf(err, errlen, "built without libtraceevent");
	return -ENOTSUP;
}

#endif

int kvm_reasons_load(const char *tracing_dir, const char *event, const char *field,
		     struct kvm_reasons *out, char *err, size_t errlen)
{
	struct tp_format f;
	int ret = tp_format_load(&f, tracing_dir, "kvm", event, err, errlen);

	memset(out, 0, sizeof(*out));
	ret = ret ?: kvm_reasons_read(&f, field, out, err, errlen);
	tp_format_free(&f);
	return ret;
}

int kvm_reasons_table(const struct kvm_reasons *rs, const char *isa)
{
	int i;

	for (i = 0; i < rs->ntables; i++)
		if (!strcmp(rs->tables[i].isa, isa))
			return i;
	return -1;
}

const char *kvm_reasons_name(const struct kvm_reasons *rs, int table,
			     unsigned long long code)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].table == table && rs->r[i].code == code)
			return rs->r[i].name;
	return NULL;
}

void kvm_reasons_free(struct kvm_reasons *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		free((char *)rs->r[i].name);
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

/*
 * Names of both vendors' tables (compared without case), GHCB vmgexit_*
 * sub-codes and KVM_EXIT_* of kvm_userspace_exit, by class; exact names,
 * then prefixes. Anything else is KVM_CLASS_OTHER.
 *
 * A TD's exits need no names of their own: KVM reports the TDVMCALLs
 * CPUID, HLT, I/O, RDMSR and WRMSR as those VMX reasons, #VE.RequestMMIO
 * (leaf 48, EPT_VIOLATION) as EPT_MISCONFIG and KVM hypercalls as VMCALL
 * (tdcall_to_vmx_exit_reason(), arch/x86/kvm/vmx/tdx.c), so they class as
 * a regular VM's do. What stays TDCALL mixes MapGPA (page state) with
 * GetQuote, ReportFatalError, SetupEventNotifyInterrupt and GetTdVmCallInfo,
 * and no tracepoint gives the leaf: other. MapGPA is seen on its own as
 * kvm_userspace_exit KVM_EXIT_HYPERCALL (page-state). docs/probes/vmexit.md.
 */
static const struct {
	const char *name;
	int prefix;
	enum kvm_class cls;
} classes[] = {
	{ "HLT", 0, KVM_CLASS_IDLE }, { "IDLE-HALT", 0, KVM_CLASS_IDLE },
	{ "VMGEXIT_AP_HLT_LOOP", 0, KVM_CLASS_IDLE }, { "KVM_EXIT_HLT", 0, KVM_CLASS_IDLE },
	{ "MWAIT_INSTRUCTION", 0, KVM_CLASS_IDLE }, { "MWAIT", 0, KVM_CLASS_IDLE },
	{ "IO_INSTRUCTION", 0, KVM_CLASS_IO }, { "IO", 0, KVM_CLASS_IO },
	{ "KVM_EXIT_IO", 0, KVM_CLASS_IO },
	{ "EPT_VIOLATION", 0, KVM_CLASS_MMIO }, { "EPT_MISCONFIG", 0, KVM_CLASS_MMIO },
	{ "NPF", 0, KVM_CLASS_MMIO }, { "VMGEXIT_MMIO_", 1, KVM_CLASS_MMIO },
	{ "KVM_EXIT_MMIO", 0, KVM_CLASS_MMIO },
	{ "MSR_", 1, KVM_CLASS_MSR }, { "MSR", 0, KVM_CLASS_MSR },
	{ "KVM_EXIT_X86_RDMSR", 0, KVM_CLASS_MSR }, { "KVM_EXIT_X86_WRMSR", 0, KVM_CLASS_MSR },
	{ "CPUID", 0, KVM_CLASS_CPUID },
	{ "EXTERNAL_INTERRUPT", 0, KVM_CLASS_INTERRUPT },
	{ "INTERRUPT_WINDOW", 0, KVM_CLASS_INTERRUPT }, { "NMI_WINDOW", 0, KVM_CLASS_INTERRUPT },
	{ "EXCEPTION_NMI", 0, KVM_CLASS_INTERRUPT }, { "APIC_ACCESS", 0, KVM_CLASS_INTERRUPT },
	{ "APIC_WRITE", 0, KVM_CLASS_INTERRUPT }, { "EOI_INDUCED", 0, KVM_CLASS_INTERRUPT },
	{ "TPR_BELOW_THRESHOLD", 0, KVM_CLASS_INTERRUPT },
	{ "PREEMPTION_TIMER", 0, KVM_CLASS_INTERRUPT }, { "INTERRUPT", 0, KVM_CLASS_INTERRUPT },
	{ "NMI", 0, KVM_CLASS_INTERRUPT }, { "VINTR", 0, KVM_CLASS_INTERRUPT },
	{ "AVIC_", 1, KVM_CLASS_INTERRUPT }, { "VMGEXIT_NMI_COMPLETE", 0, KVM_CLASS_INTERRUPT },
	{ "VMGEXIT_PAGE_STATE_CHANGE", 0, KVM_CLASS_PAGE_STATE },
	{ "KVM_EXIT_HYPERCALL", 0, KVM_CLASS_PAGE_STATE },
	{ "TDCALL", 0, KVM_CLASS_OTHER }, { "VMCALL", 0, KVM_CLASS_OTHER },
};

enum kvm_class kvm_reason_class(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(classes) / sizeof(classes[0]); i++)
		if (classes[i].prefix ?
		    !strncasecmp(name, classes[i].name, strlen(classes[i].name)) :
		    !strcasecmp(name, classes[i].name))
			return classes[i].cls;
	return KVM_CLASS_OTHER;
}
