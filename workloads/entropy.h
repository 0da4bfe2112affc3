/* SPDX-License-Identifier: MIT */
/*
 * entropy.h - the process's own randomness (instance ids, nonces), as
 * runtimes keep it: getrandom() read once into a buffer and handed out from
 * there. Unlike rng.h (the same bytes from the same --seed, anywhere: the
 * inputs and models), these bytes must differ in every process, and a
 * buffer copied by fork() repeats in every child (the AFaaS finding): a
 * process forked from a seed calls entropy_reseed() first (zygote.c).
 */
#ifndef CVMFN_ENTROPY_H
#define CVMFN_ENTROPY_H

#include <stddef.h>

/**
 * entropy_bytes() - @len bytes of this process's randomness (the buffer
 * filled from getrandom() on first use and whenever it runs out). 0, or
 * -errno when getrandom() fails.
 */
int entropy_bytes(void *buf, size_t len);
/**
 * entropy_reseed() - forget the buffered bytes and fill the buffer from
 * getrandom() anew: what a forked child must do before drawing. 0 or -errno.
 */
int entropy_reseed(void);

#endif
