// SPDX-License-Identifier: MIT
/*
 * nonss.c - host name lookups for the static cvmfn, which resolves no names.
 *
 * cvmfn digests outputs with libcrypto.a. Its EVP code reaches the BIO layer,
 * whose socket helpers call getaddrinfo() and gethostbyname(); in a static
 * binary glibc warns at link time that these need the shared NSS modules of
 * the same glibc at run time. No workload opens a socket through OpenSSL,
 * so these stand-ins take glibc's place (like nodl.c for dlopen): every
 * lookup fails. freeaddrinfo() is here too because glibc keeps it in the
 * same archive member as getaddrinfo(). Not linked into cvmbench.
 */
#include <netdb.h>
#include <stddef.h>

/** getaddrinfo() - always fails: the static cvmfn resolves no names. */
int getaddrinfo(const char *node, const char *service,
		const struct addrinfo *hints, struct addrinfo **res)
{
	(void)node;
	(void)service;
	(void)hints;
	*res = NULL;
	return EAI_FAIL;
}

/** freeaddrinfo() - nothing was ever allocated by getaddrinfo() above. */
void freeaddrinfo(struct addrinfo *res)
{
	(void)res;
}

/** gethostbyname() - always fails, with h_errno NO_RECOVERY. */
struct hostent *gethostbyname(const char *name)
{
	(void)name;
	h_errno = NO_RECOVERY;
	return NULL;
}
