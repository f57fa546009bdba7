/*
 * core/csv.c: the CSV layouts of bonnie++ (the only description of the
 * columns) and the writer that walks them.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"

#define RATE_CPU(ph) \
	{ NULL, F_RATE, ph }, { NULL, F_CPU, ph }
#define IO_CELLS \
	RATE_CPU(PH_PUTC), RATE_CPU(PH_PUT_BLOCK), RATE_CPU(PH_REWRITE), \
	RATE_CPU(PH_GETC), RATE_CPU(PH_GET_BLOCK), RATE_CPU(PH_SEEKS)
#define FILE_CELLS \
	RATE_CPU(PH_SEQ_CREATE), RATE_CPU(PH_SEQ_STAT), RATE_CPU(PH_SEQ_DEL), \
	RATE_CPU(PH_RAN_CREATE), RATE_CPU(PH_RAN_STAT), RATE_CPU(PH_RAN_DEL)
#define LATENCY(ph) { NULL, F_LATENCY, ph }
#define LATENCIES \
	LATENCY(PH_PUTC), LATENCY(PH_PUT_BLOCK), LATENCY(PH_REWRITE), \
	LATENCY(PH_GETC), LATENCY(PH_GET_BLOCK), LATENCY(PH_SEEKS), \
	LATENCY(PH_SEQ_CREATE), LATENCY(PH_SEQ_STAT), LATENCY(PH_SEQ_DEL), \
	LATENCY(PH_RAN_CREATE), LATENCY(PH_RAN_STAT), LATENCY(PH_RAN_DEL)
#define VERSIONS \
	{ "format_version", F_FORMAT_VERSION, 0 }, \
	{ "bonnie_version", F_BONNIE_VERSION, 0 }, \
	{ "name", F_NAME, 0 }
#define SIZE_CHUNK \
	{ "file_size", F_FILE_SIZE, 0 }, { "io_chunk_size", F_IO_CHUNK, 0 }
#define FILE_SPEC_4 \
	{ "num_files", F_NUM_FILES, 0 }, { "max_size", F_MAX_SIZE, 0 }, \
	{ "min_size", F_MIN_SIZE, 0 }, { "num_dirs", F_NUM_DIRS, 0 }
/*
 * The five file-spec columns under their header names.  bonnie++ 1.91c
 * to 2.00a write num_dirs in the column named file_chunk_size and leave
 * the other empty; the reader sorts that out (clyde(1), REPORT, Input).
 */
#define FILE_SPEC_5 FILE_SPEC_4, { "file_chunk_size", F_FILE_CHUNK, 0 }
#define CONCURRENCY_SEED \
	{ "concurrency", F_CONCURRENCY, 0 }, { "seed", F_SEED, 0 }

/* 1.00d-1.03e.  Header names of rate and CPU columns come from phase_csv_name[]. */
static const struct csv_field fields_103[] = {
	{ "name", F_NAME, 0 },
	{ "file_size", F_FILE_SIZE, 0 },
	IO_CELLS,
	{ "num_files", F_FILE_SPEC, 0 },
	FILE_CELLS,
};

/* 1.90a: "2", the version, no latencies (33). 1.90f-1.91 add them (45). */
static const struct csv_field fields_190a[] = {
	VERSIONS, SIZE_CHUNK, IO_CELLS, FILE_SPEC_4, FILE_CELLS,
};
static const struct csv_field fields_190[] = {
	VERSIONS, SIZE_CHUNK, IO_CELLS, FILE_SPEC_4, FILE_CELLS, LATENCIES,
};

/* 1.91c-1.92: the file chunk column (46). */
static const struct csv_field fields_192[] = {
	VERSIONS, SIZE_CHUNK, IO_CELLS, FILE_SPEC_5, FILE_CELLS, LATENCIES,
};

/* 1.92a as published: a seed, no chunk column (46). */
static const struct csv_field fields_192a[] = {
	VERSIONS, { "seed", F_SEED, 0 }, { "file_size", F_FILE_SIZE, 0 },
	IO_CELLS, FILE_SPEC_5, FILE_CELLS, LATENCIES,
};

/* 1.92b-1.97: concurrency and seed (48). */
static const struct csv_field fields_196[] = {
	VERSIONS, CONCURRENCY_SEED, SIZE_CHUNK, IO_CELLS, FILE_SPEC_5,
	FILE_CELLS, LATENCIES,
};

/* 1.92b-1.96 with -s 0: one empty field short, the rest shifted (47). */
static const struct csv_field fields_196_s0[] = {
	VERSIONS, CONCURRENCY_SEED, { "file_size", F_FILE_SIZE, 0 },
	IO_CELLS, FILE_SPEC_5, FILE_CELLS, LATENCIES,
};

/*
 * 1.98 (2.00, 2.00a).  2.00a's own header has 48 names (seeks and
 * seek_proc_count missing) and its data writes num_dirs where the header
 * says file_chunk_size.  This table names all 50 columns and clyde writes
 * each value under its name.
 */
static const struct csv_field fields_198[] = {
	VERSIONS, CONCURRENCY_SEED, SIZE_CHUNK,
	{ "seeks", F_SEEKS, 0 },
	{ "seek_proc_count", F_SEEKERS, 0 },
	IO_CELLS, FILE_SPEC_5, FILE_CELLS, LATENCIES,
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define LAYOUT(tag, f) { tag, f, NELEM(f) }

const struct csv_layout csv_layout_103 = LAYOUT("", fields_103);
const struct csv_layout csv_layout_190a = LAYOUT("2", fields_190a);
const struct csv_layout csv_layout_190 = LAYOUT("2", fields_190);
const struct csv_layout csv_layout_192 = LAYOUT("1.92", fields_192);
const struct csv_layout csv_layout_192a = LAYOUT("1.92a", fields_192a);
const struct csv_layout csv_layout_196 = LAYOUT("1.96", fields_196);
const struct csv_layout csv_layout_196_s0 = LAYOUT("1.96", fields_196_s0);
const struct csv_layout csv_layout_198 = LAYOUT("1.98", fields_198);

const struct csv_layout *csv_layout_for(enum compat compat)
{
	return compat == COMPAT_103 ? &csv_layout_103 : &csv_layout_198;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

long csv_tag_key(const char *tag)
{
	long major, minor;
	char *end;

	if (strcmp(tag, "2") == 0)
		return 0;
	major = strtol(tag, &end, 10);
	if (*end != '.' || !is_digit(end[1]))
		return -1;
	minor = strtol(end + 1, &end, 10);
	if (minor < 10)
		minor *= 10;    /* "1.9" reads as 1.90 */
	if (minor > 99)
		return -1;
	return major * 10000 + minor * 100 +
	    (*end >= 'a' && *end <= 'z' ? *end - 'a' + 1 : 0);
}

size_t csv_layouts_of_tag(const char *tag, const struct csv_layout *out[3])
{
	long k = csv_tag_key(tag);

	out[0] = out[1] = out[2] = NULL;
	if (k == 0) {
		/* 1.90a, 1.90f-1.91, and 1.91c-1.92 "-s 0" lines, tagged 2 */
		out[0] = &csv_layout_190a;
		out[1] = &csv_layout_190;
		out[2] = &csv_layout_192;
	} else if (k >= CSV_TAG_KEY(1, 91, 0) && k <= CSV_TAG_KEY(1, 92, 0)) {
		out[0] = &csv_layout_192;
	} else if (k == CSV_TAG_KEY(1, 92, 1)) {
		out[0] = &csv_layout_192a;
	} else if (k >= CSV_TAG_KEY(1, 92, 2) && k <= CSV_TAG_KEY(1, 96, 26)) {
		out[0] = &csv_layout_196;
		out[1] = &csv_layout_196_s0;
	} else if (k >= CSV_TAG_KEY(1, 97, 0) && k <= CSV_TAG_KEY(1, 97, 26)) {
		out[0] = &csv_layout_196;
	} else if (k >= CSV_TAG_KEY(1, 98, 0)) {
		out[0] = &csv_layout_198;
	}
	return out[2] != NULL ? out[2]->nfields :
	    out[0] != NULL ? out[0]->nfields : 0;
}

const struct csv_layout *csv_layout_of_tag(const char *tag)
{
	const struct csv_layout *cand[3];

	if (strcmp(tag, "1.0x") == 0)
		return &csv_layout_103;
	if (csv_layouts_of_tag(tag, cand) == 0)
		return NULL;
	return cand[2] != NULL ? cand[2] : cand[0];
}

void csv_field_name(char *out, size_t n, const struct csv_field *f)
{
	const char *ph = phase_csv_name[f->phase];

	switch (f->kind) {
	case F_RATE:
		snprintf(out, n, "%s", ph);
		break;
	case F_CPU:
		snprintf(out, n, "%s_cpu", ph);
		break;
	case F_LATENCY:
		snprintf(out, n, "%s_latency", ph);
		break;
	default:
		snprintf(out, n, "%s", f->name);
		break;
	}
}

void csv_write_header(FILE *out, const struct csv_layout *layout)
{
	char name[64];
	size_t i;

	for (i = 0; i < layout->nfields; i++) {
		csv_field_name(name, sizeof(name), &layout->fields[i]);
		fprintf(out, "%s%s", i ? "," : "", name);
	}
	fputc('\n', out);
}

/* bonnie++'s latency string: whole us below 0.1 s, ms below 100 s, then s. */
void fmt_latency(char *out, size_t n, int64_t us)
{
	if (us < 0)
		snprintf(out, n, "%s", "");
	else if (us >= 100000000)
		snprintf(out, n, "%llds", (long long)(us / 1000000));
	else if (us >= 100000)
		snprintf(out, n, "%lldms", (long long)(us / 1000));
	else
		snprintf(out, n, "%lldus", (long long)us);
}

/* 1.0x: size and a non-default chunk in one field, as "64M:4k". */
void fmt_size_103(char *out, size_t n, const struct result *res)
{
	size_t len;

	fmt_file_size(out, n, res->file_size_mib);
	len = strlen(out);
	if (res->chunk == 0 || res->chunk == DEFAULT_CHUNK)
		return;
	if (res->chunk >= 1024)
		snprintf(out + len, n - len, ":%uk", res->chunk / 1024);
	else
		snprintf(out + len, n - len, ":%u", res->chunk);
}

/* 1.0x: "16", "2:1024:512/4", "2:link", "2:symlink" */
void fmt_files_spec(char *out, size_t n, const struct files_spec *fs)
{
	size_t len;

	snprintf(out, n, "%u", fs->count_k);
	len = strlen(out);
	if (fs->max_size == FILES_HARDLINK)
		snprintf(out + len, n - len, ":link");
	else if (fs->max_size == FILES_SYMLINK)
		snprintf(out + len, n - len, ":symlink");
	else if (fs->max_size != 0)
		snprintf(out + len, n - len, ":%ld:%ld", fs->max_size, fs->min_size);
	len = strlen(out);
	if (fs->dirs > 1)
		snprintf(out + len, n - len, "/%u", fs->dirs);
}

/*
 * Seeks: "%.1f" (1.0x always, 1.92b+ below 1000), else "%.0f".  The
 * choice is made on the value as written, so that 999.96 becomes "1000"
 * and not "1000.0": text printed from the line then matches the text
 * printed from the measurement.
 */
void fmt_seeks(char *out, size_t n, double rate, bool always_decimal)
{
	snprintf(out, n, "%.1f", rate);
	if (!always_decimal && strtod(out, NULL) >= 1000.0)
		snprintf(out, n, "%.0f", rate);
}

static void rate_field(char *out, size_t n, const struct result *res,
    enum phase_id ph, bool seeks_always_decimal)
{
	const struct cell *c = &res->cell[ph];

	if (c->status == CELL_SKIPPED || c->status == CELL_UNKNOWN ||
	    c->status == CELL_ABSENT)
		snprintf(out, n, "%s", "");
	else if (c->status == CELL_TOO_FAST)
		snprintf(out, n, "+++++");
	else if (ph == PH_SEEKS)
		fmt_seeks(out, n, c->rate, seeks_always_decimal);
	else if (c->rate < 2147483647.0)
		snprintf(out, n, "%d", (int)c->rate);   /* truncated */
	else
		snprintf(out, n, "%.0f", floor(c->rate));
}

static void cpu_field(char *out, size_t n, const struct cell *c)
{
	if (c->status == CELL_SKIPPED || c->status == CELL_ABSENT)
		snprintf(out, n, "%s", "");
	else if (c->status == CELL_TOO_FAST)
		snprintf(out, n, "+++");
	else
		snprintf(out, n, "%d", c->cpu);
}

/* 1.98 file-spec columns, each in the column its header name says. */
static void files_field_198(char *out, size_t n, const struct result *res,
    enum field_kind kind)
{
	const struct files_spec *fs = &res->files;

	out[0] = '\0';
	if (!res->has_files)
		return;
	switch (kind) {
	case F_NUM_FILES:
		snprintf(out, n, "%u", fs->count_k);
		break;
	case F_MAX_SIZE:
		if (fs->max_size == FILES_HARDLINK)
			snprintf(out, n, "link");
		else if (fs->max_size == FILES_SYMLINK)
			snprintf(out, n, "symlink");
		else if (fs->max_size != 0)
			snprintf(out, n, "%ld", fs->max_size);
		break;
	case F_MIN_SIZE:
		if (fs->max_size > 0 && fs->min_size != 0)
			snprintf(out, n, "%ld", fs->min_size);
		break;
	case F_NUM_DIRS:
		/* written with a file chunk too, so that a reader never takes
		 * the chunk for bonnie++'s misplaced num_dirs */
		if (fs->dirs > 1 || (fs->chunk != 0 && fs->chunk != DEFAULT_CHUNK))
			snprintf(out, n, "%u", fs->dirs);
		break;
	case F_FILE_CHUNK:
		if (fs->chunk != 0 && fs->chunk != DEFAULT_CHUNK)
			fmt_chunk(out, n, fs->chunk);
		break;
	default:
		break;
	}
}

static void field_value(char *out, size_t n, const struct csv_layout *layout,
    const struct csv_field *f, const struct result *res)
{
	bool is_103 = layout->format_version[0] == '\0';

	out[0] = '\0';
	switch (f->kind) {
	case F_FORMAT_VERSION:
		snprintf(out, n, "%s", layout->format_version);
		break;
	case F_BONNIE_VERSION:
		snprintf(out, n, "%s", res->bonnie_version);
		break;
	case F_NAME:
		snprintf(out, n, "%s", res->name);
		break;
	case F_CONCURRENCY:
		if (res->concurrency > 0)
			snprintf(out, n, "%d", res->concurrency);
		break;
	case F_SEED:
		snprintf(out, n, "%s", res->seed);
		break;
	case F_FILE_SIZE:
		if (!res->has_io)
			break;
		if (is_103)
			fmt_size_103(out, n, res);
		else
			fmt_file_size(out, n, res->file_size_mib);
		break;
	case F_IO_CHUNK:
		if (res->has_io && res->chunk != 0 && res->chunk != DEFAULT_CHUNK)
			fmt_chunk(out, n, res->chunk);
		break;
	case F_SEEKS:
		if (res->has_io && res->seeks != 0)
			snprintf(out, n, "%u", res->seeks);
		break;
	case F_SEEKERS:
		if (res->has_io && res->seekers != 0)
			snprintf(out, n, "%u", res->seekers);
		break;
	case F_RATE:
		rate_field(out, n, res, f->phase, is_103);
		break;
	case F_CPU:
		cpu_field(out, n, &res->cell[f->phase]);
		break;
	case F_FILE_SPEC:
		if (res->has_files)
			fmt_files_spec(out, n, &res->files);
		break;
	case F_NUM_FILES:
	case F_MAX_SIZE:
	case F_MIN_SIZE:
	case F_FILE_CHUNK:
	case F_NUM_DIRS:
		files_field_198(out, n, res, f->kind);
		break;
	case F_LATENCY:
		fmt_latency(out, n, res->cell[f->phase].latency_us);
		break;
	}
}

void csv_write_row(FILE *out, const struct csv_layout *layout,
    const struct result *res)
{
	char value[512];
	size_t i;

	for (i = 0; i < layout->nfields; i++) {
		field_value(value, sizeof(value), layout, &layout->fields[i], res);
		fprintf(out, "%s%s", i ? "," : "", value);
	}
	fputc('\n', out);
}
