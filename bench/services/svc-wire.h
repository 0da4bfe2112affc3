/* SPDX-License-Identifier: MIT */
/*
 * svc-wire.h - a service's requests to a guest agent and the replies, as
 * lines (shared by bench/agent/guest/agent-svc.c and the host, cell-svc.c):
 *
 *   host -> guest                   guest -> host
 *   svc start NAME DUR CONN RATE    svc started PORT USER | error svc MESSAGE
 *   svc start NAME DUR CONN RATE host   (the same, the server only: see below)
 *   svc window TIMEOUT_S            svc out[+] TEXT ... then
 *                                   svc done STATUS WALL_NS | error svc MESSAGE
 *   svc stop                        svc stopped REQUESTS
 *
 * REQUESTS: the lines of nginx's access log when the server stopped (one a
 * request it answered), -1 for the other services.
 * With `host` (loadgen = host) the server listens on the guest's NIC
 * instead of its loopback, at AGENT_GUEST_NET_ADDR:AGENT_GUEST_SVC_PORT
 * (agent-guest.h), where QEMU's user-mode network forwards the host's
 * 127.0.0.1:HOSTPORT (the guest configures it at boot when its kernel
 * command line has cvmbench.net=ADDR); windows then run on the host.
 *
 * `svc out TEXT` is one line of the load generator's stdout, `svc out+`
 * a piece of one continued by the next (a line longer than a protocol
 * line); TEXT escapes '%', control bytes and bytes >= 0x7f as %XX.
 */
#ifndef CVMBENCH_SVC_WIRE_H
#define CVMBENCH_SVC_WIRE_H

#include <stddef.h>

/* Bytes of raw text per `svc out` line (escaped, it fits a protocol line). */
#define SVC_WIRE_CHUNK 300

/** svc_wire_escape() - @n bytes of @s escaped into @out (>= 3 * @n + 1). */
void svc_wire_escape(const char *s, size_t n, char *out);
/** svc_wire_unescape() - @s unescaped in place; its new length. */
size_t svc_wire_unescape(char *s);

#endif
