/*
 * in/stream.c: bonnie++ results out of text as people keep it.
 *
 * Layers, outermost first (clyde(1), REPORT, Input):
 *   physical lines   any bytes, any length: a line longer than
 *                    CSV_LINE_MAX is cut and flagged, never stored whole;
 *   quoted-printable once a soft break or the header shows it: '=' at
 *                    the end joins the next line, =XX is decoded;
 *   quoting          '>' quote marks at any depth, tabs and spaces before
 *                    the text, blanks after it (format=flowed soft breaks
 *                    end in a blank, so they become plain wraps);
 *   wraps            a line that starts a result but lacks fields is
 *                    joined with the lines that complete it, even when the
 *                    wrap fell inside a number or inside +++++.
 * Lines of an HTML table go to in/html.c, which gives back the lines
 * its rows stand for; then every line goes to csv_read_line(), which
 * ignores prose and table rows, and what is no CSV line goes to the
 * text-table reader without its inline markup (html_strip_inline(): a
 * CSV line keeps a name such as "c<i>").
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "in/reader.h"
#include "in/stream.h"

/* pieces of one wrapped line, and blank lines allowed between them */
#define MAX_PIECES 16
#define MAX_BLANKS 2
/* a wrapped mail line is this long; used where the field count cannot tell */
#define WRAP_MIN 60
#define WRAP_MAX 80

struct logical {
	char *text;
	size_t len;
	unsigned long lineno;
	bool bad;               /* cut (too long) or with a NUL byte */
	bool cut;
	bool nul;
	bool hard_break;        /* ended in a Markdown hard break: '\\' */
	char side;              /* of a diff (in/blocks.h) */
};

void csv_input_init(struct csv_input *ci, FILE *in)
{
	ci->in = in;
	ci->io_pos = ci->io_len = 0;
	ci->eof = false;
	ci->lineno = 0;
	ci->qp = false;
	blocks_init(&ci->blocks);
	ci->side = SIDE_NONE;
	ci->have_back = false;
	html_read_init(&ci->html);
	table_read_init(&ci->table);
	ci->table_next = ci->table_bad_next = 0;
	ci->have_held = false;
	ci->nfollow = ci->follow_next = ci->nlast = 0;
}

static int fill(struct csv_input *ci)
{
	if (ci->eof)
		return -1;
	ci->io_len = fread(ci->io, 1, sizeof(ci->io), ci->in);
	ci->io_pos = 0;
	if (ci->io_len == 0) {
		ci->eof = true;
		return -1;
	}
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool blanks_only(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!is_blank(s[i]))
			return false;
	return true;
}

/*
 * One physical line, without its newline, cut to cap - 1 bytes.  Blanks
 * before and after the text do not count: indentation of any length is
 * dropped when the buffer fills with it, blanks past the end are not
 * kept; anything else past cap - 1 bytes cuts the line.  Returns false
 * at the end of the input.
 */
static bool read_physical(struct csv_input *ci, char *buf, size_t cap,
    size_t *len, bool *cut, bool *nul)
{
	size_t n = 0;
	bool any = false, text = false;

	*cut = *nul = false;
	for (;;) {
		const char *start, *nl;
		size_t seg;

		if (ci->io_pos == ci->io_len && fill(ci) != 0)
			break;
		any = true;
		start = ci->io + ci->io_pos;
		nl = memchr(start, '\n', ci->io_len - ci->io_pos);
		seg = nl != NULL ? (size_t)(nl - start) : ci->io_len - ci->io_pos;
		ci->io_pos += seg;
		while (seg > 0) {
			size_t copy = cap - 1 - n;

			if (copy == 0 && !text) {
				n = 0;          /* indentation only so far */
				copy = cap - 1;
			}
			if (copy == 0) {
				if (!*cut && !blanks_only(start, seg))
					*cut = true;
				break;
			}
			if (copy > seg)
				copy = seg;
			text = text || !blanks_only(start, copy);
			memcpy(buf + n, start, copy);
			n += copy;
			start += copy;
			seg -= copy;
		}
		if (nl != NULL) {
			ci->io_pos++;
			break;
		}
	}
	if (!any)
		return false;
	ci->lineno++;
	buf[n] = '\0';
	if (memchr(buf, '\0', n) != NULL)
		*nul = true;
	if (n > 0 && buf[n - 1] == '\r')
		buf[--n] = '\0';
	*len = n;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* =XX escapes, in place; returns the new length */
static size_t qp_decode(char *s, size_t len, bool *nul)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		int hi = i + 2 < len ? hexval(s[i + 1]) : -1;
		int lo = i + 2 < len ? hexval(s[i + 2]) : -1;

		if (s[i] == '=' && hi >= 0 && lo >= 0) {
			s[o] = (char)(hi * 16 + lo);
			if (s[o] == '\0')
				*nul = true;
			o++;
			i += 2;
		} else {
			s[o++] = s[i];
		}
	}
	s[o] = '\0';
	return o;
}

static size_t trim_right(char *s, size_t len)
{
	while (len > 0 && is_blank(s[len - 1]))
		len--;
	s[len] = '\0';
	return len;
}

/* A soft line break of quoted-printable: '=' at the end of a mail line. */
static bool qp_soft_break(const char *s, size_t len)
{
	return len >= 2 && s[len - 1] == '=' && s[len - 2] != '=';
}

/* Turn quoted-printable on when the text shows it. */
static void qp_detect(struct csv_input *ci, const char *s, size_t len)
{
	static const char header[] = "content-transfer-encoding:";
	const char *p = s + strspn(s, " \t>");

	if (ci->qp)
		return;
	/* mail encoders break lines at 76 characters */
	if (qp_soft_break(s, len) && len >= WRAP_MIN && len <= WRAP_MAX)
		ci->qp = true;
	else if (strncasecmp(p, header, sizeof(header) - 1) == 0 &&
	    strstr(p, "uoted-printable") != NULL)
		ci->qp = true;
}

/*
 * The next logical line into buf (CSV_LINE_MAX): quoted-printable
 * undone, quote marks and blanks around it removed.
 */
static bool read_logical(struct csv_input *ci, char *buf, struct logical *lg)
{
	size_t len, start;
	bool cut, nul;

	if (ci->have_back) {
		ci->have_back = false;
		memcpy(buf, ci->back, ci->back_len + 1);
		lg->text = buf;
		lg->len = ci->back_len;
		lg->lineno = ci->back_lineno;
		lg->cut = ci->back_cut;
		lg->nul = ci->back_nul;
		lg->bad = lg->cut || lg->nul;
		lg->hard_break = ci->back_hard_break;
		lg->side = ci->back_side;
		return true;
	}
	if (!read_physical(ci, buf, CSV_LINE_MAX, &len, &cut, &nul))
		return false;
	lg->lineno = ci->lineno;
	len = trim_right(buf, len);
	qp_detect(ci, buf, len);
	if (ci->qp) {
		while (!cut && qp_soft_break(buf, len)) {
			size_t more;
			bool c2, n2;

			len--;
			if (!read_physical(ci, ci->phys, sizeof(ci->phys), &more,
			    &c2, &n2))
				break;
			more = trim_right(ci->phys, more);
			nul = nul || n2;
			if (c2 || len + more >= CSV_LINE_MAX) {
				cut = true;
				break;
			}
			memcpy(buf + len, ci->phys, more + 1);
			len += more;
		}
		buf[len] = '\0';
		len = qp_decode(buf, len, &nul);
	}
	/* a NUL byte cannot hide the rest of the line */
	for (start = 0; nul && start < len; start++)
		if (buf[start] == '\0')
			buf[start] = '\x01';
	len = trim_right(buf, len);
	for (start = 0; start < len && (is_blank(buf[start]) || buf[start] == '>');)
		start++;
	/* a comment's mark or a diff's side, for the whole block; a mail
	 * quoted behind it ("# > ") */
	start += blocks_strip(&ci->blocks, buf + start, len - start, &lg->side);
	while (start < len && (is_blank(buf[start]) || buf[start] == '>'))
		start++;
	/* Markdown's hard break: the line goes on in the next one */
	lg->hard_break = len > start && buf[len - 1] == '\\' &&
	    !(len > start + 1 && buf[len - 2] == '\\');
	if (lg->hard_break)
		len = trim_right(buf, len - 1);
	memmove(buf, buf + start, len - start + 1);
	lg->text = buf;
	lg->len = len - start;
	lg->bad = cut || nul;
	lg->cut = cut;
	lg->nul = nul;
	return true;
}

static void give_back(struct csv_input *ci, const struct logical *lg)
{
	memcpy(ci->back, lg->text, lg->len + 1);
	ci->back_len = lg->len;
	ci->back_lineno = lg->lineno;
	ci->back_cut = lg->cut;
	ci->back_nul = lg->nul;
	ci->back_hard_break = lg->hard_break;
	ci->back_side = lg->side;
	ci->have_back = true;
}

/*
 * A piece of a wrapped CSV line: field characters and commas, blanks only
 * next to a comma (people pad fields by hand: "629 ,17").
 */
static bool is_piece(const char *s)
{
	const char *p;

	if (*s == '\0')
		return false;
	for (p = s; *p != '\0'; p++) {
		if (is_blank(*p)) {
			const char *q = p;

			while (is_blank(*q))
				q++;
			if (!(p > s && p[-1] == ',') && *q != ',' && *q != '\0')
				return false;
			p = q - 1;
			continue;
		}
		if (strchr("+.,:/_-@()", *p) == NULL &&
		    !(*p >= '0' && *p <= '9') &&
		    !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z'))
			return false;
	}
	return true;
}

/* The end of a field a wrap cut off: "9", "54us", "++" */
static bool is_tail_piece(const char *s)
{
	size_t n = strlen(s), d = strspn(s, "0123456789");

	if (n == 0 || n > 8)
		return false;
	if (strspn(s, "+") == n)
		return true;
	return strcmp(s + d, "") == 0 || strcmp(s + d, "us") == 0 ||
	    strcmp(s + d, "ms") == 0 || strcmp(s + d, "s") == 0;
}

/*
 * 'first' (in ci->line) starts a result that lacks fields, or whose last
 * field was cut.  Join the following pieces until the line reads.
 * Returns CSV_RESULT, or CSV_BAD with the reason for the first line.
 */
static enum csv_line_kind join_pieces(struct csv_input *ci,
    const struct logical *first, const struct csv_line_info *first_info,
    bool tail_only, struct result *res, char *why, size_t why_len)
{
	char why2[CSV_WHY_MAX];
	size_t len = first->len, pieces = 1, blanks = 0;
	struct csv_line_info info;
	struct logical next = { NULL, 0, 0, false, false, false, false,
	    SIDE_NONE };
	enum csv_line_kind k;

	memcpy(ci->join, first->text, first->len + 1);
	while (pieces < MAX_PIECES) {
		if (!read_logical(ci, ci->next, &next))
			return CSV_BAD;
		if (next.len == 0 && !next.bad && !tail_only &&
		    blanks < MAX_BLANKS) {
			blanks++;
			continue;
		}
		if (next.bad || !(tail_only ? is_tail_piece(next.text) :
		    is_piece(next.text)) || len + next.len >= CSV_LINE_MAX)
			break;
		/* a line that starts a result of its own is no piece */
		k = csv_read_line(next.text, res, why2, sizeof(why2), &info);
		if (k == CSV_RESULT || k == CSV_HEADER || info.tagged)
			break;
		memcpy(ci->join + len, next.text, next.len + 1);
		k = csv_read_line(ci->join, res, why2, sizeof(why2), &info);
		if (k == CSV_RESULT)
			return CSV_RESULT;
		if (tail_only || info.fields > first_info->expected ||
		    k == CSV_NOT_RESULT || k == CSV_HEADER) {
			ci->join[len] = '\0';
			break;
		}
		/* the right count and a bad value: say what is wrong with it */
		if (info.fields == info.expected)
			snprintf(why, why_len, "%s", why2);
		len += next.len;
		pieces++;
		next.len = 0;
		next.bad = false;
		next.text = NULL;
	}
	if (next.text != NULL)
		give_back(ci, &next);
	return CSV_BAD;
}

/* a table ended: its results are in ci->table.done */
#define IN_TABLE (-1)
/* a table this many lines after a CSV line may be its run's */
#define NEAR_LINES 4

/*
 * The logical line without inline markup (in ci->plain); a line of
 * nothing but markup ("</pre>") stays, a line of other text that ends a
 * table.
 */
static const char *plain(struct csv_input *ci, const struct logical *lg)
{
	size_t n;

	memcpy(ci->plain, lg->text, lg->len + 1);
	n = html_strip_inline(ci->plain, lg->len);
	return n == 0 || ci->plain[strspn(ci->plain, " \t")] == '\0' ?
	    lg->text : ci->plain;
}

/* nothing to hand out yet */
#define IN_NOTHING (-2)

/* The results of the table that ended are of the diff's side 'side'. */
static int table_ended(struct csv_input *ci, char side)
{
	for (size_t i = 0; i < ci->table.ndone; i++)
		ci->table.done[i].diff_side = side;
	return IN_TABLE;
}

/* A line with the header of a bonnie++ text table in it. */
static bool runon_table(const char *s)
{
	return strstr(s, "Sequential Output") != NULL ||
	    strstr(s, "Sequential Create") != NULL;
}

/*
 * The next line an HTML table gave: a row's CSV line, read here (it is
 * never joined with another); a line of text, for the table reader; or
 * a row named as unreadable.
 */
static int html_row_line(struct csv_input *ci, struct result *res,
    unsigned long *lineno, char *why, size_t why_len)
{
	const struct html_item *it = html_read_next(&ci->html);
	enum csv_line_kind k;

	*lineno = it->lineno;
	if (it->bad) {
		snprintf(why, why_len, "%s", it->why);
		return CSV_IN_BAD;
	}
	k = csv_read_line(it->text, res, why, why_len, NULL);
	if (k == CSV_RESULT) {
		html_item_result(it, res);
		return CSV_IN_RESULT;
	}
	if (k == CSV_BAD || k == CSV_PARTIAL) {
		char reason[CSV_WHY_MAX];

		snprintf(reason, sizeof(reason), "%s", why);
		snprintf(why, why_len, "bon_csv2html row: %s", reason);
		return CSV_IN_BAD;
	}
	if (!it->result &&
	    table_read_line(&ci->table, it->text, it->lineno) > 0)
		return table_ended(ci, ci->side);
	return IN_NOTHING;
}

/*
 * The next CSV result, bad line or end of a table.  Lines that are no
 * CSV go to the table reader.
 */
static int next_line_result(struct csv_input *ci, struct result *res,
    unsigned long *lineno, char *why, size_t why_len)
{
	struct csv_line_info info;
	struct logical lg;
	enum csv_line_kind k;
	const char *text;

	for (;;) {
		if (html_read_pending(&ci->html)) {
			int st = html_row_line(ci, res, lineno, why, why_len);

			if (st != IN_NOTHING)
				return st;
			continue;
		}
		if (!read_logical(ci, ci->line, &lg)) {
			if (ferror(ci->in)) {
				if (errno == 0)
					errno = EIO;
				return CSV_IN_ERROR;
			}
			html_read_end(&ci->html);
			if (html_read_pending(&ci->html))
				continue;
			return table_read_end(&ci->table) > 0 ?
			    table_ended(ci, ci->side) : CSV_IN_END;
		}
		/* a diff's two sides are two runs: a table ends at its side's */
		if (lg.side != ci->side) {
			char was = ci->side;

			ci->side = lg.side;
			if (table_read_end(&ci->table) > 0) {
				give_back(ci, &lg);
				return table_ended(ci, was);
			}
		}
		text = lg.bad ? lg.text : plain(ci, &lg);
		if (!lg.bad && html_read_line(&ci->html, text, lg.lineno))
			continue;
		*lineno = lg.lineno;
		k = csv_read_line(lg.text, res, why, why_len, &info);
		/* markup around a CSV line: "<p>host,2G,...,35</p>" */
		if (k == CSV_BAD && strcmp(text, lg.text) != 0) {
			if (csv_read_line(text, res, why, why_len, &info) ==
			    CSV_RESULT)
				return CSV_IN_RESULT;
			k = csv_read_line(lg.text, res, why, why_len, &info);
		}
		/* a page whose line breaks were lost: the CSV line in the run */
		if (!lg.bad && (k == CSV_BAD || (k == CSV_NOT_RESULT &&
		    info.fields >= 27)) && runon_table(lg.text)) {
			if (html_runon_csv(lg.text, ci->join, sizeof(ci->join)) &&
			    csv_read_line(ci->join, res, why, why_len, &info) ==
			    CSV_RESULT)
				return CSV_IN_RESULT;
			if (k == CSV_BAD) {
				snprintf(why, why_len, "%zu fields and a bonnie++ "
				    "table on one line (its line breaks lost?): "
				    "no CSV line in it reads", info.fields);
				return CSV_IN_BAD;
			}
		}
		if (!lg.bad && (k == CSV_NOT_RESULT || k == CSV_HEADER) &&
		    table_read_line(&ci->table, text, lg.lineno) > 0)
			return table_ended(ci, ci->side);
		/* a long line may be anything: named, never skipped */
		if (lg.bad) {
			if (!lg.cut && (k == CSV_NOT_RESULT || k == CSV_HEADER))
				continue;
			snprintf(why, why_len, lg.cut ? "longer than %d bytes" :
			    "a NUL byte in the line", CSV_LINE_MAX - 1);
			return CSV_IN_BAD;
		}
		switch (k) {
		case CSV_NOT_RESULT:
		case CSV_HEADER:
			continue;
		case CSV_RESULT:
			/*
			 * A whole line is never joined with the next (an exit
			 * status appended to a results file would be glued to
			 * the last field), unless a hard break says it goes on.
			 */
			if (!lg.hard_break)
				return CSV_IN_RESULT;
			if (join_pieces(ci, &lg, &info, true, res, why,
			    why_len) != CSV_RESULT)
				csv_read_line(lg.text, res, why, why_len, &info);
			return CSV_IN_RESULT;
		case CSV_BAD:
			if (info.fields > info.expected || (info.fields ==
			    info.expected && (lg.len < WRAP_MIN ||
			    lg.len > WRAP_MAX)))
				return CSV_IN_BAD;
			/* FALLTHROUGH */
		case CSV_PARTIAL:
			return join_pieces(ci, &lg, &info,
			    info.fields == info.expected, res, why,
			    why_len) == CSV_RESULT ? CSV_IN_RESULT : CSV_IN_BAD;
		}
	}
}

/*
 * Drop the table's row that repeats the CSV result csv: the first of its
 * chunk size, else the first at all (2.00a's line leaves the chunk
 * empty).  One row a line: the rows of a --chunks run alike in every
 * cell (all +++++) are each a line's.
 */
static void drop_repeat(struct table_read *t, const struct result *csv)
{
	size_t i, hit = t->ndone;

	for (i = 0; i < t->ndone; i++) {
		if (t->done[i].diff_side != csv->diff_side ||
		    !table_same_run(&t->done[i], csv))
			continue;
		if (hit == t->ndone)
			hit = i;
		if (t->done[i].chunk == csv->chunk) {
			hit = i;
			break;
		}
	}
	if (hit == t->ndone)
		return;
	for (i = hit; i + 1 < t->ndone; i++) {
		t->done[i] = t->done[i + 1];
		t->done_line[i] = t->done_line[i + 1];
		t->done_bare[i] = t->done_bare[i + 1];
	}
	t->ndone--;
}

/*
 * The CSV lines right after the one that ended a table, while the table
 * has rows left: a --chunks run prints its rows, then a line per row.
 * Each is queued in follow[] and drops its row; the first line that is
 * no whole CSV result is given back, for the usual reading.
 */
static void take_following(struct csv_input *ci)
{
	struct table_read *t = &ci->table;
	struct csv_line_info info;
	struct logical lg;
	char why[CSV_WHY_MAX];

	ci->nfollow = ci->follow_next = 0;
	while (t->ndone > 0 && ci->nfollow < TABLE_ROWS_MAX &&
	    read_logical(ci, ci->next, &lg)) {
		struct result *r = &ci->follow[ci->nfollow];

		if (lg.bad || lg.hard_break || lg.side != ci->side ||
		    csv_read_line(lg.text, r, why, sizeof(why), &info) !=
		    CSV_RESULT) {
			give_back(ci, &lg);
			return;
		}
		r->diff_side = lg.side;
		drop_repeat(t, r);
		ci->follow_line[ci->nfollow++] = lg.lineno;
	}
}

/* Keep res among the last CSV results, which a table may repeat next. */
static void keep_last(struct csv_input *ci, const struct result *res,
    unsigned long lineno)
{
	size_t i;

	if (ci->nlast > 0 && lineno - ci->last_line > NEAR_LINES)
		ci->nlast = 0;
	if (ci->nlast == TABLE_ROWS_MAX) {
		for (i = 1; i < ci->nlast; i++)
			ci->last[i - 1] = ci->last[i];
		ci->nlast--;
	}
	ci->last[ci->nlast++] = *res;
	ci->last_line = lineno;
}

enum csv_input_status csv_input_next(struct csv_input *ci, struct result *res,
    unsigned long *lineno, char *why, size_t why_len)
{
	struct table_read *t = &ci->table;
	size_t i;
	int st;

	for (;;) {
		if (ci->table_next < t->ndone) {
			bool bare = t->done_bare[ci->table_next];

			*res = t->done[ci->table_next];
			*lineno = t->done_line[ci->table_next++];
			if (!bare)
				return CSV_IN_RESULT;
			snprintf(why, why_len, "table row: bonnie++'s figures "
			    "without a header line of its table, which would "
			    "say the version: not read");
			return CSV_IN_BAD;
		}
		if (ci->table_bad_next < t->nbad) {
			*lineno = t->bad_line[ci->table_bad_next];
			snprintf(why, why_len, "%s",
			    t->bad_why[ci->table_bad_next++]);
			return CSV_IN_BAD;
		}
		if (ci->have_held) {
			ci->have_held = false;
			*res = ci->held;
			*lineno = ci->held_line;
			snprintf(why, why_len, "%s", ci->held_why);
			return ci->held_status;
		}
		if (ci->follow_next < ci->nfollow) {
			*res = ci->follow[ci->follow_next];
			*lineno = ci->follow_line[ci->follow_next++];
			return CSV_IN_RESULT;
		}
		t->ndone = t->nbad = ci->table_next = ci->table_bad_next = 0;
		ci->nfollow = ci->follow_next = 0;
		st = next_line_result(ci, res, lineno, why, why_len);
		if (st == CSV_IN_RESULT)
			res->diff_side = ci->side;
		if (st == IN_TABLE) {
			/* the CSV lines came first (bonnie++ -q puts the table
			 * on stderr) */
			if (ci->nlast > 0 && t->done_first > ci->last_line &&
			    t->done_first - ci->last_line <= NEAR_LINES)
				for (i = 0; i < ci->nlast; i++)
					drop_repeat(t, &ci->last[i]);
			continue;
		}
		if (st != CSV_IN_RESULT && st != CSV_IN_BAD)
			return (enum csv_input_status)st;
		/* a CSV line ends the table before it, and wins over it */
		if (table_read_end(t) > 0) {
			table_ended(ci, ci->side);
			if (st == CSV_IN_RESULT) {
				drop_repeat(t, res);
				take_following(ci);
			}
			if (t->ndone + t->nbad > 0) {
				ci->have_held = true;
				ci->held_status = (enum csv_input_status)st;
				ci->held = *res;
				ci->held_line = *lineno;
				snprintf(ci->held_why, sizeof(ci->held_why), "%s",
				    why);
			}
		}
		if (st == CSV_IN_RESULT) {
			keep_last(ci, res, *lineno);
			for (i = 0; i < ci->nfollow; i++)
				keep_last(ci, &ci->follow[i], ci->follow_line[i]);
		}
		if (!ci->have_held)
			return (enum csv_input_status)st;
	}
}

/* Whether a line read says anything: a phase that ran, or may have */
static bool has_figures(const struct result *res)
{
	if (res->has_io || res->has_files)
		return true;
	for (size_t i = 0; i < PH_COUNT; i++)
		if (res->cell[i].status != CELL_SKIPPED)
			return true;
	return false;
}

/* Any input: one without a result in it ends in READER_NONE */
static bool sniff(const char *head, size_t len)
{
	(void)head;
	(void)len;
	return true;
}

_Static_assert(sizeof(((struct csv_input *)NULL)->io) >= READER_HEAD_MAX,
    "the stream's buffer holds the start that the readers looked at");

/*
 * The results of an input waiting to be handed out, in their order: a
 * post may show a run as a table and, further on, as its CSV line (or
 * the other way round), which is one result, the CSV line's.  One CSV
 * result stands for one table result at most, on its side of a diff.
 */
#define POST_WAIT 32

struct post_wait {
	struct result res[POST_WAIT];
	unsigned long line[POST_WAIT];
	bool stands_for[POST_WAIT];     /* a CSV result: a table's dropped */
	size_t first, n;                /* a ring: the oldest, how many */
};

static size_t wait_at(const struct post_wait *w, size_t i)
{
	return (w->first + i) % POST_WAIT;
}

static bool same_post_run(const struct result *table, const struct result *csv)
{
	return table->from_table && !csv->from_table &&
	    table->diff_side == csv->diff_side && table_same_run(table, csv);
}

/* The oldest waiting result to the sink */
static void hand_oldest(struct post_wait *w, const struct reader_sink *sink)
{
	sink->take(sink->ctx, &w->res[w->first], w->line[w->first]);
	w->first = wait_at(w, 1);
	w->n--;
}

/* The i-th waiting result is dropped: the later ones move up. */
static void drop_waiting(struct post_wait *w, size_t i)
{
	for (; i + 1 < w->n; i++) {
		size_t to = wait_at(w, i), from = wait_at(w, i + 1);

		w->res[to] = w->res[from];
		w->line[to] = w->line[from];
		w->stands_for[to] = w->stands_for[from];
	}
	w->n--;
}

/*
 * res waits, unless a waiting CSV result of its run stands for it; a
 * CSV result drops a waiting table result of its run.
 */
static void post_wait_add(struct post_wait *w, const struct result *res,
    unsigned long line, const struct reader_sink *sink)
{
	bool stands = false;
	size_t i, at;

	for (i = 0; i < w->n; i++) {
		at = wait_at(w, i);
		if (res->from_table && !w->stands_for[at] &&
		    same_post_run(res, &w->res[at])) {
			w->stands_for[at] = true;
			return;
		}
		if (!res->from_table && same_post_run(&w->res[at], res)) {
			drop_waiting(w, i);
			stands = true;
			break;
		}
	}
	if (w->n == POST_WAIT)
		hand_oldest(w, sink);
	at = wait_at(w, w->n++);
	w->res[at] = *res;
	w->line[at] = line;
	w->stands_for[at] = stands;
}

/*
 * Every result of the input, head[len] first (read from in as the first
 * fill() would have read it), the rest from in.  A result that the sink
 * does not keep is its to say; the lines after it are read all the same,
 * for the bad ones to be said.
 */
static enum reader_status read_all(FILE *in, const char *head, size_t len,
    const struct reader_sink *sink)
{
	static struct csv_input ci;
	static struct post_wait wait;
	char why[CSV_WHY_MAX];
	unsigned long line;
	struct result res;
	bool ok = true, any = false;

	csv_input_init(&ci, in);
	memcpy(ci.io, head, len);
	ci.io_len = len;
	ci.eof = len == 0;
	wait.first = wait.n = 0;
	for (;;) {
		switch (csv_input_next(&ci, &res, &line, why, sizeof(why))) {
		case CSV_IN_END:
			while (wait.n > 0)
				hand_oldest(&wait, sink);
			return !ok ? READER_BAD : any ? READER_OK : READER_NONE;
		case CSV_IN_ERROR:
			while (wait.n > 0)
				hand_oldest(&wait, sink);
			return READER_ERROR;
		case CSV_IN_BAD:
			sink->say(sink->ctx, line, why);
			ok = false;
			break;
		case CSV_IN_RESULT:
			if (!has_figures(&res)) {
				sink->say(sink->ctx, line, "a line without "
				    "figures (-s 0 -n 0: a run of --dirs "
				    "alone, whose figures are in its --json "
				    "record only); passed over");
				break;
			}
			any = true;
			post_wait_add(&wait, &res, line, sink);
			break;
		}
	}
}

const struct reader reader_stream = { "stream", sniff, read_all };
