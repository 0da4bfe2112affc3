/* SPDX-License-Identifier: MIT */
/*
 * gp-string.h - the only two ways a string reaches gnuplot: as quoted
 * string constants of the `-e` program (gp_string_quote) or as a quoted
 * field of a figure's data file (gp_data_string). Neither lets the text
 * be read as gnuplot language, whatever the database holds. A control
 * character in a label is drawn as a space (gp_printable()).
 */
#ifndef CVMBENCH_GP_STRING_H
#define CVMBENCH_GP_STRING_H

#include <stddef.h>
#include <stdio.h>

/* A label longer than this (bytes) is cut in its middle, its last
 * GP_LABEL_TAIL bytes kept: the longest label a figure makes room for. */
#define GP_LABEL_MAX 48
#define GP_LABEL_TAIL 12

int gp_string_quote(char *buf, size_t len, const char *s);
void gp_printable(char *buf, size_t len, const char *s);
void gp_data_string(FILE *f, const char *s);
size_t gp_label_len(const char *s);

#endif
