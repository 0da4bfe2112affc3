// SPDX-License-Identifier: MIT
/*
 * guest-util.c - small file helpers of the guest builders: SHA-256 of
 * files and strings (libcrypto), removing our own temporary
 * tree, and telling a static ELF binary from a dynamic one.
 */
#define _XOPEN_SOURCE 700
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest-local.h"

static void to_hex(const unsigned char *md, unsigned int n, char hex[SHA256_HEX])
{
	unsigned int i;

	for (i = 0; i < n && i < 32; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	hex[2 * i] = '\0';
}

int guest_sha256_update_file(EVP_MD_CTX *ctx, const char *path)
{
	unsigned char buf[1 << 16];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (!EVP_DigestUpdate(ctx, buf, (size_t)n)) {
			ret = -EIO;
			break;
		}
	if (n < 0)
		ret = -errno;
	close(fd);
	return ret;
}

void guest_sha256_final(EVP_MD_CTX *ctx, char hex[SHA256_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	EVP_DigestFinal_ex(ctx, md, &n);
	EVP_MD_CTX_free(ctx);
	to_hex(md, n, hex);
}

int guest_sha256_file(const char *path, char hex[SHA256_HEX])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ret;

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(ctx);
		return -ENOMEM;
	}
	ret = guest_sha256_update_file(ctx, path);
	guest_sha256_final(ctx, hex);
	return ret;
}

void guest_sha256_str(const char *s, char hex[SHA256_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	EVP_Digest(s, strlen(s), md, &n, EVP_sha256(), NULL);
	to_hex(md, n, hex);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void guest_rm_tree(const char *dir)
{
	/* FTW_PHYS: never follow a symlink out of the tree; FTW_MOUNT: stay on it */
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

int guest_is_static(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 1;

	if (fd < 0)
		return -errno;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		close(fd);
		return -ENOEXEC;
	}
	for (int i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize))
		    != sizeof(ph)) {
			ret = -EIO;
			break;
		}
		if (ph.p_type == PT_INTERP)
			ret = 0;
	}
	close(fd);
	return ret;
}

int guest_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
