// SPDX-License-Identifier: MIT
/*
 * tests/unit/kvm-toy.c - the micro-VM's guest code (lib/kvm-toy.c),
 * on any machine, KVM or not: the bytes kvm_toy_code() writes by hand are
 * the bytes GNU as assembles from the program its header comment shows
 * (.code16, the same three loops and the closing port write), an
 * independent encoder. Without as/objcopy: SKIP (a failure under CI).
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kvm-toy.h"
#include "tap.h"

extern char **environ;

static const char program[] =
	"\t.code16\n"
	"\tmov 0x500, %ecx\n\ttest %ecx, %ecx\n\tjz 1f\n"
	"0:\tout %al, $0x10\n\tdec %ecx\n\tjnz 0b\n"
	"1:\tmov 0x504, %ecx\n\ttest %ecx, %ecx\n\tjz 1f\n"
	"0:\tmov %al, 0x9000\n\tdec %ecx\n\tjnz 0b\n"
	"1:\tmov 0x508, %ecx\n\ttest %ecx, %ecx\n\tjz 1f\n"
	"0:\thlt\n\tdec %ecx\n\tjnz 0b\n"
	"1:\tout %al, $0x11\n\tjmp .\n";

static int run(char *const argv[])
{
	pid_t pid;
	int st;

	if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ))
		return -1;
	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The program assembled by GNU as into @buf; its length, or -1. */
static long assemble(const char *dir, uint8_t *buf, size_t len)
{
	char s[256], o[256], b[256];
	char *as[] = { "as", "--32", "-o", o, s, NULL };
	char *oc[] = { "objcopy", "-O", "binary", "-j", ".text", o, b, NULL };
	FILE *f;
	long n;

	snprintf(s, sizeof(s), "%s/toy.s", dir);
	snprintf(o, sizeof(o), "%s/toy.o", dir);
	snprintf(b, sizeof(b), "%s/toy.bin", dir);
	f = fopen(s, "w");
	if (!f || fputs(program, f) < 0 || fclose(f))
		return -1;
	if (run(as) || run(oc) || !(f = fopen(b, "rb")))
		return -1;
	n = (long)fread(buf, 1, len, f);
	fclose(f);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/kvm-toy-XXXXXX", path[64];
	uint8_t mine[128], ref[128];
	size_t n = kvm_toy_code(mine, sizeof(mine));
	long m;

	tap_plan(2);
	tap_ok(n > 40 && n < 64 && kvm_toy_code(mine, 32) == 0,
	       "kvm_toy_code: %zu bytes, refuses a buffer under 64", n);
	if (!mkdtemp(dir) || (m = assemble(dir, ref, sizeof(ref))) < 0) {
		if (getenv("CI"))
			tap_ok(0, "GNU as and objcopy are needed under CI");
		else
			printf("ok 2 # SKIP GNU as or objcopy not available\n");
	} else {
		tap_ok(m == (long)n && !memcmp(mine, ref, n),
		       "the same %ld bytes as GNU as assembles from the program", m);
	}
	snprintf(path, sizeof(path), "%s/toy.s", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/toy.o", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/toy.bin", dir);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
