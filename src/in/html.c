/*
 * in/html.c: bonnie++ results in web pages (in/html.h).
 *
 * bon_csv2html writes a row of <TD> cells per CSV line, in the line's
 * own order, and leaves fields out only where its version says:
 *
 *   1.0x (perl)   the 27 fields as they are: name, size, cells, files
 *   1.90a (perl)  name, size, chunk, cells, 4 file columns, cells (31)
 *   1.92b-1.97    name, [concurrency], size, [chunk], 12 cells, files,
 *                 [max], [min], [dirs], [file chunk], 12 cells; a column
 *                 in [] only when a row needs it, as its header row says;
 *                 then a Latency row (1.93 repeats the name before it)
 *   2.00a         the same, with the three block rates in MiB/s, rounded,
 *                 under "M/sec" (per-char stays K/s) and +++++ among them
 *                 printed 0 (its %CP stays +++)
 *
 * Each row is put back into the CSV line it was made from, for
 * csv_read_line() to read and judge; what the page lost (the seed, the
 * 2.00a rounding) is said by html_item_result().  bon_csv2html fed text
 * (the 1.0x perl script splits any line on its first comma) makes rows
 * of one line three times: that line is given back once.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "in/csv_line.h"
#include "in/html.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The name of the tag at s ("<td ...>", "</TR>"): its length, or 0. */
static size_t tag_name(const char *s, const char **name, bool *closing)
{
	const char *p = s + 1;
	size_t n = 0;

	*closing = *p == '/';
	if (*closing)
		p++;
	while (is_alpha(p[n]) || (n > 0 && is_digit(p[n])))
		n++;
	*name = p;
	if (n == 0 || (p[n] != '>' && p[n] != '/' && !is_blank(p[n]) &&
	    p[n] != '\0'))
		return 0;
	return n;
}

static bool name_is(const char *name, size_t n, const char *const *set)
{
	for (; *set != NULL; set++)
		if (strlen(*set) == n && strncasecmp(name, *set, n) == 0)
			return true;
	return false;
}

static const char *const table_tags[] = {
	"table", "tr", "td", "th", "tbody", "thead", "tfoot", NULL
};

/* HTML tags that only dress text */
static const char *const inline_tags[] = {
	"b", "i", "u", "s", "font", "span", "strong", "em", "a", "tt", "code",
	"pre", "small", "big", "br", "p", "kbd", "samp", NULL
};

/* BBCode tags that only dress text: [b], [color=red], [/font] */
static const char *const inline_codes[] = {
	"b", "i", "u", "s", "color", "colour", "font", "size", "code", "pre",
	"tt", "html", "quote", "highlight", NULL
};

/* The end of the HTML tag at s ('>' included), or NULL. */
static const char *tag_end(const char *s, const char *const *set)
{
	const char *name;
	bool closing;
	size_t n = tag_name(s, &name, &closing);
	const char *end;

	if (n == 0 || !name_is(name, n, set))
		return NULL;
	end = strchr(name + n, '>');
	return end != NULL ? end + 1 : NULL;
}

/* The end of the BBCode tag at s (']' included), or NULL. */
static const char *code_end(const char *s)
{
	const char *p = s + 1 + (s[1] == '/');
	size_t n = 0;

	while (is_alpha(p[n]))
		n++;
	if (n == 0 || !name_is(p, n, inline_codes))
		return NULL;
	p += n;
	if (*p == '=')
		p += strcspn(p, "]");
	return *p == ']' ? p + 1 : NULL;
}

static const struct {
	const char *name;
	char c;
} entities[] = {
	{ "&nbsp;", ' ' }, { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
	{ "&quot;", '"' }, { "&#43;", '+' }, { "&#160;", ' ' }, { "&#32;", ' ' },
	{ "&#44;", ',' }, { "&#37;", '%' },
};

size_t html_strip_inline(char *s, size_t len)
{
	size_t i = 0, o = 0, k;

	if (memchr(s, '<', len) == NULL && memchr(s, '[', len) == NULL &&
	    memchr(s, '&', len) == NULL)
		return len;
	while (i < len) {
		const char *end = NULL;

		if (s[i] == '<')
			end = tag_end(s + i, inline_tags);
		else if (s[i] == '[')
			end = code_end(s + i);
		if (end != NULL) {
			i = (size_t)(end - s);
			continue;
		}
		if (s[i] == '&') {
			for (k = 0; k < sizeof(entities) / sizeof(entities[0]); k++) {
				size_t n = strlen(entities[k].name);

				if (i + n <= len &&
				    strncasecmp(s + i, entities[k].name, n) == 0)
					break;
			}
			if (k < sizeof(entities) / sizeof(entities[0])) {
				s[o++] = entities[k].c;
				i += strlen(entities[k].name);
				continue;
			}
		}
		s[o++] = s[i++];
	}
	s[o] = '\0';
	return o;
}

void html_read_init(struct html_read *h)
{
	memset(h, 0, sizeof(*h));
}

/*
 * A new item, or NULL when the queue is full: its last place says so,
 * once, so that rows past it are named, never dropped.
 */
static struct html_item *new_item(struct html_read *h, unsigned long lineno)
{
	struct html_item *it;

	if (h->next == h->nitems) {
		h->next = h->nitems = 0;
		h->overflow = false;
	}
	if (h->nitems >= HTML_ITEMS_MAX - 1) {
		if (!h->overflow) {
			it = &h->item[h->nitems++];
			it->lineno = lineno;
			it->bad = true;
			it->result = it->mib = false;
			it->text[0] = '\0';
			snprintf(it->why, sizeof(it->why), "bon_csv2html table: "
			    "more than %d rows on one line, the rest not read",
			    HTML_ITEMS_MAX - 1);
			h->overflow = true;
		}
		return NULL;
	}
	it = &h->item[h->nitems++];
	it->lineno = lineno;
	it->bad = it->result = it->mib = false;
	it->text[0] = it->why[0] = '\0';
	return it;
}

static void add_bad(struct html_read *h, unsigned long lineno, const char *why)
{
	struct html_item *it = new_item(h, lineno);

	if (it == NULL)
		return;
	it->bad = true;
	snprintf(it->why, sizeof(it->why), "%s", why);
}

/* The CSV line of the fields, queued as a result to read. */
static void add_fields(struct html_read *h, unsigned long lineno,
    char field[][HTML_FIELD_MAX], size_t n)
{
	struct html_item *it = new_item(h, lineno);
	size_t i, o = 0;

	if (it == NULL)
		return;
	for (i = 0; i < n; i++) {
		int w = snprintf(it->text + o, sizeof(it->text) - o, "%s%s",
		    i > 0 ? "," : "", field[i]);

		if (w < 0 || (size_t)w >= sizeof(it->text) - o) {
			it->bad = true;
			snprintf(it->why, sizeof(it->why), "bon_csv2html row: "
			    "longer than %d bytes", HTML_ITEM_MAX - 1);
			return;
		}
		o += (size_t)w;
	}
	it->result = true;
	it->mib = h->mib;
}

static void flush_pending(struct html_read *h)
{
	if (!h->pending)
		return;
	h->pending = false;
	add_fields(h, h->pending_line, h->field, h->nfields);
}

static void table_start(struct html_read *h)
{
	flush_pending(h);
	h->in_table = true;
	h->version[0] = '\0';
	h->mib = h->conc = h->chunk = h->max = h->min = h->dirs = h->fchunk =
	    false;
	h->latency = false;
}

static bool cell_is(const struct html_read *h, size_t i, const char *what)
{
	return i < h->ncells && strcmp(h->cell[i], what) == 0;
}

static size_t find_cell(const struct html_read *h, size_t from,
    const char *what)
{
	for (; from < h->ncells; from++)
		if (strcmp(h->cell[from], what) == 0)
			return from;
	return (size_t)-1;
}

/* "Version 1.97", "Version 2.00a": the cell of the table's version */
static void take_version(struct html_read *h, const char *cell)
{
	static const char word[] = "Version ";
	const char *v = cell + sizeof(word) - 1;

	if (strncmp(cell, word, sizeof(word) - 1) != 0 || !is_digit(*v) ||
	    strlen(v) >= sizeof(h->version))
		return;
	strcpy(h->version, v);
	/* 1.92b on: a Latency row under each row; 1.98 on: MiB/s */
	h->latency = strtod(v, NULL) >= 1.92;
	h->mib = h->mib || strtod(v, NULL) >= 1.98;
}

/* The header rows; false for any other row. */
static bool header_row(struct html_read *h)
{
	size_t i, files;

	for (i = 0; i < h->ncells; i++)
		if (strstr(h->cell[i], "Sequential Output") != NULL ||
		    strstr(h->cell[i], "Sequential Create") != NULL)
			break;
	if (i < h->ncells) {
		if (!h->in_table || h->pending)
			table_start(h);
		for (i = 0; i < h->ncells; i++)
			take_version(h, h->cell[i]);
		return true;
	}
	if ((files = find_cell(h, 0, "Num Files")) != (size_t)-1) {
		size_t size = find_cell(h, 0, "Size");

		h->conc = find_cell(h, 0, "Concurrency") < files;
		h->chunk = size < files && cell_is(h, size + 1, "Chunk Size");
		h->max = find_cell(h, files, "Max Size") != (size_t)-1;
		h->min = find_cell(h, files, "Min Size") != (size_t)-1;
		h->dirs = find_cell(h, files, "Num Dirs") != (size_t)-1;
		h->fchunk = find_cell(h, files, "Chunk Size") != (size_t)-1;
		return true;
	}
	if (find_cell(h, 0, "% CPU") != (size_t)-1) {
		if (find_cell(h, 0, "M/sec") != (size_t)-1)
			h->mib = true;
		return true;
	}
	return false;
}

/* A Latency row: the six latencies after each "Latency" cell. */
static void latency_row(struct html_read *h, size_t at)
{
	size_t base = h->nfields - 12, k, sect;

	for (sect = 0; sect < 2 && at != (size_t)-1; sect++) {
		for (k = 0; k < 6 && at + 1 + k < h->ncells; k++)
			snprintf(h->field[base + sect * 6 + k], HTML_FIELD_MAX,
			    "%.255s", h->cell[at + 1 + k]);
		at = find_cell(h, at + 7, "Latency");
	}
	flush_pending(h);
}

static void set_field(struct html_read *h, size_t i, const char *v)
{
	snprintf(h->field[i], HTML_FIELD_MAX, "%.255s", v);
}

/*
 * A 1.92b to 2.00a data row into the fields of its CSV line, kept until
 * its Latency row.
 */
static void row_19x(struct html_read *h)
{
	bool v198 = h->mib || strtod(h->version, NULL) >= 1.98;
	size_t want = 27 + h->conc + h->chunk + h->max + h->min + h->dirs +
	    h->fchunk, c = 0, f, i;
	/* where the size, the first cell and the file count go */
	size_t size_at = 5, io_at = v198 ? 9 : 7, files_at = v198 ? 21 : 19;
	char why[HTML_WHY_MAX];

	if (h->ncells != want) {
		snprintf(why, sizeof(why), "bon_csv2html row: %zu cells, where "
		    "its table has %zu", h->ncells, want);
		add_bad(h, h->row_line, why);
		return;
	}
	h->nfields = v198 ? 50 : 48;
	for (f = 0; f < h->nfields; f++)
		h->field[f][0] = '\0';
	set_field(h, 0, v198 ? "1.98" : h->version[0] == '\0' ? "1.97" :
	    strcmp(h->version, "1.93") == 0 ? "1.92b" : h->version);
	/* the page's Version is its converter's: 2.00a reads 2.00's lines */
	set_field(h, 1, v198 ? "" : h->version);
	set_field(h, 2, h->cell[c++]);
	/* the column is left out when every row ran one process */
	set_field(h, 3, h->conc ? h->cell[c++] : "1");
	set_field(h, size_at, h->cell[c++]);
	if (h->chunk)
		set_field(h, size_at + 1, h->cell[c++]);
	for (i = 0; i < 13; i++)
		set_field(h, io_at + i, h->cell[c++]);
	for (i = 1; i <= 4; i++)
		if ((i == 1 && h->max) || (i == 2 && h->min) ||
		    (i == 3 && h->dirs) || (i == 4 && h->fchunk))
			set_field(h, files_at + i, h->cell[c++]);
	for (i = 0; i < 12; i++)
		set_field(h, files_at + 5 + i, h->cell[c++]);
	/*
	 * 2.00a printed +++++ as 0 where it divided by 1024, and an empty
	 * rate (-s 0) as 0 too: their %CP tells them apart from a rate
	 */
	for (i = 0; v198 && i < 5; i++)
		if (strcmp(h->field[io_at + 2 * i], "0") == 0 &&
		    (strcmp(h->field[io_at + 2 * i + 1], "+++") == 0 ||
		    h->field[io_at + 2 * i + 1][0] == '\0'))
			set_field(h, io_at + 2 * i,
			    h->field[io_at + 2 * i + 1][0] == '\0' ? "" : "+++++");
	h->pending = true;
	h->pending_line = h->row_line;
}

/* A row that is not a header: a result, a Latency row, or text. */
static void data_row(struct html_read *h)
{
	size_t at = find_cell(h, 0, "Latency"), i;
	struct html_item *it;

	if (at != (size_t)-1) {
		if (h->pending)
			latency_row(h, at);
		return;
	}
	flush_pending(h);
	if (h->ncells < 20) {
		/* a line in a cell of another table: a CSV line in a wiki */
		for (i = 0; i < h->ncells; i++)
			if (strchr(h->cell[i], ',') != NULL &&
			    (it = new_item(h, h->row_line)) != NULL)
				snprintf(it->text, sizeof(it->text), "%s",
				    h->cell[i]);
		return;
	}
	if (h->latency || h->rowspan) {
		row_19x(h);
		return;
	}
	if (h->ncells == 31) {
		/* 1.90a: the format tag and the version were left out */
		for (i = h->ncells + 2; i-- > 2;)
			set_field(h, i, h->cell[i - 2]);
		set_field(h, 0, "2");
		set_field(h, 1, h->version[0] != '\0' ? h->version : "1.90a");
		add_fields(h, h->row_line, h->field, h->ncells + 2);
		return;
	}
	if (h->ncells > HTML_FIELDS_MAX) {
		add_bad(h, h->row_line, "bon_csv2html row: more cells than "
		    "any bonnie++ CSV line has fields");
		return;
	}
	for (i = 0; i < h->ncells; i++)
		set_field(h, i, h->cell[i]);
	add_fields(h, h->row_line, h->field, h->ncells);
}

static void cell_end(struct html_read *h)
{
	char *c;
	size_t n;

	if (!h->in_cell)
		return;
	h->in_cell = false;
	c = h->cell[h->ncells - 1];
	n = h->cell_len;
	while (n > 0 && is_blank(c[n - 1]))
		n--;
	c[n] = '\0';
	n = strspn(c, " \t");
	memmove(c, c + n, strlen(c + n) + 1);
}

static void row_end(struct html_read *h)
{
	char why[HTML_WHY_MAX];
	struct html_item *it;

	cell_end(h);
	if (!h->in_row)
		return;
	h->in_row = false;
	if (h->too_many) {
		snprintf(why, sizeof(why), "bon_csv2html row: more than %d "
		    "cells", HTML_CELLS_MAX);
		add_bad(h, h->row_line, why);
		return;
	}
	if (h->ncells == 0)
		return;
	/* a line of text fed to bon_csv2html: its header lines too */
	if (h->ncells == 3 && strcmp(h->cell[0], h->cell[1]) == 0 &&
	    strcmp(h->cell[1], h->cell[2]) == 0) {
		flush_pending(h);
		if (h->cell[0][0] != '\0' && (it = new_item(h, h->row_line)) != NULL)
			snprintf(it->text, sizeof(it->text), "%s", h->cell[0]);
		return;
	}
	if (!header_row(h))
		data_row(h);
}

static void row_start(struct html_read *h, unsigned long lineno)
{
	row_end(h);
	h->in_row = true;
	h->rowspan = h->too_many = false;
	h->ncells = 0;
	h->row_line = lineno;
}

static void cell_start(struct html_read *h, const char *attrs,
    size_t attrs_len, unsigned long lineno)
{
	char a[128];
	size_t n = attrs_len < sizeof(a) - 1 ? attrs_len : sizeof(a) - 1;

	if (!h->in_row)
		row_start(h, lineno);
	cell_end(h);
	if (h->ncells == HTML_CELLS_MAX) {
		h->too_many = true;
		return;
	}
	memcpy(a, attrs, n);
	a[n] = '\0';
	for (n = 0; a[n] != '\0'; n++)
		if (a[n] >= 'A' && a[n] <= 'Z')
			a[n] = (char)(a[n] - 'A' + 'a');
	if (h->ncells == 0 && strstr(a, "rowspan") != NULL &&
	    strchr(a, '2') != NULL)
		h->rowspan = true;
	h->cell[h->ncells++][0] = '\0';
	h->cell_len = 0;
	h->in_cell = true;
}

static bool has_table_markup(const char *s)
{
	const char *name;
	bool closing;

	for (s = strchr(s, '<'); s != NULL; s = strchr(s + 1, '<')) {
		size_t n = tag_name(s, &name, &closing);

		if (n > 0 && name_is(name, n, table_tags))
			return true;
	}
	return false;
}

/*
 * A row of the page as a browser copies it: its cells between tabs.  A
 * header row, a Latency row, or a row of as many cells as a result has.
 */
static bool rendered_row(struct html_read *h, const char *line,
    unsigned long lineno)
{
	size_t tabs = 0;
	const char *p;

	for (p = strchr(line, '\t'); p != NULL; p = strchr(p + 1, '\t'))
		tabs++;
	if (tabs < 3 || (tabs < 19 && strncmp(line, "Latency", 7) != 0 &&
	    strstr(line, "Sequential Output") == NULL &&
	    strstr(line, "Num Files") == NULL && strstr(line, "% CPU") == NULL))
		return false;
	row_start(h, lineno);
	for (p = line;; p++) {
		cell_start(h, "", 0, lineno);
		for (; *p != '\0' && *p != '\t'; p++)
			if (h->in_cell && h->cell_len + 1 < HTML_CELL_MAX) {
				h->cell[h->ncells - 1][h->cell_len++] = *p;
				h->cell[h->ncells - 1][h->cell_len] = '\0';
			}
		if (*p == '\0')
			break;
	}
	row_end(h);
	return true;
}

bool html_read_line(struct html_read *h, const char *line,
    unsigned long lineno)
{
	const char *p = line;

	/*
	 * Lines without table markup are the other readers', but for a short
	 * one inside a cell (a page's source with one cell per line): a "<td>"
	 * in prose takes no more than that from them.
	 */
	if (!has_table_markup(line)) {
		if (rendered_row(h, line, lineno))
			return true;
		if (!(h->in_cell && strlen(line) < 40))
			return false;
	}
	while (*p != '\0') {
		const char *name, *end;
		bool closing;
		size_t n, attrs;

		if (*p != '<' || (n = tag_name(p, &name, &closing)) == 0) {
			if (h->in_cell && h->cell_len + 1 < HTML_CELL_MAX) {
				h->cell[h->ncells - 1][h->cell_len++] = *p;
				h->cell[h->ncells - 1][h->cell_len] = '\0';
			}
			p++;
			continue;
		}
		end = strchr(name + n, '>');
		attrs = end != NULL ? (size_t)(end - name) - n : strlen(name + n);
		if (name_is(name, n, (const char *const[]){ "table", NULL })) {
			if (closing) {
				row_end(h);
				flush_pending(h);
				h->in_table = false;
			} else {
				row_end(h);
				table_start(h);
			}
		} else if (name_is(name, n, (const char *const[]){ "tr", NULL })) {
			if (closing)
				row_end(h);
			else
				row_start(h, lineno);
		} else if (name_is(name, n,
		    (const char *const[]){ "td", "th", NULL })) {
			if (closing)
				cell_end(h);
			else
				cell_start(h, name + n, attrs, lineno);
		} else if (h->in_cell && h->cell_len + 1 < HTML_CELL_MAX) {
			/* any other tag: a break between words */
			h->cell[h->ncells - 1][h->cell_len++] = ' ';
			h->cell[h->ncells - 1][h->cell_len] = '\0';
		}
		p = name + n + attrs + (end != NULL);
	}
	return true;
}

void html_read_end(struct html_read *h)
{
	row_end(h);
	flush_pending(h);
	h->in_table = false;
}

const struct html_item *html_read_next(struct html_read *h)
{
	if (h->next == h->nitems)
		return NULL;
	return &h->item[h->next++];
}

void html_item_result(const struct html_item *it, struct result *res)
{
	static const enum phase_id mib[] = { PH_PUT_BLOCK, PH_REWRITE,
	    PH_GET_BLOCK };
	size_t i;

	/* a bon_csv2html row; a CSV line in a cell is one as it stands */
	if (!it->result)
		return;
	res->from_table = true;
	for (i = 0; it->mib && i < sizeof(mib) / sizeof(mib[0]); i++) {
		struct cell *c = &res->cell[mib[i]];

		if (c->status != CELL_OK)
			continue;
		c->rate *= 1024;
		/* bon_csv2html rounds to whole MiB/s */
		c->rate_precision = 512;
	}
}

bool html_read_pending(const struct html_read *h)
{
	return h->next < h->nitems;
}

/* fields of a line run together that are looked at */
#define RUNON_FIELDS_MAX 512

struct span {
	size_t a, b;
};

/* The ends a field's text may have when the next text ran into it. */
static size_t figure_ends(const char *s, size_t a, size_t b, size_t *ends)
{
	size_t n = 0, d = a, k;
	static const char *const units[] = { "us", "ms", "s" };

	while (d < b && is_digit(s[d]))
		d++;
	if (d < b && s[d] == '.' && d + 1 < b && is_digit(s[d + 1]))
		for (d++; d < b && is_digit(s[d]);)
			d++;
	if (d > a) {
		for (k = 0; k < 3; k++)
			if (d + strlen(units[k]) <= b &&
			    strncmp(s + d, units[k], strlen(units[k])) == 0) {
				ends[n++] = d + strlen(units[k]);
				break;
			}
		ends[n++] = d;
	} else if (b - a >= 5 && strncmp(s + a, "+++++", 5) == 0) {
		ends[n++] = a + 5;
	} else if (b - a >= 3 && strncmp(s + a, "+++", 3) == 0) {
		ends[n++] = a + 3;
	}
	ends[n++] = a;          /* an empty field */
	return n;
}

/* line[from, to) into out, and read: true for a result. */
static bool try_window(const char *line, size_t from, size_t to, char *out,
    size_t cap)
{
	struct result res;
	char why[CSV_WHY_MAX];

	if (to <= from || to - from >= cap)
		return false;
	memcpy(out, line + from, to - from);
	out[to - from] = '\0';
	return csv_read_line(out, &res, why, sizeof(why), NULL) == CSV_RESULT;
}

/* Every end of the window of count fields from field s, starting at from. */
static bool try_ends(const char *line, const struct span *f, size_t n,
    size_t s, size_t count, size_t from, char *out, size_t cap)
{
	size_t ends[4], k, m, e = s + count - 1;

	if (e >= n)
		return false;
	m = figure_ends(line, f[e].a, f[e].b, ends);
	for (k = 0; k < m; k++)
		/* text outside the window: else the line was read as it is */
		if ((from > 0 || ends[k] < strlen(line)) &&
		    try_window(line, from, ends[k], out, cap))
			return true;
	return false;
}

/*
 * The name of a 1.0x line run into the table row before it ("3131
 * 38server"): the word before the comma, less the %CP digits glued to it
 * when the table shows a row of that name and size.  Returns where the
 * name starts.
 */
static size_t name_start(const char *line, const struct span *f,
    size_t s)
{
	size_t j0 = f[s].b, c, size_len = f[s + 1].b - f[s + 1].a;

	while (j0 > f[s].a && !is_blank(line[j0 - 1]))
		j0--;
	for (c = j0 + 1; c < f[s].b && c - j0 <= 4 && is_digit(line[c - 1]);
	    c++) {
		size_t name_len = f[s].b - c, at;

		if (is_digit(line[c]))
			continue;
		/* "server           2G" in the table of the same run */
		for (at = 0; at + name_len < j0; at++) {
			const char *q = line + at + name_len;

			if (strncmp(line + at, line + c, name_len) != 0 ||
			    !is_blank(*q))
				continue;
			q += strspn(q, " \t");
			if (strncmp(q, line + f[s + 1].a, size_len) == 0 &&
			    is_blank(q[size_len]))
				return c;
		}
	}
	return j0;
}

bool html_runon_csv(const char *line, char *out, size_t cap)
{
	static const size_t tagged[] = { 50, 48, 47, 46, 45, 33 };
	struct span f[RUNON_FIELDS_MAX];
	size_t n = 0, i, s, j;
	const char *p = line;
	struct result tmp;

	if (strstr(line, "Sequential Output") == NULL &&
	    strstr(line, "Sequential Create") == NULL)
		return false;
	for (;;) {
		const char *c = strchr(p, ',');

		if (n == RUNON_FIELDS_MAX)
			return false;
		f[n].a = (size_t)(p - line);
		f[n].b = c != NULL ? (size_t)(c - line) : strlen(line);
		n++;
		if (c == NULL)
			break;
		p = c + 1;
	}
	for (s = 0; s + 1 < n; s++) {
		char next[32];
		size_t len = f[s + 1].b - f[s + 1].a;

		if (len == 0 || len >= sizeof(next))
			continue;
		memcpy(next, line + f[s + 1].a, len);
		next[len] = '\0';
		/* 1.9x and later: a format tag glued to what came before */
		if (is_digit(next[0]) && strchr(next, '.') != NULL) {
			for (j = f[s].b > f[s].a + 6 ? f[s].b - 6 : f[s].a;
			    j + 1 < f[s].b; j++) {
				if (!is_digit(line[j]) || (j > f[s].a &&
				    (is_digit(line[j - 1]) || line[j - 1] == '.')))
					continue;
				for (i = 0; i < sizeof(tagged) / sizeof(tagged[0]); i++)
					if (try_ends(line, f, n, s, tagged[i], j, out,
					    cap))
						return true;
			}
		}
		/* 1.0x: a name, then its size */
		if (csv_parse_size(next, &tmp) == 0 && f[s].b > f[s].a &&
		    try_ends(line, f, n, s, 27, name_start(line, f, s), out, cap))
			return true;
	}
	return false;
}
