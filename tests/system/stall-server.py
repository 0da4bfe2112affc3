#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/system/stall-server.py - a tiny HTTP/1.1 keep-alive server on
127.0.0.1 for tests/system/cvmload.t: it answers every GET with "ok\n" at
once (GET /short: 3 bytes of a 100-byte body, then it closes), but holds every request it receives in one window [a, b) until b:
a = the first request's arrival + STALL_AT seconds, b = a + STALL_LEN. It
writes "port P" to READY_FILE when it listens, and "stall A B" (CLOCK_MONOTONIC
ns, the clock cvmload stamps with) to READY_FILE.stall when it has fixed the
window, so the test knows the moment independently of cvmload.

usage: stall-server.py READY_FILE STALL_AT STALL_LEN
"""
import asyncio
import os
import sys
import time

READY, STALL_AT, STALL_LEN = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
window = []


def fix_window():
    """The stall window, fixed at the first request."""
    if not window:
        a = time.monotonic_ns() + int(STALL_AT * 1e9)
        window.extend([a, a + int(STALL_LEN * 1e9)])
        with open(READY + ".stall", "w") as f:
            f.write("stall %d %d\n" % (window[0], window[1]))
    return window


async def serve(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            if not head.startswith(b"GET "):
                break
            if head.startswith(b"GET /short "):
                # a short read: 3 of the 100 body bytes promised, then the end
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc")
                await writer.drain()
                break
            a, b = fix_window()
            now = time.monotonic_ns()
            if a <= now < b:
                await asyncio.sleep((b - now) / 1e9)
                while time.monotonic_ns() < b:
                    await asyncio.sleep(0.001)
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    writer.close()


async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    with open(READY + ".tmp", "w") as f:
        f.write("port %d\n" % server.sockets[0].getsockname()[1])

    os.rename(READY + ".tmp", READY)
    async with server:
        await server.serve_forever()


asyncio.run(main())
