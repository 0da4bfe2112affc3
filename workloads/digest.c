// SPDX-License-Identifier: MIT
/*
 * digest.c - SHA-256 through OpenSSL's libcrypto (EVP_Digest*). The static
 * cvmfn links libcrypto.a, so it still digests outputs anywhere it runs.
 */
#include <errno.h>
#include <stdio.h>

#include <openssl/evp.h>

#include "digest.h"

int digest_warm(void)
{
	char hex[DIGEST_HEX_LEN];
	struct digest d;

	digest_init(&d);
	digest_update(&d, "", 1);
	return digest_final(&d, hex);
}

int digest_init(struct digest *d)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	d->ctx = ctx;
	d->err = 0;
	if (!ctx) {
		d->err = -ENOMEM;
		return d->err;
	}
	if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		d->err = -EIO;
	return d->err;
}

void digest_update(struct digest *d, const void *data, size_t len)
{
	if (d->err || !len)
		return;
	if (EVP_DigestUpdate(d->ctx, data, len) != 1)
		d->err = -EIO;
}

int digest_final_raw(struct digest *d, uint8_t out[DIGEST_BYTES])
{
	unsigned int n = 0;
	int err = d->err;

	if (!err && (EVP_DigestFinal_ex(d->ctx, out, &n) != 1 || n != DIGEST_BYTES))
		err = -EIO;
	EVP_MD_CTX_free(d->ctx);
	d->ctx = NULL;
	d->err = err ? err : -EINVAL;   /* a finished digest takes no more input */
	return err;
}

int digest_final(struct digest *d, char hex[DIGEST_HEX_LEN])
{
	uint8_t raw[DIGEST_BYTES];
	int i, err = digest_final_raw(d, raw);

	hex[0] = '\0';
	if (err)
		return err;
	for (i = 0; i < DIGEST_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", raw[i]);
	return 0;
}
