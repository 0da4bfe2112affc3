/* SPDX-License-Identifier: MIT */
/*
 * agent-proto.h - the agent protocol: how cvmbench drives the probes that
 * run on the instance's side (probe.h, PROBE_INSTANCE), and how their rows
 * come back. One text line per message, '\n'-terminated, at most
 * AGENT_LINE_MAX bytes; words are separated by one space; names (probe,
 * metric, unit, note key) are words without spaces; the last field of skip,
 * note and a failed ack is free text to the end of the line (newlines
 * become spaces). A window is `cell 0` or `inv SEQ` (SEQ: the invocation's
 * sequence number in its cell).
 *
 *   cvmbench -> agent
 *     probe open P                  open probe P for this cell
 *     probe start P WINDOW          start P for the window
 *     probe stop P WINDOW           stop P at the window's end
 *     probe emit P WINDOW           send the rows of the window just stopped
 *     probe close P                 close P (end of cell)
 *
 *   agent -> cvmbench, streamed as they are made (a row is written as soon
 *   as the probe writes it, so an agent that dies loses only what it had
 *   not sent yet: the window in flight):
 *     metric P WINDOW NAME VALUE UNIT       VALUE as %.17g (exact)
 *     skip P WINDOW REASON                  P could not measure this window
 *     note P WINDOW KEY VALUE               how P measured (cell_param P.KEY)
 *     ack P OP WINDOW 0                     OP (open|start|...) done
 *     ack P OP WINDOW -ERRNO MESSAGE        OP failed; for start and stop
 *                                           a skip row came before it
 *
 * Every request gets exactly one ack, after the rows it caused; a line
 * that is not a request gets `ack - open none 0 -71 cannot parse ...`. The lines
 * can share a channel with the instance protocol (workloads/protocol.h):
 * no request or row starts with a word that protocol uses.
 */
#ifndef CVMBENCH_AGENT_PROTO_H
#define CVMBENCH_AGENT_PROTO_H

#include "probe.h"

#define AGENT_LINE_MAX 1024
#define AGENT_NAME_MAX 96

enum agent_op { AGENT_OPEN, AGENT_START, AGENT_STOP, AGENT_EMIT, AGENT_CLOSE };

struct agent_req {
	enum agent_op op;
	char probe[AGENT_NAME_MAX];
	enum probe_window w;      /* 0 for open and close */
	long seq;                 /* invocation windows only */
};

enum agent_row_kind { AGENT_ROW_METRIC, AGENT_ROW_SKIP, AGENT_ROW_NOTE, AGENT_ROW_ACK };

struct agent_row {
	enum agent_row_kind kind;
	char probe[AGENT_NAME_MAX];
	enum probe_window w;      /* 0: none (ack of open and close) */
	long seq;
	enum agent_op op;         /* ack */
	int err;                  /* ack: 0 or -errno */
	char name[AGENT_NAME_MAX];    /* metric name, note key */
	double value;
	char unit[32];
	char text[AGENT_LINE_MAX];    /* skip reason, note value, ack message */
};

/** agent_op_name() - "open", "start", "stop", "emit", "close". */
const char *agent_op_name(enum agent_op op);

/**
 * agent_req_encode() - @r as one line with its '\n' into @buf.
 * Returns its length, or -EINVAL (a name with a space, ...) / -ENOSPC.
 */
int agent_req_encode(const struct agent_req *r, char *buf, size_t len);
/** agent_req_decode() - parse one line (without '\n'). 0 or -EPROTO. */
int agent_req_decode(const char *line, struct agent_req *r);
/** agent_row_encode() - like agent_req_encode() for a row. */
int agent_row_encode(const struct agent_row *r, char *buf, size_t len);
/** agent_row_decode() - parse one row line (without '\n'). 0 or -EPROTO. */
int agent_row_decode(const char *line, struct agent_row *r);

#endif
