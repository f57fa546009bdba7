/*
 * in/table.c: bonnie++'s text tables into the result record.
 *
 * A table is recognised by its header lines, whatever their spacing; its
 * data rows are split on blanks, never on columns, because a wide number
 * pushes the rest of a row to the right (clyde(1), REPORT, Text tables).
 * Only a gap of ten blanks or more between two cells means a cell that
 * did not run: bonnie++ writes one as ten blanks, a figure as " %5d %3d".
 *
 *   1.0x   Version 1.03e, Machine Size K/sec, no Latency rows
 *   1.9x   Concurrency line (1.92b on), Latency rows, the Version line
 *          again before the file section
 *   2.00a  Name:Size etc, k/m/g rates (rounded), Latency rows, and file
 *          rates that are garbage (its bug: the CSV line is right)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "in/csv_line.h"
#include "in/table.h"
#include "lib/units.h"

enum {
	S_NONE,                 /* no table */
	S_IO_TOP,               /* Version ... Sequential Output */
	S_IO_ROWS,              /* after Machine Size / Name:Size etc */
	S_FILE_TOP,             /* Sequential Create, -Create-- */
	S_FILE_ROWS             /* after files /sec %CP */
};

/* lines of something else that end a table */
#define IDLE_MAX 4
/* cells of a row: six rates, each with its %CPU */
#define GROUPS 6
#define TOKENS_MAX 64

struct token {
	size_t off, len;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static size_t tokenize(const char *s, struct token *tok, size_t max)
{
	size_t n = 0, i = 0;

	while (s[i] != '\0' && n < max) {
		while (is_blank(s[i]))
			i++;
		if (s[i] == '\0')
			break;
		tok[n].off = i;
		while (s[i] != '\0' && !is_blank(s[i]))
			i++;
		tok[n].len = i - tok[n].off;
		n++;
	}
	return n;
}

/*
 * The line without the markup people put around figures: Markdown
 * emphasis and code marks, BBCode tags ([b], [/b], [color=red]).
 */
static void strip_markup(const char *in, char *out, size_t cap)
{
	size_t o = 0;

	while (*in != '\0' && o + 1 < cap) {
		if (*in == '*' || *in == '`' || (in[0] == '_' && in[1] == '_')) {
			in += *in == '_' ? 2 : 1;
			continue;
		}
		if (*in == '[') {
			const char *p = in + 1 + (in[1] == '/');
			size_t letters = 0;

			while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
				p++;
				letters++;
			}
			if (letters > 0 && *p == '=')
				p += strcspn(p, "]\n");
			if (letters > 0 && letters < 8 && *p == ']') {
				in = p + 1;
				continue;
			}
		}
		out[o++] = *in++;
	}
	while (o > 0 && is_blank(out[o - 1]))
		o--;
	out[o] = '\0';
}

static void copy_token(char *out, size_t cap, const char *s,
    const struct token *t)
{
	size_t n = t->len < cap - 1 ? t->len : cap - 1;

	memcpy(out, s + t->off, n);
	out[n] = '\0';
}

/* "5479", "318.1": digits, one optional fraction */
static bool is_number(const char *s, size_t len)
{
	size_t i = 0, d;

	while (i < len && is_digit(s[i]))
		i++;
	if (i == 0 || i > 12)
		return false;
	if (i == len)
		return true;
	if (s[i] != '.')
		return false;
	d = ++i;
	while (i < len && is_digit(s[i]))
		i++;
	return i == len && i > d && i - d <= 6;
}

/*
 * A rate: a number, +++++, or with units a 2.00a cell ("278k", "50.6m",
 * "1.1g").  The record keeps K/s; a rounded cell gives its half unit.
 */
static bool read_rate(const char *s, size_t len, bool units, struct cell *c)
{
	static const struct {
		char unit;
		double kib;
	} mul[] = { { 'k', 1 }, { 'm', 1024 }, { 'g', 1048576 } };
	char num[24];
	size_t u, n = len;

	if (len == 5 && memcmp(s, "+++++", 5) == 0) {
		c->status = CELL_TOO_FAST;
		return true;
	}
	if (len == 0 || len >= sizeof(num))
		return false;
	for (u = 0; units && u < sizeof(mul) / sizeof(mul[0]); u++)
		if (s[len - 1] == mul[u].unit)
			break;
	if (units && u == sizeof(mul) / sizeof(mul[0]))
		return false;
	if (units)
		n--;
	if (!is_number(s, n))
		return false;
	memcpy(num, s, n);
	num[n] = '\0';
	c->status = CELL_OK;
	c->rate = strtod(num, NULL);
	c->rate_precision = 0;
	if (units) {
		const char *dot = strchr(num, '.');
		double last = dot != NULL ? pow(10, -(double)strlen(dot + 1)) : 1;

		c->rate *= mul[u].kib;
		/* whole KiB/s are what the CSV line has too */
		if (mul[u].unit != 'k' || dot != NULL)
			c->rate_precision = last * mul[u].kib / 2;
	}
	return true;
}

static bool read_cpu(const char *s, size_t len, struct cell *c)
{
	uint64_t v;
	char num[16];

	if (c->status == CELL_TOO_FAST)
		return strspn(s, "+") >= len;
	if (len == 0 || len >= sizeof(num))
		return false;
	memcpy(num, s, len);
	num[len] = '\0';
	if (parse_u64(num, 0, CPU_PERCENT_MAX, &v) != NULL)
		return false;
	c->cpu = (int)v;
	return true;
}

/*
 * The six cells after the label, which ends at 'from'.  'units' applies
 * to the first five (the seeks column has none).  Returns false unless
 * the cells fill the rest of the line exactly.
 */
static bool read_cells(const char *s, size_t from, const struct token *tok,
    size_t ntok, size_t first_tok, bool units, struct cell cells[GROUPS])
{
	size_t g = 0, t = first_tok, at = from;

	while (g < GROUPS) {
		size_t gap;

		if (t >= ntok)
			return false;
		gap = tok[t].off - at;
		/* ten blanks for each cell that did not run */
		for (; gap >= 10 && g < GROUPS; gap -= 10)
			cells[g++].status = CELL_SKIPPED;
		if (g == GROUPS)
			return false;
		if (t + 1 >= ntok ||
		    !read_rate(s + tok[t].off, tok[t].len, units && g < 5,
		    &cells[g]) ||
		    !read_cpu(s + tok[t + 1].off, tok[t + 1].len, &cells[g]))
			return false;
		at = tok[t + 1].off + tok[t + 1].len;
		t += 2;
		g++;
	}
	return t == ntok;
}

/*
 * The size label: "64M", "2G", "64M:4k" (1.0x, 1.9x); 2.00a's
 * size:chunk:concurrency:seeks with the defaults left out ("64M::2",
 * "64G:4k::65536").
 */
static bool read_size_label(const char *label, bool units, struct result *r)
{
	char buf[64], *part[4] = { NULL, NULL, NULL, NULL }, *p;
	uint64_t v;
	size_t n = 0;

	if (strlen(label) >= sizeof(buf))
		return false;
	strcpy(buf, label);
	for (p = buf; n < 4; n++) {
		part[n] = p;
		p = strchr(p, ':');
		if (p == NULL) {
			n++;
			break;
		}
		*p++ = '\0';
	}
	if (p != NULL || (!units && n > 2))
		return false;
	if (!is_digit(buf[0]) || csv_parse_size(part[0], r) != 0)
		return false;
	if (n > 1 && *part[1] != '\0') {
		if (parse_size(part[1], "km", 1, 1, UINT64_C(1) << 30, &v) != NULL)
			return false;
		r->chunk = (unsigned)v;
	}
	if (n > 2 && *part[2] != '\0') {
		if (parse_u64(part[2], 1, 1000000, &v) != NULL)
			return false;
		r->concurrency = (int)v;
	}
	if (n > 3 && *part[3] != '\0') {
		if (parse_u64(part[3], 1, 1000000000, &v) != NULL)
			return false;
		r->seeks = (unsigned)v;
	}
	return true;
}

/* The name before the label: blanks around it are the layout's. */
static void take_name(char *out, const char *s, size_t len)
{
	while (len > 0 && is_blank(s[len - 1]))
		len--;
	while (len > 0 && is_blank(*s)) {
		s++;
		len--;
	}
	if (len > NAME_MAX_LEN)
		len = NAME_MAX_LEN;
	memcpy(out, s, len);
	out[len] = '\0';
}

/* The token as a row's label: a file count, or a size, into tmp. */
static bool read_label(const struct table_read *t, const char *s,
    const struct token *tok, bool file, struct result *tmp)
{
	char label[64];

	csv_result_clear(tmp);
	copy_token(label, sizeof(label), s, tok);
	return file ? csv_parse_files_spec(label, &tmp->files) == 0 &&
	    is_digit(label[0]) : read_size_label(label, t->units, tmp);
}

/*
 * A data row: a name (maybe none), a label, six cells.  The label is the
 * first token that reads as one and leaves six cells after it.
 */
static bool read_row(const struct table_read *t, const char *s, bool file,
    struct result *r)
{
	struct token tok[TOKENS_MAX];
	struct cell cells[GROUPS];
	size_t ntok = tokenize(s, tok, TOKENS_MAX), i, g;

	for (i = 0; i < ntok && i < 4; i++) {
		struct result tmp;

		if (!read_label(t, s, &tok[i], file, &tmp))
			continue;
		memset(cells, 0, sizeof(cells));
		for (g = 0; g < GROUPS; g++)
			cells[g].latency_us = -1;
		if (!read_cells(s, tok[i].off + tok[i].len, tok, ntok, i + 1,
		    t->units && !file, cells))
			continue;
		if (file) {
			r->has_files = true;
			r->files = tmp.files;
		} else {
			r->has_io = true;
			r->file_size_mib = tmp.file_size_mib;
			r->chunk = tmp.chunk;
			r->concurrency = tmp.concurrency;
			r->seeks = tmp.seeks;
		}
		if (i > 0 || !file)
			take_name(r->name, s, tok[i].off);
		for (g = 0; g < GROUPS; g++) {
			int64_t lat = r->cell[(file ? PH_FIRST_FILE : 0) + g].latency_us;

			r->cell[(file ? PH_FIRST_FILE : 0) + g] = cells[g];
			r->cell[(file ? PH_FIRST_FILE : 0) + g].latency_us = lat;
		}
		return true;
	}
	return false;
}

/*
 * "Latency" and six cells of " %9s": in order when all six are there,
 * else by the column each ends in.  Returns false, with why, for a cell
 * that is no latency, or more than six.
 */
static bool read_latency_row(const char *s, struct result *r, bool file,
    char *why, size_t why_len)
{
	struct token tok[TOKENS_MAX];
	size_t ntok = tokenize(s, tok, TOKENS_MAX), i;
	int base = file ? PH_FIRST_FILE : 0;

	for (i = 1; i < ntok; i++) {
		struct cell c;
		char v[32];
		size_t k = ntok == GROUPS + 1 ? i - 1 :
		    tok[i].off + tok[i].len > 18 ?
		    (tok[i].off + tok[i].len - 18) / 10 : 0;

		copy_token(v, sizeof(v), s, &tok[i]);
		c.latency_us = -1;
		if (k >= GROUPS || csv_parse_latency(v, &c) != 0) {
			snprintf(why, why_len, "'%.40s' is not a latency", v);
			return false;
		}
		r->cell[base + (int)k].latency_us = c.latency_us;
	}
	return true;
}

/*
 * The end of a Latency row a mail client wrapped: latencies only, the
 * last cells of the row.
 */
static bool latency_tail(const char *s, struct result *r, bool file)
{
	struct token tok[TOKENS_MAX];
	size_t ntok = tokenize(s, tok, TOKENS_MAX), i;
	int base = file ? PH_FIRST_FILE : 0;
	struct cell c[GROUPS];

	if (ntok == 0 || ntok > 3)
		return false;
	for (i = 0; i < ntok; i++) {
		char v[32];

		copy_token(v, sizeof(v), s, &tok[i]);
		if (csv_parse_latency(v, &c[i]) != 0)
			return false;
	}
	for (i = 0; i < ntok; i++)
		r->cell[base + GROUPS - (int)ntok + (int)i].latency_us =
		    c[i].latency_us;
	return true;
}

static bool contains(const char *s, const char *what)
{
	return strstr(s, what) != NULL;
}

static bool starts(const char *s, const char *what)
{
	return strncmp(s, what, strlen(what)) == 0;
}

/*
 * The label bonnie++ was built without (configure never ran on its
 * tree): kept as it stands, the generation is the table's shape's.
 */
static const char unset_version[] = "@version@";

/* "Version 1.03e", "Version  1.97", "Version  @version@" */
static void take_version(struct table_read *t, const char *s)
{
	const char *v = strstr(s, "Version");
	size_t n;

	if (v == NULL)
		return;
	v += 7;
	v += strspn(v, " \t");
	n = strcspn(v, " \t");
	if (n == 0 || n >= sizeof(t->version) || (!is_digit(*v) &&
	    (n != sizeof(unset_version) - 1 ||
	    memcmp(v, unset_version, n) != 0)))
		return;
	memcpy(t->version, v, n);
	t->version[n] = '\0';
}

static void start(struct table_read *t, unsigned long lineno)
{
	t->state = S_NONE;
	t->version[0] = '\0';
	t->units = t->latency = t->last_file = false;
	t->concurrency = 0;
	t->file_name[0] = '\0';
	t->nrows = t->nio = t->nfile = 0;
	t->latency_row = NULL;
	t->idle = 0;
	t->gap = false;
	t->wrapped_len = 0;
	t->first_line = lineno;
	t->marked = t->file_section = t->last_over = t->bare = false;
	t->files_top = false;
	t->nover = 0;
	memset(t->row_bad, 0, sizeof(t->row_bad));
	memset(t->lat_dropped, 0, sizeof(t->lat_dropped));
}

void table_read_init(struct table_read *t)
{
	start(t, 0);
	t->ndone = t->nbad = t->nheld = 0;
}

/* The generation the table's layout and Version line show. */
static void set_generation(const struct table_read *t, struct result *r)
{
	/* "@version@" tells no number: the shape alone does */
	bool numbered = is_digit(t->version[0]);
	double v = numbered ? strtod(t->version, NULL) : 0;

	r->from_table = true;
	if (t->units || v >= 1.98) {
		/* 2.00a: what its 1.98 CSV line would say */
		strcpy(r->generation, "1.98");
		strcpy(r->format_version, "1.98");
		strcpy(r->bonnie_version, t->version);
		if (r->concurrency == 0)
			r->concurrency = 1;
		if (r->has_io && r->seeks == 0)
			r->seeks = 8192;
		return;
	}
	if (!t->latency && t->concurrency == 0 && v < 1.9) {
		/* the CSV line of 1.0x has no version; its table has */
		strcpy(r->generation, "1.0x");
		strcpy(r->bonnie_version, t->version);
		return;
	}
	/* 1.93 wrote the format tag of 1.92b; a table without a version, 1.97 */
	snprintf(r->format_version, sizeof(r->format_version), "%s",
	    !numbered ? "1.97" :
	    strcmp(t->version, "1.93") == 0 ? "1.92b" : t->version);
	strcpy(r->generation, r->format_version);
	strcpy(r->bonnie_version, t->version);
	/* from 1.93 on the CSV line has it: 1 unless the table shows it */
	r->concurrency = t->concurrency > 0 ? t->concurrency : v >= 1.93 ||
	    !numbered ? 1 : 0;
}

static void give_up_wrapped(struct table_read *t);
static void latency_done(struct table_read *t);

/* Line 'at' did not read, for 'why': named with the table's rows. */
static void name_line(struct table_read *t, unsigned long at, const char *why)
{
	if (t->nbad == TABLE_BAD_MAX)
		return;
	t->bad_line[t->nbad] = at;
	snprintf(t->bad_why[t->nbad++], TABLE_WHY_MAX, "%s", why);
}

/*
 * The table's results into done[] from n on, its rows that did not read
 * into bad_line[]; returns the new count.  A table of bonnie++'s header
 * lines with no row that reads is named at its first line.
 */
static size_t take_rows(struct table_read *t, size_t n)
{
	char why[TABLE_WHY_MAX];
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		struct result *r = &t->rows[i];

		if (t->row_bad[i]) {
			name_line(t, t->bad_at[i], t->bad_at_why[i]);
			continue;
		}
		for (int f = 0; f < 2; f++)
			if (t->lat_dropped[i][f])
				name_line(t, t->lat_at[i][f], t->lat_why[i][f]);
		if (!r->has_io && !r->has_files)
			continue;
		if (!r->has_io && r->name[0] == '\0')
			snprintf(r->name, sizeof(r->name), "%s", t->file_name);
		set_generation(t, r);
		t->done[n] = *r;
		t->done_line[n] = t->row_line[i];
		t->done_bare[n] = t->bare;
		n++;
	}
	if (t->nover > 0) {
		snprintf(why, sizeof(why), "table row: the table's rows from "
		    "here to line %lu (%zu) are not read: a table has at most "
		    "%d rows", t->over_last, t->nover, TABLE_ROWS_MAX);
		name_line(t, t->over_first, why);
	}
	if (t->nrows == 0 && t->nover == 0 && t->marked)
		name_line(t, t->first_line, "table: bonnie++'s header lines, "
		    "and no row under them that reads");
	return n;
}

/*
 * Two names of one machine: the same, or where a label cut one (to 18
 * characters less the size label), the other begins with it.
 */
#define CUT_NAME_MIN 10

static bool named_alike(const char *io, const char *file)
{
	size_t la = strlen(io), lb = strlen(file), n = la < lb ? la : lb;

	return la > 0 && lb > 0 && strncmp(io, file, n) == 0 &&
	    (la == lb || n >= CUT_NAME_MIN);
}

/*
 * The name of an I/O row and of a file row alike (named_alike()).  A
 * file row without a name is 1.0x's file section of a whole table, which
 * names no machine: the rest of an I/O table, whatever its name.
 */
static bool same_name(const char *io, const char *file)
{
	if (io[0] == '\0' || file[0] == '\0')
		return file[0] == '\0';
	return named_alike(io, file);
}

/*
 * The file results file[0..n) are those of the held I/O results: a file
 * table alone, as many rows, the same names in the same order.
 */
static bool split_pair(const struct table_read *t, const struct result *file,
    size_t n)
{
	size_t i;

	if (n == 0 || n != t->nheld)
		return false;
	for (i = 0; i < n; i++)
		if (file[i].has_io || !file[i].has_files ||
		    strcmp(file[i].generation, t->held[i].generation) != 0 ||
		    !same_name(t->held[i].name, file[i].name))
			return false;
	return true;
}

/* The file section of file into r, an I/O row of the same run */
static void join_files(struct result *r, const struct result *file)
{
	r->has_files = true;
	r->files = file->files;
	memcpy(&r->cell[PH_FIRST_FILE], &file->cell[PH_FIRST_FILE],
	    sizeof(file->cell[0]) * (PH_COUNT - PH_FIRST_FILE));
}

/*
 * The held I/O rows (done[0..first)) of several tables, and a file table
 * (done[first..n)) whose every row names one of them, in their order,
 * and a name no other held row has: each file row joins its I/O row
 * (a post of each machine's I/O section, then each one's file section).
 * Returns the held rows up to the last one joined, 0 when the file
 * table is not theirs; the rest wait for a file table of their own.
 */
static size_t pair_by_name(struct table_read *t, size_t first, size_t n)
{
	size_t at[TABLE_ROWS_MAX], k, j, next = 0, same;

	if (n == first || t->nbad > 0)
		return 0;
	for (k = first; k < n; k++) {
		const struct result *f = &t->done[k];

		if (f->has_io || !f->has_files || f->name[0] == '\0')
			return 0;
		for (j = 0, same = 0; j < first; j++)
			if (named_alike(t->done[j].name, f->name))
				same++;
		for (j = next; j < first; j++)
			if (named_alike(t->done[j].name, f->name))
				break;
		if (same != 1 || j == first ||
		    strcmp(t->done[j].generation, f->generation) != 0)
			return 0;
		at[k - first] = j;
		next = j + 1;
	}
	for (k = first; k < n; k++)
		join_files(&t->done[at[k - first]], &t->done[k]);
	return next;
}

/* The held rows from 'from' on wait again, for the next table. */
static void hold_again(struct table_read *t, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++) {
		t->held[i - from] = t->done[i];
		t->held_line[i - from] = t->done_line[i];
	}
	t->nheld = to - from;
	if (t->nheld > 0)
		t->held_first = t->held_line[0];
}

/*
 * A section the table did not show: not known, neither run nor skipped;
 * but the I/O section of a table that bonnie++ began with its file
 * section (-s 0) did not run, as a CSV line of -s 0 says.
 */
static void mark_absent(struct result *r, bool io_skipped)
{
	int ph;

	for (ph = 0; ph < PH_COUNT; ph++)
		if (ph < PH_FIRST_FILE ? !r->has_io && !io_skipped :
		    !r->has_files)
			r->cell[ph].status = CELL_ABSENT;
}

/*
 * Hand the table's rows over to done[], and those that did not read to
 * bad_line[]; the table is gone.  A table of I/O rows alone is held back
 * (unless this is the end): when the next is a file table of the same
 * names, each I/O row and its file row are one result.
 */
static size_t finish(struct table_read *t, bool end)
{
	size_t i, n, first, upto;
	bool io_only;

	give_up_wrapped(t);
	latency_done(t);
	t->nbad = 0;
	for (n = 0; n < t->nheld; n++) {
		t->done[n] = t->held[n];
		t->done_line[n] = t->held_line[n];
		t->done_bare[n] = false;
	}
	first = n;
	n = take_rows(t, n);
	t->done_first = first > 0 ? t->held_first : t->first_line;
	io_only = n > first && t->nbad == 0 && !t->file_section && !t->bare;
	for (i = first; i < n && io_only; i++)
		io_only = t->done[i].has_io && !t->done[i].has_files;
	if (t->nbad == 0 && split_pair(t, &t->done[first], n - first)) {
		for (i = 0; i < first; i++)
			join_files(&t->done[i], &t->done[first + i]);
		n = first;
		t->nheld = 0;
	} else if ((upto = pair_by_name(t, first, n)) > 0) {
		/* at the end every held row goes, joined or not */
		hold_again(t, upto, end ? upto : first);
		n = end ? first : upto;
	} else if (io_only && !end && n <= TABLE_ROWS_MAX) {
		/* with the I/O rows held before: each may find its file rows */
		hold_again(t, 0, n);
		if (first == 0)
			t->held_first = t->first_line;
		n = 0;
	} else if (io_only && !end) {
		hold_again(t, first, n);
		t->held_first = t->first_line;
		n = first;
	} else if (n == first && t->nbad == 0 && !end) {
		/* no table after all (prose): the held rows wait on */
		n = 0;
	} else {
		t->nheld = 0;
	}
	/* after I/O rows held, a file table is their other half, if unpaired */
	for (i = 0; i < n; i++)
		mark_absent(&t->done[i], t->files_top && first == 0 &&
		    i >= first);
	t->ndone = n;
	start(t, 0);
	return n + t->nbad;
}

size_t table_read_end(struct table_read *t)
{
	if (t->state == S_NONE && t->nrows == 0 && t->nheld == 0)
		return t->ndone = t->nbad = 0;
	return finish(t, true);
}

/* A new row, or NULL when the table has no room. */
static struct result *new_row(struct table_read *t, unsigned long lineno)
{
	struct result *r;

	if (t->nrows == TABLE_ROWS_MAX)
		return NULL;
	r = &t->rows[t->nrows];
	csv_result_clear(r);
	t->row_line[t->nrows] = lineno;
	t->nrows++;
	return r;
}

/* A row past the table's room: counted, to be named. */
static void over(struct table_read *t, unsigned long lineno)
{
	if (t->nover++ == 0)
		t->over_first = lineno;
	t->over_last = lineno;
	t->last_over = true;
}

/*
 * A data row right under the Version and -Per Chr- lines, or the title
 * lines of the file section: the post cut the line of column heads, and
 * the row's shape says what it is.  2.00a's rates may have their unit.
 */
static bool headless_row(struct table_read *t, const char *s, bool file,
    struct result *r)
{
	if (!file && !t->units && strtod(t->version, NULL) >= 1.98)
		t->units = true;
	if (read_row(t, s, file, r))
		return true;
	if (file || is_digit(t->version[0]))
		return false;
	t->units = !t->units;
	if (read_row(t, s, file, r))
		return true;
	t->units = !t->units;
	return false;
}

/* A data row in the section being read; false when it is none. */
static bool data_row(struct table_read *t, const char *s,
    unsigned long lineno)
{
	bool file = t->state == S_FILE_ROWS || t->state == S_FILE_TOP;
	struct result tmp, *r;

	if (t->state == S_IO_TOP || t->state == S_FILE_TOP) {
		csv_result_clear(&tmp);
		if (!headless_row(t, s, file, &tmp))
			return false;
		t->state = file ? S_FILE_ROWS : S_IO_ROWS;
	} else if (t->state != S_IO_ROWS && !file) {
		return false;
	}
	if (!file) {
		csv_result_clear(&tmp);
		if (!read_row(t, s, false, &tmp))
			return false;
		if ((r = new_row(t, lineno)) == NULL) {
			over(t, lineno);
			return true;
		}
		*r = tmp;
		t->nio++;
		t->last_file = t->last_over = false;
		return true;
	}
	/* the k-th file row goes with the k-th I/O row (bon_csv2txt) */
	if (t->nfile < t->nio) {
		tmp = t->rows[t->nfile];
		if (!read_row(t, s, true, &tmp))
			return false;
		/* a file row may repeat the name; the I/O row's is the one */
		snprintf(tmp.name, sizeof(tmp.name), "%s", t->rows[t->nfile].name);
		r = &t->rows[t->nfile];
	} else {
		csv_result_clear(&tmp);
		if (!read_row(t, s, true, &tmp))
			return false;
		if ((r = new_row(t, lineno)) == NULL) {
			over(t, lineno);
			return true;
		}
	}
	*r = tmp;
	/* 1.98 to 2.00a printed garbage for every file rate: not a rate */
	if (t->units || strtod(t->version, NULL) >= 1.98) {
		int ph;

		for (ph = PH_FIRST_FILE; ph < PH_COUNT; ph++)
			if (r->cell[ph].status == CELL_OK)
				r->cell[ph].status = CELL_UNKNOWN;
	}
	t->nfile++;
	t->last_file = true;
	t->last_over = false;
	return true;
}

/* Row i did not read, named at lineno; the first reason stays. */
static void mark_bad(struct table_read *t, size_t i, unsigned long lineno,
    const char *why)
{
	if (t->row_bad[i])
		return;
	t->row_bad[i] = true;
	t->bad_at[i] = lineno;
	snprintf(t->bad_at_why[i], TABLE_WHY_MAX, "%s", why);
}

/* A line made mostly of figures: a data row, even one that does not read. */
static bool looks_like_row(const char *s)
{
	struct token tok[TOKENS_MAX];
	size_t ntok = tokenize(s, tok, TOKENS_MAX), i, figures = 0;

	for (i = 0; i < ntok; i++)
		if (is_digit(s[tok[i].off]) || s[tok[i].off] == '+')
			figures++;
	return ntok >= 4 && figures >= 3 && figures * 2 >= ntok;
}

/* Why a data row does not read: its first cell that is none, or the count. */
static void row_why(const struct table_read *t, const char *s, bool file,
    char *why, size_t why_len)
{
	struct token tok[TOKENS_MAX];
	size_t ntok = tokenize(s, tok, TOKENS_MAX), i, k;
	char v[64];

	for (i = 0; i < ntok && i < 4; i++) {
		struct result tmp;

		if (read_label(t, s, &tok[i], file, &tmp))
			break;
	}
	if (i == ntok || i == 4) {
		snprintf(why, why_len, "table row: no %s where bonnie++ writes "
		    "one", file ? "file count" : "size");
		return;
	}
	for (k = i + 1; k < ntok; k++) {
		bool rate = (k - i) % 2 == 1;
		struct cell c;

		c.status = CELL_OK;
		copy_token(v, sizeof(v), s, &tok[k]);
		/* the seeks column has no unit */
		if (rate ? read_rate(s + tok[k].off, tok[k].len,
		    t->units && !file, &c) ||
		    read_rate(s + tok[k].off, tok[k].len, false, &c) :
		    strspn(v, "+") == tok[k].len ||
		    read_cpu(s + tok[k].off, tok[k].len, &c))
			continue;
		snprintf(why, why_len, "table row: '%.40s' is not a %s", v,
		    rate ? "rate" : "%CP (0 to " CPU_PERCENT_MAX_TEXT ")");
		return;
	}
	snprintf(why, why_len, "table row: its cells are not six rates, "
	    "each with its %%CP");
}

/*
 * A row that did not read and no wrapped rest completed: named at its
 * line, in the place of the row it was to be, so that the other section
 * of its result is no result of its own.
 */
static void give_up_wrapped(struct table_read *t)
{
	bool file = t->state == S_FILE_ROWS || t->state == S_FILE_TOP;
	char why[TABLE_WHY_MAX];
	size_t i;

	if (t->wrapped_len == 0)
		return;
	t->wrapped[t->wrapped_len] = '\0';
	t->wrapped_len = 0;
	/* the older Bonnie's rows are no bonnie++ rows: not named */
	if (t->state == S_NONE || !t->marked || !looks_like_row(t->wrapped))
		return;
	if (file && t->nfile < t->nio) {
		i = t->nfile;
	} else {
		if (new_row(t, t->wrapped_line) == NULL)
			return;
		i = t->nrows - 1;
	}
	if (file)
		t->nfile++;
	else
		t->nio++;
	t->last_file = file;
	/* a row, if a bad one: no gap that would end the table */
	t->gap = false;
	t->idle = 0;
	row_why(t, t->wrapped, file, why, sizeof(why));
	mark_bad(t, i, t->wrapped_line, why);
}

/* a piece a wrap cut off a row: figures only */
static bool is_row_tail(const char *s)
{
	struct token tok[TOKENS_MAX];
	size_t n = tokenize(s, tok, TOKENS_MAX), i;

	if (n == 0 || n > 4)
		return false;
	for (i = 0; i < n; i++) {
		struct cell c;

		if (!read_rate(s + tok[i].off, tok[i].len, false, &c) &&
		    !(tok[i].len == 3 && memcmp(s + tok[i].off, "+++", 3) == 0) &&
		    !(is_digit(s[tok[i].off]) && strchr("kmg", s[tok[i].off +
		    tok[i].len - 1]) != NULL))
			return false;
	}
	return true;
}

/*
 * A data row of bonnie++'s I/O section (a name, a size, six rates each
 * with its %CP) with no header line of its table: the start of a table
 * of such rows, which are named rather than read, since no line tells
 * the version that wrote them.
 */
static void bare_row(struct table_read *t, const char *s,
    unsigned long lineno)
{
	struct token tok[TOKENS_MAX];
	size_t ntok = tokenize(s, tok, TOKENS_MAX);
	int units;

	/* a label and at least four pairs; a name, a label, six pairs */
	if (ntok < 2 + 2 * 4 || ntok > 2 + 2 * GROUPS)
		return;
	for (units = 0; units < 2; units++) {
		start(t, lineno);
		t->state = S_IO_ROWS;
		t->units = units == 1;
		if (data_row(t, s, lineno)) {
			t->bare = t->marked = true;
			return;
		}
	}
	start(t, 0);
}

/*
 * The Latency line at lineno of row i's section does not read (what):
 * the row reads as it would without that line, and the line is named.
 */
static void drop_latency(struct table_read *t, size_t i, bool file,
    unsigned long lineno, const char *what)
{
	int base = file ? PH_FIRST_FILE : 0, g;

	for (g = 0; g < GROUPS; g++)
		t->rows[i].cell[base + g].latency_us = -1;
	if (t->lat_dropped[i][file])
		return;
	t->lat_dropped[i][file] = true;
	t->lat_at[i][file] = lineno;
	snprintf(t->lat_why[i][file], TABLE_WHY_MAX, "Latency row: dropped "
	    "(%s): the %s row above it is read without its latencies", what,
	    file ? "file" : "I/O");
}

/*
 * The last Latency row is complete: a phase that ran has a latency in
 * bonnie++'s row, so one missing after the last cell shown is a row cut
 * short (a paste that ended there, a wrap whose rest was lost).
 */
static void latency_done(struct table_read *t)
{
	const struct result *r = t->latency_row;
	int base = t->latency_file ? PH_FIRST_FILE : 0, g, shown = 0, last = -1;
	char what[64];

	if (r == NULL)
		return;
	t->latency_row = NULL;
	for (g = 0; g < GROUPS; g++)
		if (r->cell[base + g].latency_us >= 0) {
			shown++;
			last = g;
		}
	for (g = last + 1; g < GROUPS; g++)
		if (r->cell[base + g].status != CELL_SKIPPED)
			break;
	if (g == GROUPS)
		return;
	snprintf(what, sizeof(what), "cut after %d of its cells", shown);
	drop_latency(t, t->latency_i, t->latency_file, t->latency_line, what);
}

/* Header lines; false for anything else. */
static bool header_line(struct table_read *t, const char *s,
    unsigned long lineno, size_t *ended)
{
	if (contains(s, "Sequential Output")) {
		if (t->state != S_NONE || t->nrows > 0)
			*ended = finish(t, false);
		start(t, lineno);
		take_version(t, s);
		/* bonnie's older tables have no Version label */
		t->marked = contains(s, "Version");
		t->state = S_IO_TOP;
		return true;
	}
	if (contains(s, "Sequential Create")) {
		/*
		 * A second file section is the next table's, and so is one
		 * after a gap (a -n 0 table, then a -s 0 one), or with its
		 * own Version line after 1.0x's I/O rows.
		 */
		if (t->nfile > 0 || (t->nrows > 0 && (t->gap ||
		    (t->state != S_IO_ROWS && t->state != S_IO_TOP) ||
		    (!t->latency && contains(s, "Version"))))) {
			*ended = finish(t, false);
			start(t, lineno);
		}
		if (t->state == S_NONE) {
			t->first_line = lineno;
			/* bonnie++'s first line of a -s 0 run */
			t->files_top = t->nrows == 0 && contains(s, "Version");
		}
		if (t->version[0] == '\0')
			take_version(t, s);
		t->marked = t->file_section = true;
		t->state = S_FILE_TOP;
		return true;
	}
	if (contains(s, "-Per Chr-") || (contains(s, "--Block--") &&
	    contains(s, "-Rewrite-"))) {
		if (t->state == S_NONE)
			start(t, lineno);
		if (starts(s, "Concurrency"))
			t->concurrency = atoi(s + 11);
		/* bonnie's is "-Per Char-" */
		t->marked = t->marked || contains(s, "-Per Chr-");
		t->state = S_IO_TOP;
		return true;
	}
	if (starts(s, "Machine ") || starts(s, "Name:Size")) {
		if (t->nio > 0) {
			*ended = finish(t, false);
			start(t, lineno);
		}
		if (t->state == S_NONE)
			t->first_line = lineno;
		t->units = starts(s, "Name:Size");
		/* bonnie's is "Machine    MB K/sec %CPU" */
		t->marked = t->marked || t->units || (contains(s, " Size") &&
		    contains(s, "/sec %CP "));
		t->state = S_IO_ROWS;
		return true;
	}
	if (contains(s, "-Create--") && t->state != S_NONE) {
		take_name(t->file_name, s, (size_t)(strstr(s, "-Create--") - s));
		t->state = S_FILE_TOP;
		return true;
	}
	if (starts(s, "files") && contains(s, "/sec") && t->state != S_NONE) {
		t->state = S_FILE_ROWS;
		return true;
	}
	/* the Latency row of a row past the table's room, or of none */
	if (starts(s, "Latency") && (t->last_over || t->nrows == 0))
		return true;
	if (starts(s, "Latency") && t->nrows > 0) {
		size_t i = t->last_file ? t->nfile - 1 : t->nio - 1;
		char why[TABLE_WHY_MAX];

		latency_done(t);
		t->latency = true;
		if (!read_latency_row(s, &t->rows[i], t->last_file, why,
		    sizeof(why))) {
			drop_latency(t, i, t->last_file, lineno, why);
			return true;
		}
		t->latency_row = &t->rows[i];
		t->latency_i = i;
		t->latency_file = t->last_file;
		t->latency_line = lineno;
		return true;
	}
	return false;
}

size_t table_read_line(struct table_read *t, const char *line,
    unsigned long lineno)
{
	size_t ended = 0, len;
	char *s = t->clean;

	t->ndone = t->nbad = 0;
	strip_markup(line, s, sizeof(t->clean));
	if (t->state == S_NONE && t->nrows == 0 && !contains(s, "Sequential") &&
	    !contains(s, "-Per Chr-") && !starts(s, "Machine ") &&
	    !starts(s, "Name:Size")) {
		bare_row(t, s, lineno);
		return 0;       /* the cost of prose: a look, a split */
	}
	if (*s == '\0') {
		t->gap = true;
		return 0;
	}
	/* the rest of a wrapped Latency row */
	if (t->latency_row != NULL) {
		struct result *r = t->latency_row;

		if (latency_tail(s, r, t->latency_file)) {
			t->latency_row = NULL;
			return 0;
		}
		latency_done(t);
	}
	/* the rest of a wrapped row */
	if (t->wrapped_len > 0) {
		size_t w = t->wrapped_len;

		len = strlen(s);
		if (is_row_tail(s) && w + 1 + len < sizeof(t->joined)) {
			memcpy(t->joined, t->wrapped, w);
			t->joined[w] = ' ';
			memcpy(t->joined + w + 1, s, len + 1);
			if (data_row(t, t->joined, t->wrapped_line)) {
				t->wrapped_len = 0;
				t->idle = 0;
				t->gap = false;
				return 0;
			}
		}
		give_up_wrapped(t);
	}
	if (header_line(t, s, lineno, &ended) || data_row(t, s, lineno)) {
		t->idle = 0;
		t->gap = false;
		return ended;
	}
	t->gap = true;
	/*
	 * A row that lacks its end: perhaps wrapped.  Under the title lines
	 * of a bonnie++ table without the line of column heads, only what
	 * looks like a row.
	 */
	len = strlen(s);
	if (!t->bare && (t->state == S_IO_ROWS || t->state == S_FILE_ROWS ||
	    ((t->state == S_IO_TOP || t->state == S_FILE_TOP) && t->marked &&
	    looks_like_row(s))) && len < sizeof(t->wrapped)) {
		memcpy(t->wrapped, s, len);
		t->wrapped_len = len;
		t->wrapped_line = lineno;
	}
	if (++t->idle >= IDLE_MAX)
		return finish(t, false);
	return 0;
}

bool table_same_run(const struct result *table, const struct result *csv)
{
	size_t n = strlen(table->name);
	int ph;

	/* a name taken out of the CSV line by hand (f001: ",2G,...") */
	if (csv->name[0] != '\0' && strncmp(table->name, csv->name, n) != 0)
		return false;
	/* a section the table did not show may be anything */
	if ((table->has_io != csv->has_io &&
	    table->cell[PH_PUTC].status != CELL_ABSENT) ||
	    (table->has_files != csv->has_files &&
	    table->cell[PH_FIRST_FILE].status != CELL_ABSENT))
		return false;
	if (table->has_io && table->file_size_mib != csv->file_size_mib)
		return false;
	/* an empty io_chunk_size is 8192 (2.00a's for any chunk) */
	if (table->has_io && csv->chunk != 0 && csv->chunk != DEFAULT_CHUNK &&
	    table->chunk != csv->chunk)
		return false;
	if (table->has_files && table->files.count_k != csv->files.count_k)
		return false;
	for (ph = 0; ph < PH_COUNT; ph++) {
		const struct cell *a = &table->cell[ph], *b = &csv->cell[ph];

		if (a->status == CELL_ABSENT)
			continue;
		if (a->status == CELL_UNKNOWN) {
			if (b->status != CELL_OK || a->cpu != b->cpu)
				return false;
			continue;
		}
		if (a->status != b->status)
			return false;
		if (a->status != CELL_OK)
			continue;
		/* 0.5: 1.0x tables write seeks of 1000 and more whole */
		if (fabs(a->rate - b->rate) > a->rate_precision + 0.5 ||
		    a->cpu != b->cpu)
			return false;
	}
	return true;
}
