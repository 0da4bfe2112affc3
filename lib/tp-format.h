/* SPDX-License-Identifier: MIT */
/*
 * tp-format.h - one trace event's format, parsed by libtraceevent: from the
 * running kernel's tracefs (events/SYSTEM/EVENT/format) or from a captured
 * format file (a test fixture, another machine's capture). Gives the event's
 * id, its fields and its print args; nothing here parses the text itself.
 */
#ifndef CVMBENCH_TP_FORMAT_H
#define CVMBENCH_TP_FORMAT_H

#include <stddef.h>

struct tep_handle;
struct tep_event;

struct tp_format {
	struct tep_handle *tep;
	struct tep_event *event;  /* owned by @tep */
};

/**
 * tp_format_parse() - parse the text of a format file (@buf, @len) of
 * trace system @sys into @f. Returns 0, or -errno with the reason in @err.
 */
int tp_format_parse(struct tp_format *f, const char *buf, size_t len, const char *sys,
		    char *err, size_t errlen);
/**
 * tp_format_load_file() - read and parse the format file at @path.
 */
int tp_format_load_file(struct tp_format *f, const char *path, const char *sys,
			char *err, size_t errlen);
/**
 * tp_format_load() - SYS:EVENT of the running kernel, from the tracing
 * directory @tracing_dir (tracefs_host_dir()). -ENOENT when the kernel
 * has no such event.
 */
int tp_format_load(struct tp_format *f, const char *tracing_dir, const char *sys,
		   const char *event, char *err, size_t errlen);
/** tp_format_id() - the event's id (perf_event_attr.config), or -1. */
int tp_format_id(const struct tp_format *f);
/** tp_format_has_field() - 1 if the event has a field named @name. */
int tp_format_has_field(const struct tp_format *f, const char *name);
/**
 * tp_format_field() - where field @name (common_* fields too) is in a record: its byte offset
 * and size into *@offset and *@size. Returns 0, or -ENOENT.
 */
int tp_format_field(const struct tp_format *f, const char *name, unsigned int *offset,
		    unsigned int *size);
/** tp_format_free() - release @f (it may be zeroed or freed already). */
void tp_format_free(struct tp_format *f);

#endif
