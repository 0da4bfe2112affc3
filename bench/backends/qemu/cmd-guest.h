/* SPDX-License-Identifier: MIT */
/* cmd-guest.h - between cmd-guest.c and cmd-guest-boot.c. */
#ifndef CVMBENCH_CMD_GUEST_H
#define CVMBENCH_CMD_GUEST_H

/** guest_boot() - `cvmbench guest boot`; argv[0] is "boot". Returns an exit code. */
int guest_boot(int argc, char **argv);

#endif
