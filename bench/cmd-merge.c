// SPDX-License-Identifier: MIT
#include "command.h"
int cmd_merge(int argc, char **argv) { (void)argc; (void)argv; return 1; }
