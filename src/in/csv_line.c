/*
 * in/csv_line.c: one CSV line of any bonnie++ generation into the result
 * record, walking the field table of its layout (core/csv.c).
 *
 * The generation comes from the line itself (clyde(1), REPORT, Input): two
 * version tokens first mean 1.9x or later and the tag and field count
 * pick the layout; anything else must be a 1.0x line of 27 fields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "in/csv_line.h"
#include "core/csv.h"
#include "lib/units.h"

/* More fields than this is no bonnie++ line, even with commas in names. */
#define MAX_FIELDS 64
/* Commas in a name or a -Z seed file name that the reader puts back. */
#define MAX_EXTRA 8
#define FIELD_MAX 512

struct span {
	size_t off, len;
};

struct line {
	const char *text;
	size_t n;                       /* fields, up to MAX_FIELDS */
	bool too_many;
	struct span f[MAX_FIELDS];
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void split(struct line *l, const char *text)
{
	size_t i, start = 0;

	l->text = text;
	l->n = 0;
	l->too_many = false;
	for (i = 0;; i++) {
		if (text[i] != ',' && text[i] != '\0')
			continue;
		if (l->n == MAX_FIELDS) {
			l->too_many = true;
			return;
		}
		l->f[l->n].off = start;
		l->f[l->n].len = i - start;
		l->n++;
		start = i + 1;
		if (text[i] == '\0')
			return;
	}
}

/*
 * Fields first..first+extra joined by commas (a name that had commas),
 * trimmed of blanks, into out.  Returns -1 when too long.
 */
static int get_field(const struct line *l, size_t first, size_t extra,
    char *out, size_t size)
{
	size_t off = l->f[first].off;
	size_t end = l->f[first + extra].off + l->f[first + extra].len;

	while (off < end && is_blank(l->text[off]))
		off++;
	while (end > off && is_blank(l->text[end - 1]))
		end--;
	if (end - off >= size)
		return -1;
	memcpy(out, l->text + off, end - off);
	out[end - off] = '\0';
	return 0;
}

/* ---- token shapes ------------------------------------------------ */

/* A format tag: "2", "1.92a", "1.96", "1.98". */
static bool is_tag(const char *s)
{
	size_t i = 2;

	if (strcmp(s, "2") == 0)
		return true;
	if (!is_digit(s[0]) || s[1] != '.' || !is_digit(s[2]))
		return false;
	while (is_digit(s[i]))
		i++;
	if (s[i] >= 'a' && s[i] <= 'z')
		i++;
	return s[i] == '\0' && i < 16;
}

/* A bonnie++ version: "1.96", "2.00a", "1.97.3". */
static bool is_version(const char *s)
{
	size_t i;

	if (!is_digit(s[0]) || strchr(s, '.') == NULL || strlen(s) >= 16)
		return false;
	for (i = 0; s[i] != '\0'; i++)
		if (!is_digit(s[i]) && s[i] != '.' && !(s[i] >= 'a' && s[i] <= 'z'))
			return false;
	return true;
}

/* "16096M", "2G", "64M:4k"; bare MiB only where allowed (1.00-1.00b) */
static bool is_size(const char *s, bool bare_ok)
{
	size_t i = 0;

	while (is_digit(s[i]))
		i++;
	if (i == 0 || i > 12)
		return false;
	if (s[i] == 'M' || s[i] == 'G')
		i++;
	else if (!bare_ok)
		return false;
	if (s[i] == ':') {
		size_t d = ++i;

		while (is_digit(s[i]))
			i++;
		if (i == d)
			return false;
		if (s[i] == 'k' || s[i] == 'm')
			i++;
	}
	return s[i] == '\0';
}

/* digits only */
static bool is_count(const char *s)
{
	return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}

/* empty, a number, or plus signs */
static bool is_cell(const char *s)
{
	size_t i = 0;

	if (s[0] == '+') {
		while (s[i] == '+')
			i++;
		return s[i] == '\0';
	}
	while (is_digit(s[i]) || s[i] == '.')
		i++;
	return s[i] == '\0';
}

/* ---- values -------------------------------------------------------- */

static int why_is(char *why, size_t n, const struct csv_field *f,
    const char *value, const char *what)
{
	char name[64];

	csv_field_name(name, sizeof(name), f);
	snprintf(why, n, "%s: '%.40s' %s", name, value, what);
	return -1;
}

/* "16096M", "2G", "64M:4k", or where bare_ok a number of MiB (1.00-1.00b) */
static int read_size(const char *s, bool bare_ok, struct result *res)
{
	char num[16];
	size_t i = 0;
	uint64_t v, chunk;

	if (!is_size(s, bare_ok))
		return -1;
	while (is_digit(s[i]))
		i++;
	memcpy(num, s, i);
	num[i] = '\0';
	if (parse_u64(num, 0, UINT64_C(1) << 40, &v) != NULL)
		return -1;
	if (s[i] == 'G') {
		v *= 1024;
		i++;
	} else if (s[i] == 'M') {
		i++;
	}
	res->has_io = true;
	res->file_size_mib = v;
	res->chunk = DEFAULT_CHUNK;
	if (s[i] == '\0')
		return 0;
	if (parse_size(s + i + 1, "km", 1, 1, UINT64_C(1) << 30, &chunk) != NULL)
		return -1;
	res->chunk = (unsigned)chunk;
	return 0;
}

static int read_long(const char *s, long max, long *out)
{
	uint64_t v;

	if (parse_u64(s, 0, (uint64_t)max, &v) != NULL)
		return -1;
	*out = (long)v;
	return 0;
}

static int read_unsigned(const char *s, unsigned min, unsigned max,
    unsigned *out)
{
	uint64_t v;

	if (parse_u64(s, min, max, &v) != NULL)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* max_size: bytes, or link / symlink (-1 / -2 as given to -n) */
static int read_max(const char *s, long *out)
{
	if (strcmp(s, "link") == 0 || strcmp(s, "-1") == 0)
		*out = FILES_HARDLINK;
	else if (strcmp(s, "symlink") == 0 || strcmp(s, "-2") == 0)
		*out = FILES_SYMLINK;
	else
		return read_long(s, 1000000000000000L, out);
	return 0;
}

/* 1.0x: "16", "2:1024:512/4", "2:link", "2:symlink", "4:2048:0" */
static int read_files_103(const char *s, struct files_spec *fs)
{
	char buf[64], *max, *min, *dirs;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	dirs = strchr(buf, '/');
	if (dirs != NULL)
		*dirs++ = '\0';
	max = strchr(buf, ':');
	if (max != NULL)
		*max++ = '\0';
	min = max != NULL ? strchr(max, ':') : NULL;
	if (min != NULL)
		*min++ = '\0';
	if (read_unsigned(buf, 0, 1000000000, &fs->count_k) != 0)
		return -1;
	if (max != NULL && read_max(max, &fs->max_size) != 0)
		return -1;
	if (min != NULL && (fs->max_size < 0 ||
	    read_long(min, 1000000000000000L, &fs->min_size) != 0))
		return -1;
	if (dirs != NULL && read_unsigned(dirs, 1, 1000000, &fs->dirs) != 0)
		return -1;
	return 0;
}

/* a rate: digits with an optional fraction, no sign or exponent */
static int read_rate(const char *s, struct cell *c)
{
	size_t i = 0, d;

	if (*s == '\0') {
		c->status = CELL_SKIPPED;
		return 0;
	}
	if (strcmp(s, "+++++") == 0 || strcmp(s, "++++") == 0) {
		c->status = CELL_TOO_FAST;
		return 0;
	}
	while (is_digit(s[i]))
		i++;
	if (i == 0 || i > 15)
		return -1;
	if (s[i] == '.') {
		d = ++i;
		while (is_digit(s[i]))
			i++;
		if (i == d || i - d > 6)
			return -1;
	}
	if (s[i] != '\0')
		return -1;
	c->rate = strtod(s, NULL);
	c->status = CELL_OK;
	return 0;
}

/* %CPU goes with its rate: a number, +++ with +++++, empty with empty */
static int read_cpu(const char *s, struct cell *c)
{
	unsigned v;

	switch (c->status) {
	case CELL_SKIPPED:
		/* clyde writes a rate it does not know so, with its %CPU */
		if (*s == '\0')
			return 0;
		if (read_unsigned(s, 0, CPU_PERCENT_MAX, &v) != 0)
			return -1;
		c->status = CELL_UNKNOWN;
		c->cpu = (int)v;
		return 0;
	case CELL_UNKNOWN:
	case CELL_ABSENT:
		return -1;
	case CELL_TOO_FAST:
		/* 1.00-1.00b printed the CPU figure next to +++++ */
		if (strspn(s, "+") == strlen(s) && *s != '\0')
			return 0;
		return read_unsigned(s, 0, CPU_PERCENT_MAX, &v);
	case CELL_OK:
		if (read_unsigned(s, 0, CPU_PERCENT_MAX, &v) != 0)
			return -1;
		c->cpu = (int)v;
		return 0;
	}
	return -1;
}

/* "14540us", "226ms", "101s"; the record keeps microseconds */
static int read_latency(const char *s, struct cell *c)
{
	static const struct {
		const char *unit;
		int64_t mul, div;
	} units[] = { { "ns", 1, 1000 }, { "us", 1, 1 }, { "ms", 1000, 1 },
	    { "s", 1000000, 1 } };
	size_t i = 0, u;
	char num[16];
	uint64_t v;

	if (*s == '\0')
		return 0;
	while (is_digit(s[i]))
		i++;
	if (i == 0 || i > 12)
		return -1;
	memcpy(num, s, i);
	num[i] = '\0';
	for (u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
		if (strcmp(s + i, units[u].unit) != 0)
			continue;
		if (parse_u64(num, 0, UINT64_C(999999999999), &v) != NULL)
			return -1;
		c->latency_us = (int64_t)v * units[u].mul / units[u].div;
		return 0;
	}
	return -1;
}

/* s into a buffer of size bytes; -1 when it does not fit */
static int copy(char *dst, size_t size, const char *s)
{
	size_t len = strlen(s);

	if (len >= size)
		return -1;
	memcpy(dst, s, len + 1);
	return 0;
}

/*
 * What a walk over one line keeps besides the record: whether its layout
 * takes a bare size (1.0x), and the raw values of the two columns
 * 1.91c-2.00a mixed up, num_dirs and file_chunk_size.
 */
struct walk {
	bool bare_size;
	const char *dirs, *chunk;
	char dirs_buf[32], chunk_buf[32];
};

static int read_value(const struct csv_field *f, const char *s,
    struct result *res, struct walk *dc)
{
	struct files_spec *fs = &res->files;
	uint64_t v;

	switch (f->kind) {
	case F_FORMAT_VERSION:
		return copy(res->generation, sizeof(res->generation), s) ||
		    copy(res->format_version, sizeof(res->format_version), s);
	case F_BONNIE_VERSION:
		return copy(res->bonnie_version, sizeof(res->bonnie_version), s);
	case F_NAME:
		return copy(res->name, sizeof(res->name), s);
	case F_CONCURRENCY:
		if (*s == '\0')
			return 0;
		if (parse_u64(s, 1, 1000000, &v) != NULL)
			return -1;
		res->concurrency = (int)v;
		return 0;
	case F_SEED:
		return copy(res->seed, sizeof(res->seed), s);
	case F_FILE_SIZE:
		return *s == '\0' ? 0 : read_size(s, dc->bare_size, res);
	case F_IO_CHUNK:
		if (*s == '\0')
			return 0;
		if (parse_size(s, "km", 1, 1, UINT64_C(1) << 30, &v) != NULL)
			return -1;
		res->chunk = (unsigned)v;
		return 0;
	case F_SEEKS:
		return *s == '\0' ? 0 :
		    read_unsigned(s, 1, 1000000000, &res->seeks);
	case F_SEEKERS:
		return *s == '\0' ? 0 :
		    read_unsigned(s, 1, 1000000, &res->seekers);
	case F_RATE:
		return read_rate(s, &res->cell[f->phase]);
	case F_CPU:
		return read_cpu(s, &res->cell[f->phase]);
	case F_LATENCY:
		return read_latency(s, &res->cell[f->phase]);
	case F_FILE_SPEC:
		if (*s == '\0')
			return 0;
		res->has_files = true;
		return read_files_103(s, fs);
	case F_NUM_FILES:
		if (*s == '\0')
			return 0;
		res->has_files = true;
		return read_unsigned(s, 0, 1000000000, &fs->count_k);
	case F_MAX_SIZE:
		return *s == '\0' ? 0 : read_max(s, &fs->max_size);
	case F_MIN_SIZE:
		return *s == '\0' ? 0 :
		    read_long(s, 1000000000000000L, &fs->min_size);
	case F_NUM_DIRS:
		dc->dirs = dc->dirs_buf;
		return copy(dc->dirs_buf, sizeof(dc->dirs_buf), s);
	case F_FILE_CHUNK:
		dc->chunk = dc->chunk_buf;
		return copy(dc->chunk_buf, sizeof(dc->chunk_buf), s);
	}
	return -1;
}

/*
 * bonnie++ 1.91c-2.00a write num_dirs in the column named
 * file_chunk_size and leave the num_dirs column empty; clyde writes each
 * under its name, and num_dirs whenever there is a file chunk.
 */
static int resolve_dirs_chunk(const struct walk *dc, struct result *res,
    char *why, size_t why_len)
{
	struct files_spec *fs = &res->files;
	const char *dirs = dc->dirs, *chunk = dc->chunk;
	uint64_t v;

	if ((dirs == NULL || *dirs == '\0') && chunk != NULL && *chunk != '\0') {
		dirs = chunk;   /* bonnie++'s order */
		chunk = NULL;
	}
	if (dirs != NULL && *dirs != '\0' &&
	    read_unsigned(dirs, 1, 1000000, &fs->dirs) != 0) {
		snprintf(why, why_len, "num_dirs: '%.40s' is not a number", dirs);
		return -1;
	}
	if (chunk != NULL && *chunk != '\0') {
		if (parse_size(chunk, "km", 1, 1, UINT64_C(1) << 30, &v) != NULL) {
			snprintf(why, why_len,
			    "file_chunk_size: '%.40s' is not a size", chunk);
			return -1;
		}
		fs->chunk = (unsigned)v;
	}
	return 0;
}

void csv_result_clear(struct result *res)
{
	int i;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < PH_COUNT; i++) {
		res->cell[i].status = CELL_SKIPPED;
		res->cell[i].cpu = -1;
		res->cell[i].latency_us = -1;
	}
	res->files.dirs = 1;
	res->files.chunk = DEFAULT_CHUNK;
}

static bool any_cell(const struct result *res, int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		if (res->cell[i].status != CELL_SKIPPED)
			return true;
	return false;
}

static size_t field_index(const struct csv_layout *layout, enum field_kind k)
{
	size_t i;

	for (i = 0; i < layout->nfields; i++)
		if (layout->fields[i].kind == k)
			return i;
	return (size_t)-1;
}

/*
 * Walk the layout over the line.  The name takes name_extra more raw
 * fields (commas in it), the seed seed_extra.
 */
static int read_layout(const struct line *l, const struct csv_layout *layout,
    size_t name_extra, size_t seed_extra, struct result *res, char *why,
    size_t why_len)
{
	size_t name_at = field_index(layout, F_NAME);
	size_t seed_at = field_index(layout, F_SEED);
	struct walk dc = { layout == &csv_layout_103, NULL, NULL, "", "" };
	char value[FIELD_MAX];
	size_t i, raw = 0;

	csv_result_clear(res);
	strcpy(res->generation, "1.0x");
	for (i = 0; i < layout->nfields; i++) {
		const struct csv_field *f = &layout->fields[i];
		size_t extra = i == name_at ? name_extra :
		    i == seed_at ? seed_extra : 0;

		if (get_field(l, raw, extra, value, sizeof(value)) != 0) {
			char name[64];

			csv_field_name(name, sizeof(name), f);
			snprintf(why, why_len, "%s: longer than %d bytes", name,
			    FIELD_MAX - 1);
			return -1;
		}
		raw += extra + 1;
		if (read_value(f, value, res, &dc) != 0) {
			const char *what = "is not a number";

			if (f->kind == F_NAME || f->kind == F_SEED)
				what = "is longer than 255 bytes";
			else if (f->kind == F_RATE)
				what = "is not a rate";
			else if (f->kind == F_CPU)
				what = "does not go with its rate";
			else if (f->kind == F_LATENCY)
				what = "is not a latency";
			else if (f->kind == F_FILE_SIZE || f->kind == F_IO_CHUNK)
				what = "is not a size";
			else if (f->kind == F_FILE_SPEC)
				what = "is not a file count";
			/* a number where a shifted line puts a rate */
			if (is_count(value) && f->kind == F_CPU)
				what = "is out of range (%CP is 0 to "
				    CPU_PERCENT_MAX_TEXT ")";
			else if (is_count(value) && (f->kind == F_CONCURRENCY ||
			    f->kind == F_SEEKS || f->kind == F_SEEKERS ||
			    f->kind == F_NUM_FILES || f->kind == F_MAX_SIZE ||
			    f->kind == F_MIN_SIZE))
				what = "is out of range";
			return why_is(why, why_len, f, value, what);
		}
	}
	if (resolve_dirs_chunk(&dc, res, why, why_len) != 0)
		return -1;
	/*
	 * bonnie++ 1.9x and later write the size and the file count of every
	 * section that ran: figures without them are a line read shifted
	 * (a decimal comma, a comma in a name that is no name's).
	 */
	if (layout != &csv_layout_103 && !res->has_io &&
	    any_cell(res, PH_PUTC, PH_FIRST_FILE)) {
		snprintf(why, why_len, "file_size: empty, but the large-file "
		    "tests have figures");
		return -1;
	}
	if (layout != &csv_layout_103 && !res->has_files &&
	    any_cell(res, PH_FIRST_FILE, PH_FIRST_DIR)) {
		snprintf(why, why_len, "num_files: empty, but the small-file "
		    "tests have figures");
		return -1;
	}
	/* 1.0x results without their size or count (hand-made lines) still show */
	if (!res->has_io && any_cell(res, PH_PUTC, PH_FIRST_FILE))
		res->has_io = true;
	if (!res->has_files && any_cell(res, PH_FIRST_FILE, PH_FIRST_DIR))
		res->has_files = true;
	if (res->has_io && res->chunk == 0)
		res->chunk = DEFAULT_CHUNK;
	return 0;
}

/*
 * A line with more fields than its layout: bonnie++ never escaped commas
 * in the -m name or the -Z seed file name.  Give the extra fields to
 * the name, or share them with the seed, until the rest reads.
 */
static int read_with_commas(const struct line *l, const struct csv_layout *layout,
    struct result *res, char *why, size_t why_len)
{
	size_t extra = l->n - layout->nfields, a;
	bool has_seed = field_index(layout, F_SEED) != (size_t)-1;
	char first_why[CSV_WHY_MAX];

	first_why[0] = '\0';
	for (a = extra + 1; a-- > 0;) {
		if (!has_seed && a != extra)
			break;
		if (read_layout(l, layout, a, extra - a, res, why, why_len) == 0)
			return 0;
		if (first_why[0] == '\0')
			snprintf(first_why, sizeof(first_why), "%s", why);
	}
	snprintf(why, why_len, "%s", first_why);
	return -1;
}

/* 1.92b-1.96 with -s 0: 47 fields, 5-17 empty, the file count at 18 */
static bool is_shifted_s0(const struct line *l)
{
	char v[FIELD_MAX];
	size_t i;

	for (i = 5; i <= 17; i++)
		if (l->f[i].len != 0 &&
		    (get_field(l, i, 0, v, sizeof(v)) != 0 || v[0] != '\0'))
			return false;
	return get_field(l, 18, 0, v, sizeof(v)) == 0 && v[0] != '\0' &&
	    strspn(v, "0123456789") == strlen(v);
}

static enum csv_line_kind read_tagged(const struct line *l, const char *tag,
    struct result *res, char *why, size_t why_len,
    struct csv_line_info *info)
{
	const struct csv_layout *cand[3];
	size_t most = csv_layouts_of_tag(tag, cand), i;

	info->tagged = true;
	info->expected = most;
	if (most == 0) {
		snprintf(why, why_len, "no bonnie++ CSV format is called '%s'",
		    tag);
		return CSV_BAD;
	}
	for (i = 0; i < 3; i++) {
		if (cand[i] == NULL || cand[i]->nfields != l->n)
			continue;
		if (cand[i] == &csv_layout_196_s0 && !is_shifted_s0(l)) {
			snprintf(why, why_len, "%zu fields: cut short? (a %s "
			    "line has %zu)", l->n, tag, most);
			return CSV_BAD;
		}
		if (read_layout(l, cand[i], 0, 0, res, why, why_len) != 0)
			return CSV_BAD;
		info->layout = cand[i];
		return CSV_RESULT;
	}
	if (l->n < most) {
		snprintf(why, why_len, "%zu fields: cut short? (a %s line has "
		    "%zu)", l->n, tag, most);
		return CSV_PARTIAL;
	}
	/* the largest layout, with commas in the name or seed */
	for (i = 3; i-- > 0;) {
		if (cand[i] == NULL)
			continue;
		if (!l->too_many && l->n - cand[i]->nfields <= MAX_EXTRA &&
		    read_with_commas(l, cand[i], res, why, why_len) == 0) {
			info->layout = cand[i];
			return CSV_RESULT;
		}
		break;
	}
	snprintf(why, why_len, "%zu fields: too many (a %s line has %zu)",
	    l->n, tag, most);
	return CSV_BAD;
}

/*
 * A 1.0x line (27 fields): a name, a size (empty with -s 0), then cells.
 * 'shift' fields of the start belong to a name with commas.
 */
static bool looks_103(const struct line *l, size_t shift)
{
	char v[FIELD_MAX];
	size_t i, last, odd = 0;
	bool size_empty;

	if (l->n < shift + 3 || get_field(l, shift + 1, 0, v, sizeof(v)) != 0)
		return false;
	size_empty = v[0] == '\0';
	/*
	 * A bare number of MiB (1.00-1.00b) only where nothing was dropped:
	 * before a line with one comma too many (a decimal comma) the first
	 * rate would pass for the size.
	 */
	if (!size_empty && !is_size(v, l->n == 27 && shift == 0))
		return false;
	/* the cells before the last field (which may be cut by a wrap) */
	last = l->n - 1 < shift + 14 ? l->n - 1 : shift + 14;
	for (i = shift + 2; i < last; i++) {
		if (get_field(l, i, 0, v, sizeof(v)) != 0 || !is_cell(v))
			odd++;
		else if (size_empty && v[0] != '\0')
			return false;
	}
	/* the start of a line: its last field, perhaps cut, starts a figure */
	if (l->n < 27 + shift && (get_field(l, l->n - 1, 0, v, sizeof(v)) != 0 ||
	    (v[0] != '\0' && !is_digit(v[0]) && v[0] != '+')))
		return false;
	/* a whole line with a cell or two that do not read is still one */
	return odd == 0 || (l->n == 27 + shift && odd <= 2);
}

/* Nothing but blanks after the first field: a spreadsheet's empty row, a label. */
static bool only_first(const struct line *l)
{
	size_t i, k;

	for (i = 1; i < l->n; i++)
		for (k = 0; k < l->f[i].len; k++)
			if (!is_blank(l->text[l->f[i].off + k]))
				return false;
	return true;
}

/* The first k fields of the line were text before it. */
static void drop_fields(struct line *l, size_t k)
{
	memmove(l->f, l->f + k, (l->n - k) * sizeof(l->f[0]));
	l->n -= k;
}

/* a cell, a latency ("14540us") or a size ("16G") */
static bool is_figure(const char *s)
{
	size_t d = strspn(s, "0123456789");

	if (is_cell(s) || is_size(s, false))
		return true;
	return d > 0 && (strcmp(s + d, "us") == 0 || strcmp(s + d, "ms") == 0 ||
	    strcmp(s + d, "s") == 0);
}

/*
 * A line no layout reads: prose, unless it is mostly figures, when it
 * is a result in a shape no bonnie++ wrote and is named, never skipped.
 */
static enum csv_line_kind unread(const struct line *l, char *why,
    size_t why_len)
{
	char v[FIELD_MAX];
	size_t i, figures = 0;

	if (l->n < 20)
		return CSV_NOT_RESULT;
	for (i = 0; i < l->n; i++)
		if (get_field(l, i, 0, v, sizeof(v)) == 0 && is_figure(v))
			figures++;
	if (figures * 4 < l->n * 3)
		return CSV_NOT_RESULT;
	snprintf(why, why_len, "%zu fields of figures in no bonnie++ CSV "
	    "layout", l->n);
	return CSV_BAD;
}

/*
 * "host:4000M" as the first field: a 1.0x line with its name and size
 * joined (26 fields).  Returns where the size starts, or 0.
 */
static size_t name_size_split(const char *f0)
{
	const char *p;

	for (p = strchr(f0, ':'); p != NULL; p = strchr(p + 1, ':'))
		if (p > f0 && is_size(p + 1, false))
			return (size_t)(p - f0) + 1;
	return 0;
}

static enum csv_line_kind read_name_size(const struct line *l, size_t at,
    struct result *res, char *why, size_t why_len,
    struct csv_line_info *info)
{
	char text[CSV_LINE_MAX];
	size_t len = strlen(l->text);

	info->expected = 26;
	if (l->n < 26) {
		snprintf(why, why_len, "%zu fields: cut short? (a 1.0x line "
		    "with name:size first has 26)", l->n);
		return CSV_PARTIAL;
	}
	if (l->n > 26 || len >= sizeof(text)) {
		snprintf(why, why_len, "name:size first and %zu fields: no "
		    "bonnie++ layout is certain (a 1.0x line has 26 so)", l->n);
		return CSV_BAD;
	}
	memcpy(text, l->text, len + 1);
	text[l->f[0].off + at - 1] = ',';
	return csv_read_line(text, res, why, why_len, info);
}

/* A tag and a version after text before the line: their first field. */
static size_t tag_after_text(struct line *l)
{
	char a[FIELD_MAX], b[FIELD_MAX];
	const char *word;
	size_t k;

	if (get_field(l, 0, 0, a, sizeof(a)) == 0 &&
	    get_field(l, 1, 0, b, sizeof(b)) == 0 && is_version(b)) {
		word = strrchr(a, ' ');
		if (word != NULL && is_tag(word + 1) && strcmp(word + 1, "2")) {
			size_t cut = (size_t)(strrchr(l->text + l->f[0].off,
			    ' ') - (l->text + l->f[0].off)) + 1;

			if (cut < l->f[0].len) {
				l->f[0].off += cut;
				l->f[0].len -= cut;
				return 0;
			}
		}
	}
	for (k = 1; k <= MAX_EXTRA && k + 1 < l->n; k++)
		if (get_field(l, k, 0, a, sizeof(a)) == 0 &&
		    get_field(l, k + 1, 0, b, sizeof(b)) == 0 &&
		    is_tag(a) && strcmp(a, "2") != 0 && is_version(b))
			return k;
	return (size_t)-1;
}

int csv_parse_latency(const char *s, struct cell *c)
{
	return *s == '\0' ? -1 : read_latency(s, c);
}

int csv_parse_files_spec(const char *s, struct files_spec *fs)
{
	return read_files_103(s, fs);
}

int csv_parse_size(const char *s, struct result *res)
{
	return read_size(s, false, res);
}

enum csv_line_kind csv_read_line(const char *text, struct result *res,
    char *why, size_t why_len, struct csv_line_info *info)
{
	struct csv_line_info dummy;
	struct line l;
	char f0[FIELD_MAX], f1[FIELD_MAX];
	size_t at;

	if (info == NULL)
		info = &dummy;
	memset(info, 0, sizeof(*info));
	why[0] = '\0';
	split(&l, text);
	info->fields = l.n;
	if (l.n < 3 || only_first(&l))
		return CSV_NOT_RESULT;
	if (get_field(&l, 0, 0, f0, sizeof(f0)) != 0)
		f0[0] = '\0';
	if (get_field(&l, 1, 0, f1, sizeof(f1)) != 0)
		f1[0] = '\0';
	if (strcmp(f0, "name") == 0 || strcmp(f0, "format_version") == 0)
		return CSV_HEADER;
	/* 1.9x and later: a tag and a version (empty when unknown) */
	if (is_tag(f0) && (is_version(f1) ||
	    (f1[0] == '\0' && csv_tag_key(f0) >= CSV_TAG_KEY(1, 90, 0))))
		return read_tagged(&l, f0, res, why, why_len, info);
	if (!l.too_many && l.n > 3 && (at = tag_after_text(&l)) != (size_t)-1) {
		drop_fields(&l, at);
		info->fields = l.n;
		get_field(&l, 0, 0, f0, sizeof(f0));
		return read_tagged(&l, f0, res, why, why_len, info);
	}
	/*
	 * bonnie++ writes any -m name: "web01:2G" before a size, or before
	 * the empty size of -s 0, in a line of 27 fields, is a name
	 */
	if ((at = name_size_split(f0)) != 0 && !(l.n == 27 &&
	    get_field(&l, 1, 0, f1, sizeof(f1)) == 0 &&
	    (f1[0] == '\0' || is_size(f1, false))))
		return read_name_size(&l, at, res, why, why_len, info);
	info->expected = csv_layout_103.nfields;
	info->layout = &csv_layout_103;
	if (l.too_many)
		return CSV_NOT_RESULT;
	if (l.n <= 27) {
		if (!looks_103(&l, 0))
			return unread(&l, why, why_len);
		if (l.n < 27) {
			snprintf(why, why_len, "%zu fields: cut short? (a 1.0x "
			    "line has 27)", l.n);
			return CSV_PARTIAL;
		}
		return read_layout(&l, &csv_layout_103, 0, 0, res, why,
		    why_len) == 0 ? CSV_RESULT : CSV_BAD;
	}
	if (l.n - 27 > MAX_EXTRA || !looks_103(&l, l.n - 27))
		return unread(&l, why, why_len);
	/*
	 * Fields before the name: text before the line ("a,b,c,galaxy,
	 * 16096M,...") or a name with commas, which nothing can tell apart.
	 * The line is read from its name on, so that no field written
	 * back holds a comma.
	 */
	drop_fields(&l, l.n - 27);
	return read_layout(&l, &csv_layout_103, 0, 0, res, why,
	    why_len) == 0 ? CSV_RESULT : CSV_BAD;
}
