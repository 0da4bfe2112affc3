// SPDX-License-Identifier: MIT
/*
 * pyaes.c - FunctionBench's "pyaes" function: encrypt a message with
 * AES-128-CTR, decrypt it again, N times (pure-Python pyaes there; a
 * T-table AES in plain C here, written for this file from FIPS-197).
 *
 * Sizes (message bytes x iterations): test 4 KiB x 1, small 64 KiB x 10,
 * large 1 MiB x 10. FunctionBench uses a random string and a few hundred
 * iterations; pure Python runs AES ~100x slower than C, so the message is
 * larger here to keep a request in the hundreds of milliseconds.
 *
 * The message is English-like text from the seed (wl_gen_text), or the
 * bytes of --input; key and IV come from the seed, or --key / --iv (32 hex
 * digits each). The counter block is the IV, incremented as one 128-bit
 * big-endian number per block, as OpenSSL does, so --output FILE holds
 * exactly what `openssl enc -aes-128-ctr -K KEY -iv IV` writes. The digest
 * is the ciphertext; every decryption is checked against the message.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rng.h"
#include "wlclock.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

#define AES_BLOCK 16
#define AES128_ROUNDS 10

struct aes_tables {
	uint8_t sbox[256];
	uint32_t te[4][256];      /* te[i][x] = te[0][x] rotated right 8 * i */
};

struct pyaes_state {
	struct aes_tables tables;
	uint32_t round_keys[4 * (AES128_ROUNDS + 1)];
	uint8_t key[AES_BLOCK], iv[AES_BLOCK];
	uint8_t *message, *cipher, *plain;
	size_t len;
	long iterations;
};

static uint8_t gf_double(uint8_t x)
{
	return (uint8_t)((x << 1) ^ ((x & 0x80) ? 0x1b : 0));
}

static uint32_t ror32(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

/* The S-box from its definition (inverse in GF(2^8), then the affine map),
 * walking x = 3^i and its inverse 3^-i together; then the T-tables. */
static void aes_build_tables(struct aes_tables *t)
{
	uint8_t p = 1, q = 1;
	int x, i;

	do {
		p = (uint8_t)(p ^ gf_double(p));        /* p *= 3 */
		q ^= (uint8_t)(q << 1);                 /* q /= 3 */
		q ^= (uint8_t)(q << 2);
		q ^= (uint8_t)(q << 4);
		if (q & 0x80)
			q ^= 0x09;
		t->sbox[p] = (uint8_t)(q ^ (q << 1 | q >> 7) ^ (q << 2 | q >> 6) ^
				       (q << 3 | q >> 5) ^ (q << 4 | q >> 4) ^ 0x63);
	} while (p != 1);
	t->sbox[0] = 0x63;
	for (x = 0; x < 256; x++) {
		uint8_t s = t->sbox[x], s2 = gf_double(s);

		t->te[0][x] = (uint32_t)s2 << 24 | (uint32_t)s << 16 |
			      (uint32_t)s << 8 | (uint32_t)(s2 ^ s);
		for (i = 1; i < 4; i++)
			t->te[i][x] = ror32(t->te[0][x], 8 * i);
	}
}

static uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t sub_word(const uint8_t *sbox, uint32_t w)
{
	return (uint32_t)sbox[w >> 24] << 24 | (uint32_t)sbox[(w >> 16) & 0xff] << 16 |
	       (uint32_t)sbox[(w >> 8) & 0xff] << 8 | sbox[w & 0xff];
}

static void aes128_expand_key(const struct aes_tables *t, const uint8_t key[16],
			      uint32_t rk[44])
{
	uint8_t rcon = 1;
	int i;

	for (i = 0; i < 4; i++)
		rk[i] = load_be32(key + 4 * i);
	for (i = 4; i < 44; i++) {
		uint32_t w = rk[i - 1];

		if (i % 4 == 0) {
			w = sub_word(t->sbox, w << 8 | w >> 24) ^ (uint32_t)rcon << 24;
			rcon = gf_double(rcon);
		}
		rk[i] = rk[i - 4] ^ w;
	}
}

static void aes128_encrypt_block(const struct aes_tables *t, const uint32_t *rk,
				 const uint8_t in[16], uint8_t out[16])
{
	uint32_t s[4], n[4];
	int r, c;

	for (c = 0; c < 4; c++)
		s[c] = load_be32(in + 4 * c) ^ rk[c];
	for (r = 1; r < AES128_ROUNDS; r++) {
		for (c = 0; c < 4; c++)
			n[c] = t->te[0][s[c] >> 24] ^ t->te[1][(s[(c + 1) & 3] >> 16) & 0xff] ^
			       t->te[2][(s[(c + 2) & 3] >> 8) & 0xff] ^
			       t->te[3][s[(c + 3) & 3] & 0xff] ^ rk[4 * r + c];
		memcpy(s, n, sizeof(s));
	}
	for (c = 0; c < 4; c++)
		store_be32(out + 4 * c,
			   ((uint32_t)t->sbox[s[c] >> 24] << 24 |
			    (uint32_t)t->sbox[(s[(c + 1) & 3] >> 16) & 0xff] << 16 |
			    (uint32_t)t->sbox[(s[(c + 2) & 3] >> 8) & 0xff] << 8 |
			    t->sbox[s[(c + 3) & 3] & 0xff]) ^ rk[40 + c]);
}

static void counter_increment(uint8_t ctr[16])
{
	int i;

	for (i = 15; i >= 0; i--)
		if (++ctr[i])
			break;
}

/* CTR mode: out = in XOR AES(iv), AES(iv + 1), ... Encrypts and decrypts. */
static void aes128_ctr(const struct pyaes_state *st, const uint8_t *in,
		       uint8_t *out, size_t len)
{
	uint8_t ctr[AES_BLOCK], ks[AES_BLOCK];
	size_t pos, i;

	memcpy(ctr, st->iv, AES_BLOCK);
	for (pos = 0; pos < len; pos += AES_BLOCK) {
		size_t n = len - pos < AES_BLOCK ? len - pos : AES_BLOCK;

		aes128_encrypt_block(&st->tables, st->round_keys, ctr, ks);
		for (i = 0; i < n; i++)
			out[pos + i] = in[pos + i] ^ ks[i];
		counter_increment(ctr);
	}
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly 32 hex digits into 16 bytes, or a named error. */
static int parse_hex128(struct wl_instance *inst, const char *what,
			const char *hex, uint8_t out[16])
{
	int i;

	if (strlen(hex) != 32)
		return wl_error(inst, -EINVAL, "bad %s '%s': need exactly 32 hex digits",
				what, hex);
	for (i = 0; i < 16; i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return wl_error(inst, -EINVAL, "bad %s '%s': not a hex digit at %d",
					what, hex, hi < 0 ? 2 * i + 1 : 2 * i + 2);
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static int pyaes_key_iv(struct wl_instance *inst, struct pyaes_state *st)
{
	const struct wl_params *p = &inst->params;
	struct rng r;
	int err = 0;

	rng_seed_stream(&r, p->seed, 0xae5);
	rng_bytes(&r, st->key, AES_BLOCK);
	rng_bytes(&r, st->iv, AES_BLOCK);
	if (p->key_hex)
		err = parse_hex128(inst, "--key", p->key_hex, st->key);
	if (!err && p->iv_hex)
		err = parse_hex128(inst, "--iv", p->iv_hex, st->iv);
	return err;
}

static int pyaes_message(struct wl_instance *inst, struct pyaes_state *st)
{
	struct stat sb;
	void *data;
	int err;

	if (inst->params.input) {
		if (!stat(inst->params.input, &sb) && !S_ISREG(sb.st_mode))
			return wl_error(inst, -EINVAL, "--input %s is not a regular file",
					inst->params.input);
		err = wl_read_file(inst, inst->params.input, &data, &st->len);
		if (err)
			return err;
		st->message = data;
	} else {
		st->len = (size_t)wl_pick(inst, 4096, 65536, 1 << 20);
		st->message = malloc(st->len);
		if (!st->message)
			return wl_error(inst, -ENOMEM, "out of memory");
		wl_gen_text(inst->params.seed, (char *)st->message, st->len);
	}
	st->cipher = malloc(st->len + 1);
	st->plain = malloc(st->len + 1);
	if (!st->cipher || !st->plain)
		return wl_error(inst, -ENOMEM, "out of memory for %zu bytes", st->len);
	return 0;
}

static void pyaes_teardown(struct wl_instance *inst)
{
	struct pyaes_state *st = inst->priv;

	free(st->message);
	free(st->cipher);
	free(st->plain);
}

static int pyaes_init(struct wl_instance *inst)
{
	struct pyaes_state *st = inst->priv;
	int err;

	st->iterations = wl_pick(inst, 1, 10, 10);
	aes_build_tables(&st->tables);
	err = pyaes_key_iv(inst, st);
	if (!err)
		err = pyaes_message(inst, st);
	if (err)
		return err;
	aes128_expand_key(&st->tables, st->key, st->round_keys);
	return 0;
}

static int pyaes_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct pyaes_state *st = inst->priv;
	double t0 = wl_now_s(), secs;
	long i;

	for (i = 0; i < st->iterations; i++) {
		aes128_ctr(st, st->message, st->cipher, st->len);
		aes128_ctr(st, st->cipher, st->plain, st->len);
		if (memcmp(st->plain, st->message, st->len))
			return wl_error(inst, -EIO, "decryption %ld does not give the message back",
					i + 1);
	}
	secs = wl_now_s() - t0;
	wl_out_u64(out, st->len);
	wl_out_ref(out, st->cipher, st->len);
	snprintf(inst->summary, sizeof(inst->summary),
		 "%zu bytes x %ld encrypt+decrypt, %.1f MiB/s AES-128-CTR",
		 st->len, st->iterations,
		 secs > 0 ? 2.0 * (double)st->len * (double)st->iterations / secs / 1048576.0 : 0.0);
	if (inst->params.output)
		wl_out_file(out, inst->params.output, st->cipher, st->len);
	return 0;
}

/* For the Python twin: "key-iv" (key then IV, 16 bytes each), "message". */
static int pyaes_export(struct wl_instance *inst)
{
	struct pyaes_state *st = inst->priv;
	uint8_t key_iv[2 * AES_BLOCK];

	memcpy(key_iv, st->key, AES_BLOCK);
	memcpy(key_iv + AES_BLOCK, st->iv, AES_BLOCK);
	return wl_export_write(inst, "key-iv", key_iv, sizeof(key_iv)) ?:
	       wl_export_write(inst, "message", st->message, st->len);
}

const struct workload_ops wl_pyaes = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_pyaes,
	.state_size = sizeof(struct pyaes_state),
	.init = pyaes_init,
	.invoke = pyaes_invoke,
	.teardown = pyaes_teardown,
	.export_inputs = pyaes_export,
};
