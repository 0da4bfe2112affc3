// SPDX-License-Identifier: MIT
/*
 * guest-init.c - the text of the guest's /init (run by busybox sh as
 * PID 1): mount proc; with the agent in the image, exec it at once as
 * `cvmbench-agent --init "MODULES"`: it mounts sys and devtmpfs, loads the
 * virtio modules in order, finds the virtio-serial port by its name, mounts
 * the read-only data disk, writes the ready line and serves the host
 * (agent-init.c; a fork and exec of busybox per step cost 10-40 ms each
 * under TCG). Without the agent, or for the image's tests, /init does
 * those steps itself. With cvmbench.test=echo on the kernel command line
 * (the image's own tests) /init writes the ready line itself and answers
 * test requests, one line each:
 *   "sha256 PATH"  ->  "sha256 HEX" (or "error sha256 PATH")
 *   "poweroff"     ->  "bye", then the guest powers off
 *   anything else  ->  "echo " and the line
 * An image without the agent serves, one request at a time:
 *   "spawn ARGS"   ->  /bin/cvmfn ARGS with stdin and stdout on the port,
 *                      until it quits (its protocol, workloads/protocol.h)
 * ARGS are split at spaces only (no globbing, no shell language run).
 * The ready line: "cvmbench-ready uptime=S data=ro|none|error kernel=R".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "guest-local.h"
#include "guest.h"

static const char init_head[] =
	"#!/bin/sh\n"
	"# /init of the cvmbench guest, written by `cvmbench guest build`\n"
	"export PATH=/bin\n"
	"mount -t proc proc /proc\n"
	"# the agent does the boot's work itself (no fork per step), unless the tests ask\n"
	"read -r cmdline </proc/cmdline\n"
	"case \" $cmdline \" in\n"
	"*\" cvmbench.test=echo \"*) ;;\n"
	"*) [ -x /bin/cvmbench-agent ] && exec /bin/cvmbench-agent --init \"%s\" ;;\n"
	"esac\n"
	"mount -t sysfs sys /sys\n"
	"mount -t devtmpfs dev /dev\n"
	"exec </dev/console >/dev/console 2>&1\n"
	"log() { echo \"cvmbench-init: $*\"; }\n"
	"read -r up rest </proc/uptime && log \"start uptime=$up\"\n"
	"for m in %s; do\n"
	"\tinsmod /lib/modules/$m.ko || log \"insmod $m failed\"\n"
	"done\n";

static const char init_port[] =
	"port=\n"
	"i=0\n"
	"while [ $i -lt 1000 ]; do\n"
	"\tfor p in /sys/class/virtio-ports/*; do\n"
	"\t\t[ \"$(cat $p/name 2>/dev/null)\" = " GUEST_PORT_NAME " ] && port=/dev/${p##*/}\n"
	"\tdone\n"
	"\t[ -n \"$port\" ] && [ -c \"$port\" ] && break\n"
	"\tport=\n"
	"\ti=$((i + 1))\n"
	"\tusleep 10000\n"
	"done\n"
	"data=none\n"
	"if [ -b /dev/vda ]; then\n"
	"\tmkdir -p /data\n"
	"\tif mount -t ext4 -o ro /dev/vda /data; then data=ro; else data=error; fi\n"
	"fi\n"
	"[ -n \"$port\" ] || { log \"no virtio-serial port " GUEST_PORT_NAME "\"; poweroff -f; }\n"
	"log \"port $port, data disk: $data\"\n";

static const char init_tail[] =
	"ready() {\n"
	"\texec 3<>\"$port\"\n"
	"\tread up rest </proc/uptime\n"
	"\tprintf 'cvmbench-ready uptime=%s data=%s kernel=%s\\n' \"$up\" \"$data\" \"$(uname -r)\" >&3\n"
	"}\n"
	"case \" $(cat /proc/cmdline) \" in\n"
	"*\" cvmbench.test=echo \"*)\n"
	"\tready\n"
	"\twhile read -r line <&3; do\n"
	"\t\tcase \"$line\" in\n"
	"\t\t\"sha256 \"*)\n"
	"\t\t\tf=${line#sha256 }\n"
	"\t\t\tif s=$(sha256sum \"$f\"); then printf 'sha256 %s\\n' \"${s%% *}\" >&3\n"
	"\t\t\telse printf 'error sha256 %s\\n' \"$f\" >&3; fi ;;\n"
	"\t\tpoweroff) echo bye >&3; poweroff -f ;;\n"
	"\t\t*) printf 'echo %s\\n' \"$line\" >&3 ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tpoweroff -f ;;\n"
	"esac\n"
	"# the agent (cvmbench-agent) takes over when it is in the image\n"
	"[ -x /bin/cvmbench-agent ] && exec /bin/cvmbench-agent --port \"$port\" --data \"$data\"\n"
	"ready\n"
	"# serve: \"spawn ARGS\" runs /bin/cvmfn ARGS on the port until it quits\n"
	"set -f\n"
	"while read -r line <&3; do\n"
	"\tcase \"$line\" in\n"
	"\t\"spawn \"*)\n"
	"\t\tset -- ${line#spawn }\n"
	"\t\t/bin/cvmfn \"$@\" <&3 >&3 ;;\n"
	"\t*) printf 'error unknown request\\n' >&3 ;;\n"
	"\tesac\n"
	"done\n"
	"while :; do sleep 3600; done\n";

int guest_init_script(const char *const *mods, size_t n, char *buf, size_t len)
{
	char list[512] = "";
	size_t i, used;
	int w;

	for (i = 0; i < n; i++) {
		used = strlen(list);
		snprintf(list + used, sizeof(list) - used, "%s%s", i ? " " : "", mods[i]);
	}
	w = snprintf(buf, len, init_head, list, list);
	if (w < 0 || (size_t)w >= len)
		return -ENOSPC;
	used = (size_t)w;
	w = snprintf(buf + used, len - used, "%s", init_port);
	if (w < 0 || (size_t)w >= len - used)
		return -ENOSPC;
	used += (size_t)w;
	w = snprintf(buf + used, len - used, "%s", init_tail);
	return w < 0 || (size_t)w >= len - used ? -ENOSPC : 0;
}
