// SPDX-License-Identifier: MIT
/*
 * loadgen-args.c - cvmload's options, checked: positive finite numbers
 * within stated bounds, and a URL http://IP[:PORT][/PATH] whose host is an
 * IPv4 literal or a bracketed IPv6 literal (no DNS: the generator runs in
 * a bare guest and talks only to the address it is given).
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen-args.h"

const char *loadgen_usage(void)
{
	return "usage: cvmload --url http://IP[:PORT]/PATH --rate R --duration S "
	       "--connections C\n"
	       "               [--warmup S] [--timeout S] [--dump FILE]\n"
	       "  open loop: request i is due at t0 + i/R on connection i mod C; its latency\n"
	       "  runs from that intended time to the end of the response\n";
}

static int bad(char *err, size_t len, const char *opt, const char *val, const char *why)
{
	snprintf(err, len, "%s: '%s' %s", opt, val ? val : "", why);
	return -1;
}

/* A finite number in [lo, hi] (lo excluded when @open_lo). */
static int num(const char *opt, const char *s, double lo, double hi, int open_lo, double *v,
	       char *err, size_t len)
{
	char *e;
	char why[96];

	*v = strtod(s, &e);
	if (e == s || *e || !isfinite(*v))
		return bad(err, len, opt, s, "is not a number");
	if (*v < lo || (open_lo && *v == lo) || *v > hi) {
		snprintf(why, sizeof(why), "is out of range: it must be %s %g and <= %g",
			 open_lo ? ">" : ">=", lo, hi);
		return bad(err, len, opt, s, why);
	}
	return 0;
}

static int url_port(const char *p, const char *url, int *port, char *err, size_t len)
{
	char *e;
	long v = strtol(p, &e, 10);

	if (e == p || (*e && *e != '/') || v < 1 || v > 65535)
		return bad(err, len, "--url", url, "has a bad port (1-65535)");
	*port = (int)v;
	return 0;
}

/* host is [v6] or v4; fills addr and the Host header. */
static int url_host(struct loadgen_opts *o, const char *h, size_t hlen, int port, char *err,
		    size_t len)
{
	char ip[64];
	struct sockaddr_in *v4 = (struct sockaddr_in *)&o->addr;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&o->addr;
	int six = hlen > 2 && h[0] == '[' && h[hlen - 1] == ']';

	if (hlen - (six ? 2 : 0) >= sizeof(ip))
		return bad(err, len, "--url", o->url, "has a host too long");
	memcpy(ip, h + six, hlen - 2 * six);
	ip[hlen - 2 * six] = '\0';
	memset(&o->addr, 0, sizeof(o->addr));
	if (!six && inet_pton(AF_INET, ip, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(port);
		o->addrlen = sizeof(*v4);
	} else if (six && inet_pton(AF_INET6, ip, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(port);
		o->addrlen = sizeof(*v6);
	} else {
		return bad(err, len, "--url", o->url, "has no IP literal as its host (no DNS: "
			   "give 127.0.0.1, [::1] or the address)");
	}
	snprintf(o->host, sizeof(o->host), "%.*s:%d", (int)hlen, h, port);
	return 0;
}

static int url_parse(struct loadgen_opts *o, char *err, size_t len)
{
	const char *u = o->url, *h, *end, *colon;
	int port = 80;

	if (strncmp(u, "http://", 7))
		return bad(err, len, "--url", u, "is not http://IP[:PORT]/PATH");
	h = u + 7;
	end = h + strcspn(h, "/");
	colon = h[0] == '[' ? strstr(h, "]:") : strchr(h, ':');
	if (colon && colon < end) {
		colon += h[0] == '[';
		if (url_port(colon + 1, u, &port, err, len))
			return -1;
	} else {
		colon = end;
	}
	if (url_host(o, h, colon - h, port, err, len))
		return -1;
	if (strlen(*end ? end : "/") >= sizeof(o->path) || strpbrk(end, " \r\n"))
		return bad(err, len, "--url", u, "has a path too long or with blanks");
	snprintf(o->path, sizeof(o->path), "%s", *end ? end : "/");
	return 0;
}

static int option(struct loadgen_opts *o, int c, const char *arg, char *err, size_t len)
{
	double v;

	switch (c) {
	case 'u': o->url = arg; return url_parse(o, err, len);
	case 'r': return num("--rate", arg, 0, 1e7, 1, &o->rate, err, len);
	case 'd': return num("--duration", arg, 0, 3600, 1, &o->duration, err, len);
	case 'w': return num("--warmup", arg, 0, 3600, 0, &o->warmup, err, len);
	case 't': return num("--timeout", arg, 0, 600, 1, &o->timeout, err, len);
	case 'o': o->dump = arg; return 0;
	case 'c':
		if (num("--connections", arg, 1, LOADGEN_MAX_CONNECTIONS, 0, &v, err, len))
			return -1;
		if (v != floor(v))
			return bad(err, len, "--connections", arg, "is not a whole number");
		o->connections = (int)v;
		return 0;
	}
	return bad(err, len, "option", arg, "is unknown");
}

int loadgen_args(int argc, char **argv, struct loadgen_opts *o, char *err, size_t errlen)
{
	static const struct option longs[] = {
		{ "url", required_argument, NULL, 'u' },
		{ "rate", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' },
		{ "connections", required_argument, NULL, 'c' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "timeout", required_argument, NULL, 't' },
		{ "dump", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout = 2;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1)
		if (option(o, c == '?' || c == ':' ? 0 : c, c == '?' || c == ':' ?
			   argv[optind - 1] : optarg, err, errlen))
			return -1;
	if (optind < argc)
		return bad(err, errlen, "argument", argv[optind], "is not an option");
	if (!o->url || !o->rate || !o->duration || !o->connections)
		return bad(err, errlen, !o->url ? "--url" : !o->rate ? "--rate" :
			   !o->duration ? "--duration" : "--connections", "", "is required");
	if ((o->duration + o->warmup) * o->rate > LOADGEN_MAX_REQUESTS) {
		snprintf(err, errlen, "--rate: %g times --warmup + --duration (%g s) is more than "
			 "%lld requests", o->rate, o->duration + o->warmup, LOADGEN_MAX_REQUESTS);
		return -1;
	}
	return 0;
}
