/*
 * csv_read.c: one CSV line into the result record, walking the same
 * field table as the writer.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

#define MAX_FIELDS 64
#define LINE_MAX_LEN 4096

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static int fail(char *why, size_t n, const char *what, const char *value)
{
	snprintf(why, n, "%s '%.40s'", what, value);
	return -1;
}

/* "16096M", "2G", "64M:4k", or a bare number of MiB (1.00-1.00b) */
static int read_size_103(const char *s, struct result *res)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	uint64_t chunk;

	if (end == s)
		return -1;
	if (*end == 'G')
		v *= 1024, end++;
	else if (*end == 'M')
		end++;
	res->has_io = true;
	res->file_size_mib = v;
	res->chunk = DEFAULT_CHUNK;
	if (*end == '\0')
		return 0;
	if (*end != ':' || parse_size(end + 1, "km", 1, 1, MAX_CHUNK, &chunk))
		return -1;
	res->chunk = (unsigned)chunk;
	return 0;
}

/* "16", "2:1024:512/4", "2:link", "2:symlink" */
static int read_files_103(const char *s, struct files_spec *fs)
{
	char *end;

	fs->count_k = (unsigned)strtoul(s, &end, 10);
	if (end == s)
		return -1;
	fs->dirs = 1;
	fs->chunk = DEFAULT_CHUNK;
	if (strncmp(end, ":link", 5) == 0) {
		fs->max_size = FILES_HARDLINK;
		end += 5;
	} else if (strncmp(end, ":symlink", 8) == 0) {
		fs->max_size = FILES_SYMLINK;
		end += 8;
	} else if (*end == ':') {
		s = end + 1;
		fs->max_size = strtol(s, &end, 10);
		if (end == s || *end != ':')
			return -1;
		s = end + 1;
		fs->min_size = strtol(s, &end, 10);
		if (end == s)
			return -1;
	}
	if (*end == '/') {
		s = end + 1;
		fs->dirs = (unsigned)strtoul(s, &end, 10);
		if (end == s)
			return -1;
	}
	return *end == '\0' ? 0 : -1;
}

static int read_rate(const char *s, struct cell *c, enum phase_id ph)
{
	char *end;

	if (*s == '\0') {
		c->status = CELL_SKIPPED;
		return 0;
	}
	if (strcmp(s, "+++++") == 0) {
		c->status = CELL_TOO_FAST;
		return 0;
	}
	c->rate = strtod(s, &end);
	if (end == s || *end != '\0' || c->rate < 0 ||
	    (ph != PH_SEEKS && strchr(s, '.') != NULL))
		return -1;
	c->status = CELL_OK;
	return 0;
}

static int read_cpu(const char *s, struct cell *c)
{
	char *end;
	long v;

	if (*s == '\0' || strcmp(s, "+++") == 0)
		return 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0' || v < 0 || v > 1000000)
		return -1;
	c->cpu = (int)v;
	return 0;
}

static int read_field(const struct csv_field *f, char *s, struct result *res)
{
	switch (f->kind) {
	case F_NAME:
		snprintf(res->name, sizeof(res->name), "%s", s);
		return 0;
	case F_FILE_SIZE:
		return *s == '\0' ? 0 : read_size_103(s, res);
	case F_FILE_SPEC:
		if (*s == '\0')
			return 0;
		res->has_files = true;
		return read_files_103(s, &res->files);
	case F_RATE:
		return read_rate(s, &res->cell[f->phase], f->phase);
	case F_CPU:
		return read_cpu(s, &res->cell[f->phase]);
	default:
		/* the 1.9x columns come with the reader of every generation */
		return -1;
	}
}

int csv_read_row(const char *line, const struct csv_layout *layout,
    struct result *res, char *why, size_t why_len)
{
	char buf[LINE_MAX_LEN], *field[MAX_FIELDS], *p;
	size_t n = 0, i;

	if (strlen(line) >= sizeof(buf))
		return fail(why, why_len, "line too long", line);
	strcpy(buf, line);
	buf[strcspn(buf, "\r\n")] = '\0';
	field[n++] = buf;
	for (p = buf; *p != '\0'; p++) {
		if (*p != ',')
			continue;
		if (n == MAX_FIELDS)
			return fail(why, why_len, "too many fields", line);
		*p = '\0';
		field[n++] = p + 1;
	}
	if (n != layout->nfields) {
		snprintf(why, why_len, "%zu fields, expected %zu", n,
		    layout->nfields);
		return -1;
	}
	memset(res, 0, sizeof(*res));
	strcpy(res->generation, layout == &csv_layout_103 ? "1.0x" : "1.98");
	for (i = 0; i < PH_COUNT; i++) {
		res->cell[i].cpu = -1;
		res->cell[i].latency_us = -1;
	}
	for (i = 0; i < n; i++) {
		char *s = layout->fields[i].kind == F_NAME ? field[i] : trim(field[i]);

		if (read_field(&layout->fields[i], s, res) != 0)
			return fail(why, why_len, "unreadable field", s);
	}
	return 0;
}
