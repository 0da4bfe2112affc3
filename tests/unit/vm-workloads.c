// SPDX-License-Identifier: MIT
/*
 * tests/unit/vm-workloads.c - the `vm-workloads` key (a workload per VM of
 * a qemu cell, joined by '+'): plus_list_item() on good and bad lists, the
 * key's check (every item a known workload, none empty, each error naming
 * the value) and the qemu layout check (as many workloads as VMs), and a
 * cell of another backend refused. No root.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cell-check.h"
#include "cell.h"
#include "config.h"
#include "plus-list.h"
#include "qemu-vms.h"
#include "tap.h"

static void test_items(void)
{
	char out[16];

	tap_ok(plus_list_item("a+bb+a", 1, out, sizeof(out)) == 3 && !strcmp(out, "bb"),
	       "a+bb+a: 3 items, the second bb");
	tap_ok(plus_list_item("one", 0, out, sizeof(out)) == 1 && !strcmp(out, "one"),
	       "one item");
	tap_ok(plus_list_item("a++b", 0, NULL, 0) == -EINVAL &&
	       plus_list_item("+a", 0, NULL, 0) == -EINVAL &&
	       plus_list_item("a+", 0, NULL, 0) == -EINVAL, "an empty item is an error");
	tap_ok(plus_list_item("a+0123456789abcdefg", 1, out, sizeof(out)) == -ENAMETOOLONG,
	       "an item longer than the buffer is an error, not cut");
}

static void test_key(void)
{
	const struct config_key *k = config_key_find("vm-workloads");
	char err[512] = "";

	tap_ok(k && !config_entry_check(k, "hello-world+null+hello-world", err, sizeof(err)),
	       "hello-world+null+hello-world: accepted (a workload may repeat) %s", err);
	tap_ok(k && config_entry_check(k, "hello-world+nope", err, sizeof(err)) == -EINVAL &&
	       strstr(err, "unknown workload 'nope'"), "an unknown workload: %s", err);
	tap_ok(k && config_entry_check(k, "hello-world++null", err, sizeof(err)) == -EINVAL &&
	       strstr(err, "an empty item"), "an empty item: %s", err);
}

static void test_layout(void)
{
	struct cell c;
	char why[512] = "";

	memset(&c, 0, sizeof(c));
	c.memory = 64;
	c.vms = c.instances = 3;
	c.instances_per_vm = 1;
	snprintf(c.vm_workloads, sizeof(c.vm_workloads), "hello-world+null");
	tap_ok(!qemu_vms_layout(&c, why, sizeof(why)) &&
	       strstr(why, "names 2 workloads but vms = 3"), "2 workloads for 3 VMs: %s", why);
	c.vms = c.instances = 2;
	tap_ok(qemu_vms_layout(&c, why, sizeof(why)) == 1, "2 for 2 VMs: fits");
	snprintf(c.guest_image, sizeof(c.guest_image), "/x.img");
	tap_ok(!qemu_vms_layout(&c, why, sizeof(why)) && strstr(why, "guest-image = /x.img"),
	       "with guest-image (one disk for all VMs): not run, said why (%s)", why);
	c.guest_image[0] = '\0';
	snprintf(c.backend, sizeof(c.backend), "native");
	snprintf(c.mode, sizeof(c.mode), "warm");
	tap_ok(!cell_runnable(&c, why, sizeof(why)) &&
	       strstr(why, "only backend = qemu runs a workload per VM"),
	       "backend = native with vm-workloads: not run, said why (%s)", why);
}

int main(void)
{
	tap_plan(11);
	test_items();
	test_key();
	test_layout();
	return tap_done();
}
