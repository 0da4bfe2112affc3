// SPDX-License-Identifier: MIT
/*
 * svc-wire.c - the escaping of a load generator's output lines on the
 * agent link (svc-wire.h): %XX for '%', control bytes and bytes >= 0x7f.
 */
#include <stdio.h>
#include <stdlib.h>

#include "svc-wire.h"

void svc_wire_escape(const char *s, size_t n, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '%') {
			*out++ = '%';
			*out++ = hex[c >> 4];
			*out++ = hex[c & 15];
		} else {
			*out++ = (char)c;
		}
	}
	*out = '\0';
}

size_t svc_wire_unescape(char *s)
{
	char *start = s, *w = s, h[3] = "";

	for (; *s; s++) {
		if (*s == '%' && s[1] && s[2]) {
			h[0] = s[1];
			h[1] = s[2];
			*w++ = (char)strtol(h, NULL, 16);
			s += 2;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
	return (size_t)(w - start);
}
