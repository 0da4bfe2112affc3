/* SPDX-License-Identifier: MIT */
/*
 * reply-line.h - the two lines of protocol.h that every warm call passes
 * through, read and written without stdio: the request "invoke SEQ" and
 * the reply of a call that succeeded and is not hashed. They sit inside
 * the harness's round trip, so they cost a few nanoseconds instead of the
 * ~150 ns of sscanf() and snprintf(). The other lines keep stdio.
 */
#ifndef CVMFN_REPLY_LINE_H
#define CVMFN_REPLY_LINE_H

/* Room for the longest line reply_line_done_none() writes, NUL included. */
#define REPLY_LINE_DONE_MAX 96

/*
 * request_parse_invoke() - "invoke SEQ", SEQ decimal digits only and
 * nothing after them: 0 with *seq set, -1 for any other line (the caller
 * then tries the other requests).
 */
int request_parse_invoke(const char *line, unsigned long *seq);

/*
 * reply_line_done_none() - "done SEQ ok=1 fn_ns=N\ndigest SEQ none\n" into
 * @buf (REPLY_LINE_DONE_MAX bytes), as snprintf() would write it; returns
 * its length. @fn_ns below 0 is written with its sign.
 */
int reply_line_done_none(char *buf, unsigned long seq, long long fn_ns);

#endif
