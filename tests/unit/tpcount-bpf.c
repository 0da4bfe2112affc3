// SPDX-License-Identifier: MIT
/*
 * tests/unit/tpcount-bpf.c - what the bpf method (bench/lib/tpcount-bpf.c)
 * refuses before it asks the kernel, so these run without root: a field of
 * a size the program cannot load exactly (3, 16 bytes: it was read as 8
 * bytes, the neighbour's bytes counted as the value) and the specs it does
 * not count, each -EOPNOTSUPP with the reason. And pidns.c: this process's
 * namespace read, and a thread of it found in it.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "pidns.h"
#include "tap.h"
#include "tpcount-local.h"

static int open_with(unsigned int size, const char *extra, char *why, size_t len)
{
	static const unsigned long long vals[] = { 1, 2 };
	struct tpcount_spec spec = { "raw_syscalls", "sys_enter", "id", extra, vals, 2, NULL };
	struct tpbpf_field f = { 8, size };
	struct tpbpf *b = NULL;
	pid_t me = getpid();
	int ret = tpbpf_open(&b, &spec, &f, 1, &me, 1, 0, why, len);

	tpbpf_close(b);
	return ret;
}

int main(void)
{
	struct pidns_id ns = { 0, 0 };
	char why[512] = "";

	tap_plan(6);
	tap_ok(open_with(3, NULL, why, sizeof(why)) == -EOPNOTSUPP,
	       "a 3-byte field: -EOPNOTSUPP (%s)", why);
	tap_contains(why, "size", "... the reason names the size");
	tap_ok(open_with(16, NULL, why, sizeof(why)) == -EOPNOTSUPP,
	       "a 16-byte field: -EOPNOTSUPP (%s)", why);
	tap_ok(open_with(8, "isa == 2", why, sizeof(why)) == -EOPNOTSUPP,
	       "an extra condition: -EOPNOTSUPP (%s)", why);
	tap_ok(pidns_self(&ns) == 0 && ns.ino != 0, "this process's pid namespace: inode %llu",
	       (unsigned long long)ns.ino);
	tap_ok(pidns_of_task(getpid(), &ns) == 0, "this process is in it");
	return tap_done();
}
