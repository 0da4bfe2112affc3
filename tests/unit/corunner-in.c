// SPDX-License-Identifier: MIT
/*
 * tests/unit/corunner-in.c - the key corunner-in (bench/config/matrix.c
 * check_corunner_in()): `vm` is the kv co-runner in a second VM beside
 * qemu cells, so beside another backend or corunner-kind it is an error
 * naming the file, line and the value that cannot be; `host` (the
 * default) written out changes no cell key; `host, vm` beside qemu and kv
 * is two cells.
 */
#include <stdio.h>
#include <string.h>

#include "config-test.h"

int main(void)
{
	static const char base[] = "[experiment a]\nworkload = hello-world\ncorunner = 2\n";
	char text[1024], err[1024], key_default[sizeof(((struct cell *)0)->key)] = "";
	struct cell *cells;
	size_t n;
	int ok;

	tap_plan(5);
	snprintf(text, sizeof(text), "%sbackend = native, qemu\ncorunner-kind = kv\n"
		 "corunner-in = vm\n", base);
	expect_error(text, "t.ini:6: [experiment a] corunner-in = vm: the co-runner VM runs the "
		     "kv co-runner beside qemu cells, and this experiment has backend = native",
		     "beside a native cell: refused, naming file:line and the backend");
	snprintf(text, sizeof(text), "%sbackend = qemu\ncorunner-kind = cpu, kv\n"
		 "corunner-in = host, vm\n", base);
	expect_error(text, "t.ini:6: [experiment a] corunner-in = vm: the co-runner VM "
		     "runs the kv co-runner beside qemu cells, and this experiment has "
		     "corunner-kind = cpu", "beside a cpu co-runner: refused, naming the kind");
	snprintf(text, sizeof(text), "%sbackend = qemu\ncorunner-kind = kv\n", base);
	if (!load_expand(text, &cells, &n, err, sizeof(err)) && n == 1)
		snprintf(key_default, sizeof(key_default), "%s", cells[0].key);
	config_cells_free(cells, n);
	snprintf(text, sizeof(text), "%sbackend = native\ncorunner-in = host\n", base);
	tap_ok(!load_expand(text, &cells, &n, err, sizeof(err)) && n == 1,
	       "corunner-in = host beside a native cpu co-runner passes (%s)", err);
	config_cells_free(cells, n);
	snprintf(text, sizeof(text), "%sbackend = qemu\ncorunner-kind = kv\n"
		 "corunner-in = host, vm\n", base);
	ok = !load_expand(text, &cells, &n, err, sizeof(err)) && n == 2;
	tap_ok(ok && !strcmp(cells[0].corunner_in, "host") && !strcmp(cells[1].corunner_in, "vm"),
	       "host, vm beside qemu and kv: two cells (%s)", err);
	tap_ok(ok && key_default[0] && !strcmp(cells[0].key, key_default) &&
	       strcmp(cells[1].key, key_default),
	       "the host cell keeps the key it had without the key (%s), the vm cell has its own",
	       key_default);
	config_cells_free(cells, n);
	return 0;
}
