/*
 * core/csv.h: bonnie++'s CSV lines as data (core/csv.c).  One table of fields per
 * layout drives the writer, the header, and the reader (in/csv_line.c); the
 * cell strings here are shared by the text table.
 */
#ifndef CLYDE_CSV_H
#define CLYDE_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "result.h"
#include "lib/units.h"

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

/*
 * Every CSV layout bonnie++ wrote, one table each (clyde(1), REPORT).
 * clyde writes csv_layout_103 (1.03e, 27 fields) and csv_layout_198
 * (2.00a, 50 fields, format 1.98); the reader walks all of them.
 */
extern const struct csv_layout csv_layout_103;     /* 1.00d-1.03e: 27 */
extern const struct csv_layout csv_layout_190a;    /* 1.90a: 33 */
extern const struct csv_layout csv_layout_190;     /* 1.90f-1.91: 45 */
extern const struct csv_layout csv_layout_192;     /* 1.91c-1.92: 46 */
extern const struct csv_layout csv_layout_192a;    /* 1.92a: 46 */
extern const struct csv_layout csv_layout_196;     /* 1.92b-1.97: 48 */
extern const struct csv_layout csv_layout_196_s0;  /* 1.92b-1.96 -s 0: 47 */
extern const struct csv_layout csv_layout_198;     /* 1.98-2.00a: 50 */

const struct csv_layout *csv_layout_for(enum compat compat);

/*
 * A format tag ("1.92b", "2") as a number that orders the releases,
 * CSV_TAG_KEY(1, 92, 2); 0 for "2"; -1 for no tag's shape.
 */
long csv_tag_key(const char *tag);
#define CSV_TAG_KEY(major, minor, letter) \
	((major) * 10000L + (minor) * 100L + (letter))
/*
 * The layouts a tag can have, by field count, into out (NULL where
 * none).  Returns the largest count (0: no bonnie++ CSV format has this
 * tag).  The reader tries each; the writer of a result read from a table
 * or a run writes the line of its generation (csv_layout_of_tag()).
 */
size_t csv_layouts_of_tag(const char *tag, const struct csv_layout *out[3]);
/* The layout of a format tag ("1.0x", "1.97", "1.98"), or NULL. */
const struct csv_layout *csv_layout_of_tag(const char *tag);
/* The header name of a column: "putc_cpu", "num_dirs", ... */
void csv_field_name(char *out, size_t n, const struct csv_field *f);
void csv_write_header(FILE *out, const struct csv_layout *layout);
void csv_write_row(FILE *out, const struct csv_layout *layout,
    const struct result *res);

/* Cell strings shared by the text and CSV writers (and fmt_file_size()). */
void fmt_latency(char *out, size_t n, int64_t latency_us);
/* seeks as a CSV line keeps them; always_decimal for 1.0x lines */
void fmt_seeks(char *out, size_t n, double rate, bool always_decimal);
/* 1.0x size label: "64M", "2G", "64M:4k" */
void fmt_size_103(char *out, size_t n, const struct result *res);
/* files column: "16", "2:1024:512/4", "2:link", "2:symlink" */
void fmt_files_spec(char *out, size_t n, const struct files_spec *fs);

#endif
