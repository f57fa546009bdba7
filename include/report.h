/*
 * report.h: formatters.  They read struct result and write text; they
 * never measure.  One table of CSV fields (csv.c) drives every CSV
 * writer, the header, and the reader.
 */
#ifndef CLYDE_REPORT_H
#define CLYDE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "config.h"
#include "result.h"

enum field_kind {
	F_FORMAT_VERSION,
	F_BONNIE_VERSION,
	F_NAME,
	F_CONCURRENCY,
	F_SEED,
	F_FILE_SIZE,            /* 1.0x: size[:chunk] in one field */
	F_IO_CHUNK,
	F_SEEKS,
	F_SEEKERS,
	F_RATE,                 /* of .phase */
	F_CPU,                  /* of .phase */
	F_FILE_SPEC,            /* 1.0x: files[:max:min][/dirs] in one field */
	F_NUM_FILES,
	F_MAX_SIZE,
	F_MIN_SIZE,
	F_FILE_CHUNK,
	F_NUM_DIRS,
	F_LATENCY               /* of .phase */
};

struct csv_field {
	const char *name;       /* header name */
	enum field_kind kind;
	enum phase_id phase;    /* for F_RATE, F_CPU, F_LATENCY */
};

struct csv_layout {
	const char *format_version;     /* "" for 1.0x */
	const struct csv_field *fields;
	size_t nfields;
};

/* bonnie++ 1.03e: 27 fields.  bonnie++ 2.00a: 50 fields, format 1.98. */
extern const struct csv_layout csv_layout_103;
extern const struct csv_layout csv_layout_198;

const struct csv_layout *csv_layout_for(enum compat compat);
void csv_write_header(FILE *out, const struct csv_layout *layout);
void csv_write_row(FILE *out, const struct csv_layout *layout,
    const struct result *res);

/*
 * Read one CSV data line of 'layout' into res (fields trimmed of blanks,
 * as people paste them).  Returns 0, or -1 with a short reason in why.
 */
int csv_read_row(const char *line, const struct csv_layout *layout,
    struct result *res, char *why, size_t why_len);

/* The text table of one result in the layout of 'compat'. */
void report_text(FILE *out, enum compat compat, const struct result *res);

/* Cell strings shared by the text and CSV writers. */
void fmt_file_size(char *out, size_t n, uint64_t mib);
void fmt_latency(char *out, size_t n, int64_t latency_us);
void fmt_chunk(char *out, size_t n, unsigned bytes);
/* 1.0x size label: "64M", "2G", "64M:4k" */
void fmt_size_103(char *out, size_t n, const struct result *res);
/* files column: "16", "2:1024:512/4", "2:link", "2:symlink" */
void fmt_files_spec(char *out, size_t n, const struct files_spec *fs);

#endif
