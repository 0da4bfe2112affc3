// SPDX-License-Identifier: MIT
/*
 * guest-strip.c - the copies of cvmfn and the agent that go into the guest,
 * without their symbols and debug information (`strip --strip-all -o`, an
 * argv, no shell): 7.4 + 5.6 MB become 6.1 + 4.5 MB, bytes the guest
 * kernel no longer copies into its rootfs at every boot. Without strip on
 * the host the programs go in as they are (the inputs key says which).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "guest-local.h"

int guest_strip_available(void)
{
	char path[PATH_MAX];

	return !guest_which("strip", path, sizeof(path));
}

int guest_strip_copy(const char *in, const char *dir, const char *name, char *out,
		     size_t len, char *err, size_t errlen)
{
	char *argv[] = { "strip", "--strip-all", "-o", out, (char *)in, NULL };

	if (!guest_strip_available())
		return guest_path(out, len, "%s", in);
	if (guest_path(out, len, "%s/%s", dir, name))
		return -ENAMETOOLONG;
	return guest_exec(argv, NULL, NULL, 0, NULL, err, errlen);
}
