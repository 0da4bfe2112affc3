/* SPDX-License-Identifier: MIT */
/* shell-quote.h - a string as one POSIX shell word (cvmbench slurm). */
#ifndef CVMBENCH_SHELL_QUOTE_H
#define CVMBENCH_SHELL_QUOTE_H

char *shell_quote(const char *s);

#endif
