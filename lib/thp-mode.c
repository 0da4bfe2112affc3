// SPDX-License-Identifier: MIT
/* thp-mode.c - read the mode files of transparent hugepages (thp-mode.h). */
#include <errno.h>
#include <string.h>

#include "thp-mode.h"

int thp_mode_parse(const char *line, char *mode, size_t len)
{
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;

	if (!a || !b || b == a + 1)
		return -EINVAL;
	if ((size_t)(b - a - 1) >= len)
		return -E2BIG;
	memcpy(mode, a + 1, (size_t)(b - a - 1));
	mode[b - a - 1] = '\0';
	return 0;
}

int thp_mode_offered(const char *line, const char *mode)
{
	size_t n = strlen(mode);
	const char *p = line;

	if (!n)
		return 0;
	while ((p = strstr(p, mode))) {
		int start = p == line || p[-1] == ' ' || p[-1] == '[';
		int end = !p[n] || p[n] == ' ' || p[n] == ']';

		if (start && end)
			return 1;
		p += n;
	}
	return 0;
}
