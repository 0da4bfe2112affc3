// SPDX-License-Identifier: MIT
/*
 * env-machine.c - a stable identity of the machine, so that the runs of
 * several machines stay apart when their databases are merged (hostnames
 * repeat: every development VM here is "vm"). machine.id is the first 16
 * hex digits of the SHA-256 of the DMI/SMBIOS product UUID where it can be
 * read (root; a cloud instance's own UUID), else of /etc/machine-id (one
 * per installed system), its trailing newline removed; hashed so that the
 * raw identifiers never leave the machine. machine.id_source names the file.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "env-local.h"
#include "sysroot.h"

static const char *const id_files[] = {
	"/sys/class/dmi/id/product_uuid",
	"/etc/machine-id",
};

/**
 * env_collect_machine() - emit machine.id and machine.id_source.
 * @s: the sink
 */
void env_collect_machine(const struct env_sink *s)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	char line[256], hex[17];
	unsigned int mdlen = 0, i;
	size_t k;

	for (k = 0; k < sizeof(id_files) / sizeof(id_files[0]); k++) {
		if (env_first_line(id_files[k], line, sizeof(line)))
			continue;
		if (!EVP_Digest(line, strlen(line), md, &mdlen, EVP_sha256(), NULL) || mdlen < 8)
			break;
		for (i = 0; i < 8; i++)
			snprintf(hex + 2 * i, 3, "%02x", md[i]);
		env_put(s, "machine.id", "SHA-256 of machine.id_source, first 16 hex digits",
			"%s", hex);
		env_put(s, "machine.id_source", "the first readable of product_uuid, machine-id",
			"%s", id_files[k]);
		return;
	}
	env_put_unavail(s, "machine.id", "product_uuid, machine-id",
			"neither %s nor %s is readable", id_files[0], id_files[1]);
}
