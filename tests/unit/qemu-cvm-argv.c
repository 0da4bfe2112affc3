// SPDX-License-Identifier: MIT
/*
 * qemu-cvm-argv.c - golden QEMU argv of qemu cells made from config keys
 * (qemu-cell.c, qemu-argv.c, qemu-argv-cvm.c): regular TCG, regular KVM,
 * model, SEV-SNP and TDX, written out by hand from ../shared/CVM.md; and
 * the diff between a CVM cell and its regular twin (the same config with
 * confidential = none), computed option by option with -machine split at
 * its commas, which must be exactly the confidential parts. A twin that
 * differs by more (the default -cpu of sev-snp) is seen as different.
 * Memory acceptance (guest-accept, guest-accept.c): a model's prealloc=on
 * or off, a CVM kernel's accept_memory= (none for a kernel older than 6.5,
 * whose release the test's guest states; "" = unknown, the value given).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config-test.h"
#include "qemu-argv.h"
#include "qemu-cell.h"
#include "tap.h"

static const char cfg_text[] =
	"[experiment g]\n"
	"workload = hello-world\n"
	"backend = qemu\n"
	"accel = tcg, kvm\n"
	"confidential = none, model, sev-snp, tdx\n"
	"cpu = auto, EPYC-v4\n"
	"vcpus = 2\n"
	"memory = 512\n"
	"firmware = /fw/OVMF.fd\n"
	"guest-kernel = /g/vmlinuz\n"
	"guest-initrd = /g/initrd\n"
	"guest-image = /g/disk.img\n"
	"[experiment h]\n"
	"workload = hello-world\n"
	"backend = qemu\n"
	"accel = kvm\n"
	"confidential = model, sev-snp\n"
	"guest-accept = eager, lazy\n"
	"vcpus = 2\n"
	"memory = 512\n"
	"firmware = /fw/OVMF.fd\n"
	"guest-kernel = /g/vmlinuz\n"
	"guest-initrd = /g/initrd\n"
	"guest-image = /g/disk.img\n";

#define TAIL_APPEND(more) \
	"-kernel /g/vmlinuz -initrd /g/initrd -append console=ttyS0 panic=-1" more " " \
	"-chardev file,id=con0,path=/t/console -serial chardev:con0 " \
	"-device virtio-serial-pci,id=vser0 -chardev socket,id=agent0,path=/t/agent.sock " \
	"-device virtserialport,bus=vser0.0,chardev=agent0,name=org.cvmbench.0 " \
	"-drive file=/g/disk.img,format=raw,if=virtio,readonly=on"
#define TAIL TAIL_APPEND("")
#define SNP_HEAD HEAD "-object memory-backend-memfd,id=ram1,size=512M," \
	"share=true,prealloc=off -object sev-snp-guest,id=sev0,cbitpos=51," \
	"reduced-phys-bits=1,kernel-hashes=on -machine q35,confidential-guest-support=sev0," \
	"memory-backend=ram1 -accel kvm -cpu EPYC-v4 -smp 2 -m 512 -bios /fw/OVMF.fd "
#define HEAD "qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot "

static const char OLD_KERNEL[] = "6.1.0-57-cloud-amd64", NEW_KERNEL[] = "6.12.38+deb12-cloud-amd64";

static const struct golden {
	const char *accel, *conf, *cpu, *accept, *release, *argv;
} goldens[] = {
	{ "tcg", "none", "auto", "eager", "", HEAD "-machine q35 -accel tcg -smp 2 -m 512 "
	  "-bios /fw/OVMF.fd " TAIL },
	{ "kvm", "none", "auto", "eager", "", HEAD "-machine q35 -accel kvm -cpu host -smp 2 "
	  "-m 512 -bios /fw/OVMF.fd " TAIL },
	{ "tcg", "model", "auto", "eager", "", HEAD "-object memory-backend-ram,id=mem0,size=512M,"
	  "prealloc=on,merge=off -machine q35,memory-backend=mem0,mem-merge=off -accel tcg -smp 2 -m 512 "
	  "-bios /fw/OVMF.fd " TAIL },
	{ "kvm", "model", "auto", "lazy", "", HEAD "-object memory-backend-ram,id=mem0,size=512M,"
	  "prealloc=off,merge=off -machine q35,memory-backend=mem0,mem-merge=off -accel kvm -cpu host "
	  "-smp 2 -m 512 -bios /fw/OVMF.fd " TAIL },
	{ "kvm", "sev-snp", "auto", "eager", "", SNP_HEAD TAIL_APPEND(" accept_memory=eager") },
	{ "kvm", "sev-snp", "auto", "eager", OLD_KERNEL, SNP_HEAD TAIL },
	{ "kvm", "sev-snp", "auto", "eager", NEW_KERNEL, SNP_HEAD
	  TAIL_APPEND(" accept_memory=eager") },
	{ "kvm", "sev-snp", "auto", "lazy", NEW_KERNEL, SNP_HEAD TAIL_APPEND(" accept_memory=lazy") },
	{ "kvm", "tdx", "auto", "eager", "", HEAD "-object tdx-guest,id=tdx0 -machine q35,"
	  "kernel-irqchip=split,confidential-guest-support=tdx0,hpet=off -accel kvm -cpu host "
	  "-smp 2 -m 512 -bios /fw/OVMF.fd " TAIL_APPEND(" accept_memory=eager") },
};

static struct cell *cells;
static size_t ncells;
static struct qemu_guest guest = { .kernel = "/g/vmlinuz", .initrd = "/g/initrd",
				      .disk = "/g/disk.img", .source = "user" };

static const struct cell *find_accept(const char *accel, const char *conf, const char *cpu,
				      const char *accept)
{
	size_t i;

	for (i = 0; i < ncells; i++)
		if (!strcmp(cells[i].accel, accel) && !strcmp(cells[i].confidential, conf) &&
		    !strcmp(cells[i].cpu, cpu) && !strcmp(cells[i].guest_accept, accept))
			return &cells[i];
	return NULL;
}

static const struct cell *find(const char *accel, const char *conf, const char *cpu)
{
	return find_accept(accel, conf, cpu, "eager");
}

/* The argv of a cell, into @a (and joined into @line), its kernel of release @release. */
static int cell_argv_of(const struct cell *c, const char *release, struct qemu_argv *a,
			char *line, size_t len)
{
	struct vm_config vc;
	char err[256];
	int ret;

	snprintf(guest.release, sizeof(guest.release), "%s", release);
	qemu_cell_vm_config(c, c->accel, &guest, &vc);
	vc.console = "/t/console";
	vc.agent_socket = "/t/agent.sock";
	ret = qemu_argv_build(&vc, a, err, sizeof(err));
	if (ret)
		printf("# %s\n", err);
	else
		qemu_argv_join(a, line, len);
	return ret;
}

static int cell_argv(const struct cell *c, struct qemu_argv *a, char *line, size_t len)
{
	return cell_argv_of(c, "", a, line, len);
}

static void test_goldens(void)
{
	static struct qemu_argv a;
	char line[8192];
	size_t i;

	for (i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++) {
		const struct golden *g = &goldens[i];
		const struct cell *c = find_accept(g->accel, g->conf, g->cpu, g->accept);
		int ok = c && !cell_argv_of(c, g->release, &a, line, sizeof(line)) &&
			 !strcmp(line, g->argv);

		tap_ok(ok, "golden argv: accel %s, confidential %s, guest-accept %s, kernel %s",
		       g->accel, g->conf, g->accept, g->release[0] ? g->release : "unknown");
		if (!ok)
			printf("#   got:  %s\n#   want: %s\n", c ? line : "(no cell)", g->argv);
	}
}

/* Options as units: "-opt value", a lone "-flag", -machine split at commas. */
static size_t units(const struct qemu_argv *a, char out[][512], size_t max)
{
	char val[512], *tok, *save;
	size_t n = 0;
	int i;

	for (i = 1; i < a->argc && n < max; i++) {
		const char *o = a->argv[i], *v = i + 1 < a->argc && a->argv[i + 1][0] != '-' ?
			a->argv[++i] : NULL;

		if (v && !strcmp(o, "-machine")) {
			snprintf(val, sizeof(val), "%s", v);
			for (tok = strtok_r(val, ",", &save); tok && n < max;
			     tok = strtok_r(NULL, ",", &save))
				snprintf(out[n++], 512, "-machine %s", tok);
		} else {
			snprintf(out[n++], 512, "%s%s%s", o, v ? " " : "", v ? v : "");
		}
	}
	return n;
}

/* Units of @a missing from @b, one per line, into @out. */
static void minus(char a[][512], size_t na, char b[][512], size_t nb, char *out, size_t len)
{
	size_t i, j, o = 0;
	int used[64] = { 0 };

	out[0] = '\0';
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && (used[j] || strcmp(a[i], b[j])); j++)
			;
		if (j < nb)
			used[j] = 1;
		else
			o += (size_t)snprintf(out + o, len - o, "%s\n", a[i]);
	}
}

/* The diff of CVM cell @cvm against its twin @twin: "+added" and "-removed". */
static void twin_diff(const struct cell *cvm, const struct cell *twin, char *add, char *del,
		      size_t len)
{
	static struct qemu_argv a, b;
	static char ua[64][512], ub[64][512];
	char line[8192];
	size_t na, nb;

	add[0] = del[0] = '\0';
	if (!cvm || !twin || cell_argv(cvm, &a, line, sizeof(line)) ||
	    cell_argv(twin, &b, line, sizeof(line))) {
		snprintf(add, len, "(no argv)");
		return;
	}
	na = units(&a, ua, 64);
	nb = units(&b, ub, 64);
	minus(ua, na, ub, nb, add, len);
	minus(ub, nb, ua, na, del, len);
}

static void check_twin(const char *conf, const char *cpu, const char *want_add,
		       const char *want_del, const char *what)
{
	char add[4096], del[4096];
	const struct cell *cvm = find("kvm", conf, cpu), *twin = find("kvm", "none", cpu);
	int ok;

	twin_diff(cvm, twin, add, del, sizeof(add));
	ok = !strcmp(add, want_add) && !strcmp(del, want_del);
	tap_ok(ok, "%s", what);
	if (!ok)
		printf("#   added:\n%s#   removed:\n%s", add, del);
}

static void test_twins(void)
{
	check_twin("sev-snp", "EPYC-v4",
		   "-object memory-backend-memfd,id=ram1,size=512M,share=true,prealloc=off\n"
		   "-object sev-snp-guest,id=sev0,cbitpos=51,reduced-phys-bits=1,kernel-hashes=on\n"
		   "-machine confidential-guest-support=sev0\n"
		   "-machine memory-backend=ram1\n"
		   "-append console=ttyS0 panic=-1 accept_memory=eager\n",
		   "-append console=ttyS0 panic=-1\n",
		   "sev-snp vs its twin (both cpu = EPYC-v4): only the SNP object, its memfd "
		   "RAM, their -machine options and the kernel's accept_memory=");
	check_twin("tdx", "auto",
		   "-object tdx-guest,id=tdx0\n-machine kernel-irqchip=split\n"
		   "-machine confidential-guest-support=tdx0\n-machine hpet=off\n"
		   "-append console=ttyS0 panic=-1 accept_memory=eager\n",
		   "-append console=ttyS0 panic=-1\n",
		   "tdx vs its twin: only the TDX object, its -machine options and the "
		   "kernel's accept_memory=");
	check_twin("model", "auto",
		   "-object memory-backend-ram,id=mem0,size=512M,prealloc=on,merge=off\n"
		   "-machine memory-backend=mem0\n-machine mem-merge=off\n", "",
		   "model vs its twin: only the preallocated unmergeable RAM");
	check_twin("sev-snp", "auto",
		   "-object memory-backend-memfd,id=ram1,size=512M,share=true,prealloc=off\n"
		   "-object sev-snp-guest,id=sev0,cbitpos=51,reduced-phys-bits=1,kernel-hashes=on\n"
		   "-machine confidential-guest-support=sev0\n"
		   "-machine memory-backend=ram1\n-cpu EPYC-v4\n"
		   "-append console=ttyS0 panic=-1 accept_memory=eager\n",
		   "-cpu host\n-append console=ttyS0 panic=-1\n",
		   "cpu = auto: the sev-snp cell's EPYC-v4 against its twin's host is seen");
}

static void test_bad(void)
{
	static struct qemu_argv a;
	struct vm_config vc;
	char err[256];
	struct cell c = *find("kvm", "sev-snp", "auto");

	c.firmware[0] = '\0';
	qemu_cell_vm_config(&c, "kvm", &guest, &vc);
	vc.console = vc.agent_socket = "/t/x";
	tap_ok(qemu_argv_build(&vc, &a, err, sizeof(err)) == -EINVAL && strstr(err, "firmware"),
	       "sev-snp without a firmware refused, naming it");
	c = *find("tcg", "tdx", "auto");
	qemu_cell_vm_config(&c, "tcg", &guest, &vc);
	vc.console = vc.agent_socket = "/t/x";
	tap_ok(qemu_argv_build(&vc, &a, err, sizeof(err)) == -EINVAL && strstr(err, "kvm"),
	       "tdx under tcg refused, naming kvm");
}

int main(void)
{
	char err[2048];

	tap_plan(1 + 9 + 4 + 2);
	tap_ok(!load_expand(cfg_text, &cells, &ncells, err, sizeof(err)) && ncells == 20,
	       "the config gives 20 cells (%s)", err);
	test_goldens();
	test_twins();
	test_bad();
	config_cells_free(cells, ncells);
	return tap_done();
}
