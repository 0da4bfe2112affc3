// SPDX-License-Identifier: MIT
/*
 * digest.c - SHA-256 (FIPS 180-4), small and dependency-free so that the
 * static cvmfn can digest outputs anywhere it runs.
 */
#include <stdio.h>
#include <string.h>

#include "digest.h"

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void digest_block(struct digest *d, const uint8_t *p)
{
	uint32_t w[64], s[8];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	memcpy(s, d->state, sizeof(s));
	for (i = 0; i < 64; i++) {
		uint32_t S1 = ror(s[4], 6) ^ ror(s[4], 11) ^ ror(s[4], 25);
		uint32_t ch = (s[4] & s[5]) ^ (~s[4] & s[6]);
		uint32_t t1 = s[7] + S1 + ch + k256[i] + w[i];
		uint32_t S0 = ror(s[0], 2) ^ ror(s[0], 13) ^ ror(s[0], 22);
		uint32_t maj = (s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]);

		memmove(s + 1, s, 7 * sizeof(s[0]));
		s[4] += t1;
		s[0] = t1 + S0 + maj;
	}
	for (i = 0; i < 8; i++)
		d->state[i] += s[i];
}

void digest_init(struct digest *d)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(d->state, iv, sizeof(iv));
	d->bytes = 0;
	d->fill = 0;
}

void digest_update(struct digest *d, const void *data, size_t len)
{
	const uint8_t *p = data;

	d->bytes += len;
	while (len) {
		size_t take = 64 - d->fill;

		if (take > len)
			take = len;
		if (d->fill == 0 && len >= 64) {
			digest_block(d, p);
			p += 64;
			len -= 64;
			continue;
		}
		memcpy(d->block + d->fill, p, take);
		d->fill += take;
		p += take;
		len -= take;
		if (d->fill == 64) {
			digest_block(d, d->block);
			d->fill = 0;
		}
	}
}

void digest_final_raw(struct digest *d, uint8_t out[DIGEST_BYTES])
{
	uint64_t bits = d->bytes * 8;
	uint8_t pad = 0x80, zero = 0, len[8];
	int i;

	digest_update(d, &pad, 1);
	while (d->fill != 56)
		digest_update(d, &zero, 1);
	for (i = 0; i < 8; i++)
		len[i] = (uint8_t)(bits >> (56 - 8 * i));
	digest_update(d, len, 8);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(d->state[i] >> 24);
		out[4 * i + 1] = (uint8_t)(d->state[i] >> 16);
		out[4 * i + 2] = (uint8_t)(d->state[i] >> 8);
		out[4 * i + 3] = (uint8_t)d->state[i];
	}
}

void digest_final(struct digest *d, char hex[DIGEST_HEX_LEN])
{
	uint8_t raw[DIGEST_BYTES];
	int i;

	digest_final_raw(d, raw);
	for (i = 0; i < DIGEST_BYTES; i++)
		sprintf(hex + 2 * i, "%02x", raw[i]);
}

void digest_u64(struct digest *d, uint64_t v)
{
	uint8_t b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	digest_update(d, b, sizeof(b));
}

void digest_double(struct digest *d, double v, int decimals)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%.*f;", decimals, v);

	/* "-0.000" and "0.000" are the same result */
	if (strspn(buf, "-0.;") == (size_t)n && buf[0] == '-')
		digest_update(d, buf + 1, (size_t)n - 1);
	else
		digest_update(d, buf, (size_t)n);
}

void digest_str(struct digest *d, const char *s)
{
	digest_update(d, s, strlen(s) + 1);
}
