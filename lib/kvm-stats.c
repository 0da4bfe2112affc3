// SPDX-License-Identifier: MIT
/*
 * kvm-stats.c - KVM binary statistics by name (kvm-stats.h): the header,
 * then num_desc descriptors (each followed by a name of name_size bytes),
 * then the data, every value a u64 at data_offset + desc.offset.
 */
#include <errno.h>
#include <linux/kvm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kvm-stats.h"

static int find(const char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

static int read_all(int sfd, struct kvm_stats_header *h, const char *const *names,
		    size_t n, uint64_t *vals)
{
	size_t dsz = sizeof(struct kvm_stats_desc) + h->name_size, i;
	char *descs = malloc(dsz * h->num_desc);
	struct kvm_stats_desc *d;
	int k, ret = 0;

	if (!descs)
		return -ENOMEM;
	if (pread(sfd, descs, dsz * h->num_desc, h->desc_offset) != (ssize_t)(dsz * h->num_desc))
		ret = -EIO;
	for (i = 0; !ret && i < h->num_desc; i++) {
		d = (struct kvm_stats_desc *)(descs + i * dsz);
		d->name[h->name_size - 1] = '\0';
		k = find(names, n, d->name);
		if (k >= 0 && pread(sfd, &vals[k], sizeof(uint64_t),
				    h->data_offset + d->offset) != sizeof(uint64_t))
			ret = -EIO;
	}
	free(descs);
	return ret;
}

int kvm_stats_read_stats_fd(int sfd, const char *const *names, size_t n, uint64_t *vals)
{
	struct kvm_stats_header h;
	size_t i;

	for (i = 0; i < n; i++)
		vals[i] = UINT64_MAX;
	if (pread(sfd, &h, sizeof(h), 0) != sizeof(h) || !h.name_size)
		return -EIO;
	return read_all(sfd, &h, names, n, vals);
}

int kvm_stats_read(int fd, const char *const *names, size_t n, uint64_t *vals)
{
	size_t i;
	int sfd = ioctl(fd, KVM_GET_STATS_FD, NULL), ret;

	for (i = 0; i < n; i++)
		vals[i] = UINT64_MAX;
	if (sfd < 0)
		return -errno;
	ret = kvm_stats_read_stats_fd(sfd, names, n, vals);
	close(sfd);
	return ret;
}
