/* SPDX-License-Identifier: MIT */
/*
 * loopback-port.h - a TCP port on 127.0.0.1 that is free right now, for a
 * server the harness starts (a service of the system suite, a key-value
 * co-runner).
 */
#ifndef CVMBENCH_LOOPBACK_PORT_H
#define CVMBENCH_LOOPBACK_PORT_H

/**
 * loopback_port_free() - a port the kernel hands out for 127.0.0.1 (bind
 * to port 0, read it back, close): free when asked, not reserved after.
 * > 0, or -errno.
 */
int loopback_port_free(void);

#endif
