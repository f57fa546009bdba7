/*
 * unit_tables: bonnie++'s text tables read back into the record of their
 * own CSV line.
 *
 * Every file of tests/fixtures/tables (tests/fixtures/tables/INDEX.md) is
 * one real run: its table, then its CSV line.  The table alone must read
 * into the record the CSV line gives, but for what a table cannot hold:
 * the seed and the seeker count, the name cut to the label's width,
 * 2.00a's rounded k/m/g rates (each within the precision it carries) and
 * its garbage file rates (read as unknown, %CPU kept).  Then the same
 * tables mangled as people paste them, each built here from the file:
 * quoted, indented, marked up, fenced, wrapped by a mail client, several
 * in one post, and next to their CSV line (one result, not two).
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "in/stream.h"
#include "tap.h"

#define DIR_TABLES "tests/fixtures/tables"
#define TEXT_MAX 65536
#define RESULTS_MAX 48

static char test_name[256];
/* ok() with a formatted name */
#define okf(cond, ...) (snprintf(test_name, sizeof(test_name), __VA_ARGS__), \
	ok((cond), test_name))

struct read {
	int n, bad;
	struct result r[RESULTS_MAX];
	char why[CSV_WHY_MAX + 32];
};

static void read_all(const char *text, struct read *out)
{
	static struct csv_input ci;
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char why[CSV_WHY_MAX];
	unsigned long line;
	struct result res;
	enum csv_input_status st;

	out->n = out->bad = 0;
	out->why[0] = '\0';
	if (f == NULL)
		return;
	csv_input_init(&ci, f);
	while ((st = csv_input_next(&ci, &res, &line, why, sizeof(why))) !=
	    CSV_IN_END && st != CSV_IN_ERROR) {
		if (st == CSV_IN_BAD) {
			out->bad++;
			snprintf(out->why, sizeof(out->why), "%lu: %s", line, why);
		} else if (out->n < RESULTS_MAX) {
			out->r[out->n++] = res;
		}
	}
	fclose(f);
}

/* Why a table's record is not its CSV line's, or NULL. */
static const char *differs(const struct result *t, const struct result *c)
{
	int ph;

	if (!t->from_table || c->from_table)
		return "source";
	if (strncmp(t->name, c->name, strlen(t->name)) != 0 || t->name[0] == '\0')
		return "name";
	if (strcmp(t->generation, c->generation) != 0 ||
	    strcmp(t->format_version, c->format_version) != 0)
		return "generation";
	/* a 1.0x CSV line has no version; its table's Version line has */
	if (strcmp(c->generation, "1.0x") == 0 ?
	    strncmp(t->bonnie_version, "1.0", 3) != 0 :
	    strcmp(t->bonnie_version, c->bonnie_version) != 0)
		return "version";
	if (t->concurrency != c->concurrency)
		return "concurrency";
	if (t->seed[0] != '\0')
		return "seed";
	/* 2.00a's CSV line leaves out the chunk its table shows */
	if (t->has_io != c->has_io || (c->has_io &&
	    (t->file_size_mib != c->file_size_mib || t->seeks != c->seeks ||
	    (t->chunk != c->chunk && strcmp(c->generation, "1.98") != 0))))
		return "file size, chunk or seeks";
	if (t->has_files != c->has_files || (c->has_files &&
	    memcmp(&t->files, &c->files, sizeof(t->files)) != 0))
		return "file test";
	for (ph = 0; ph < PH_COUNT; ph++) {
		const struct cell *a = &t->cell[ph], *b = &c->cell[ph];

		if (a->latency_us != b->latency_us)
			return phase_csv_name[ph];
		if (a->status == CELL_UNKNOWN && b->status == CELL_OK &&
		    a->cpu == b->cpu)
			continue;
		/* a table of one section cannot tell -s 0 or -n 0 */
		if (a->status == CELL_ABSENT && b->status == CELL_SKIPPED)
			continue;
		if (a->status != b->status)
			return phase_csv_name[ph];
		if (a->status != CELL_OK)
			continue;
		/* 1.0x: seeks of 1000 and more are whole in the table only */
		if (a->cpu != b->cpu || fabs(a->rate - b->rate) >
		    a->rate_precision + (ph == PH_SEEKS ? 0.5 : 0))
			return phase_csv_name[ph];
	}
	return NULL;
}

/* The lines of text that are (csv) or are not (!csv) CSV lines. */
static void split_text(const char *text, bool csv, char *out, size_t cap)
{
	const char *p = text;
	size_t o = 0;

	while (*p != '\0') {
		size_t len = strcspn(p, "\n");
		bool is_csv = memchr(p, ',', len) != NULL;
		bool note = strncmp(p, "###", 3) == 0 || strncmp(p, "rc=", 3) == 0;

		if (!note && is_csv == csv && o + len + 2 < cap) {
			memcpy(out + o, p, len);
			o += len;
			out[o++] = '\n';
		}
		p += len + (p[len] == '\n');
	}
	out[o] = '\0';
}

/* Every line of text between before and after ("> ", "    "...). */
static void each_line(const char *text, const char *before,
    const char *after, char *out, size_t cap)
{
	const char *p = text;
	size_t o = 0;

	while (*p != '\0' && o < cap) {
		int len = (int)strcspn(p, "\n");
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", len, p);
		o += (size_t)snprintf(out + o, cap - o, "%s%s%s", before, line,
		    after);
		if (o < cap)
			out[o++] = '\n';
		p += len + (p[len] == '\n');
	}
	out[o < cap ? o : cap - 1] = '\0';
}

/* A mail client's wrap: lines longer than width broken at a blank. */
static void wrap(const char *text, size_t width, char *out, size_t cap)
{
	const char *p = text;
	size_t o = 0;

	while (*p != '\0' && o + 2 < cap) {
		size_t len = strcspn(p, "\n"), cut = len;

		if (len > width) {
			cut = width;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = width;
		}
		if (o + cut + 2 >= cap)
			break;
		memcpy(out + o, p, cut);
		o += cut;
		out[o++] = '\n';
		p += cut;
		if (cut < len) {
			while (*p == ' ')
				p++;
			continue;
		}
		p += *p == '\n';
	}
	out[o] = '\0';
}

/* Every figure of the data rows between before and after: "**5479**" */
static void mark_figures(const char *text, const char *before,
    const char *after, char *out, size_t cap)
{
	const char *p = text;
	size_t o = 0;

	while (*p != '\0' && o + 32 < cap) {
		bool start = p == text || p[-1] == ' ';
		size_t n = strspn(p, "0123456789.kmg+");

		if (start && n > 0 && (p[n] == ' ' || p[n] == '\n') &&
		    *p >= '0' && *p <= '9') {
			o += (size_t)snprintf(out + o, cap - o, "%s%.*s%s", before,
			    (int)n, p, after);
			p += n;
			continue;
		}
		out[o++] = *p++;
	}
	out[o] = '\0';
}

/*
 * The table as posts cut and split it: without its lines of column heads
 * (heads), or with text before the file section (split: the I/O rows and
 * the file rows two tables, as a forum post splits them).
 */
static void cut_or_split(const char *text, bool heads, char *out, size_t cap)
{
	const char *p = text;
	size_t o = 0;

	while (*p != '\0' && o + 64 < cap) {
		size_t len = strcspn(p, "\n"), blanks = strspn(p, " ");
		char line[1024];
		bool head, file_title;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		head = strncmp(line, "Machine ", 8) == 0 ||
		    strncmp(line, "Name:Size", 9) == 0 ||
		    strncmp(line + blanks, "files", 5) == 0;
		file_title = strstr(line, "Sequential Create") != NULL;

		if (!heads && file_title)
			o += (size_t)snprintf(out + o, cap - o,
			    "\nand the small files:\n\n");
		if (!(heads && head) && o + len + 2 < cap) {
			memcpy(out + o, p, len);
			o += len;
			out[o++] = '\n';
		}
		p += len + (p[len] == '\n');
	}
	out[o] = '\0';
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = malloc(TEXT_MAX);
	size_t n;

	if (f == NULL || buf == NULL) {
		if (f != NULL)
			fclose(f);
		free(buf);
		return NULL;
	}
	n = fread(buf, 1, TEXT_MAX - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

struct file_case {
	char name[256];
	char *text;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct file_case *)a)->name,
	    ((const struct file_case *)b)->name);
}

/* Does every table-only variant read into the CSV line's records? */
static bool same_records(const char *variant, const struct read *want,
    const char *file, const char *what)
{
	static struct read got;
	const char *why = NULL;
	int i;

	read_all(variant, &got);
	if (got.n != want->n || got.bad != 0) {
		printf("# %s, %s: %d results (want %d), %d bad %s\n", file, what,
		    got.n, want->n, got.bad, got.why);
		return false;
	}
	for (i = 0; i < got.n && why == NULL; i++)
		why = differs(&got.r[i], &want->r[i]);
	if (why != NULL)
		printf("# %s, %s: %s differs\n", file, what, why);
	return why == NULL;
}

int main(void)
{
	static char table[TEXT_MAX], csv[TEXT_MAX], v[4 * TEXT_MAX],
	    post[4 * TEXT_MAX], w[TEXT_MAX];
	static struct read want, got, post_recs;
	struct file_case files[64];
	size_t nfiles = 0, i, post_len = 0;
	int tables = 0, post_want = 0;
	struct dirent *e;
	DIR *d = opendir(DIR_TABLES);

	if (!ok(d != NULL, DIR_TABLES " opens"))
		return tap_done();
	while ((e = readdir(d)) != NULL && nfiles < 64) {
		char path[512];
		size_t len = strlen(e->d_name);

		if (len < 5 || strcmp(e->d_name + len - 4, ".txt") != 0)
			continue;
		snprintf(path, sizeof(path), DIR_TABLES "/%s", e->d_name);
		snprintf(files[nfiles].name, sizeof(files[nfiles].name), "%s",
		    e->d_name);
		files[nfiles].text = slurp(path);
		if (files[nfiles].text != NULL)
			nfiles++;
	}
	closedir(d);
	qsort(files, nfiles, sizeof(files[0]), by_name);
	is_int(nfiles, 47, "47 runs of bonnie++ 1.03e, 1.93c, 1.96, 1.97.3, "
	    "2.00a");
	for (i = 0; i < nfiles; i++) {
		const char *f = files[i].name;
		bool good;

		split_text(files[i].text, false, table, sizeof(table));
		split_text(files[i].text, true, csv, sizeof(csv));
		read_all(csv, &want);
		read_all(table, &got);
		if (strstr(f, "multi") != NULL) {
			/* -x 2: CSV lines only, no table */
			okf(got.n == 0 && want.n == 2, "%.60s: no table", f);
			continue;
		}
		tables++;
		good = same_records(table, &want, f, "the table alone");
		ok(good, f);
		/* as pasted */
		each_line(table, "> > ", "", v, sizeof(v));
		good = same_records(v, &want, f, "quoted twice");
		each_line(table, "\t    ", "   ", v, sizeof(v));
		good = same_records(v, &want, f, "indented, trailing blanks") &&
		    good;
		snprintf(v, sizeof(v), "Here it is:\n\n```\n%s```\n", table);
		good = same_records(v, &want, f, "a Markdown code fence") && good;
		mark_figures(table, "**", "**", v, sizeof(v));
		good = same_records(v, &want, f, "bold figures") && good;
		mark_figures(table, "[b]", "[/b]", v, sizeof(v));
		good = same_records(v, &want, f, "BBCode figures") && good;
		wrap(table, 72, w, sizeof(w));
		each_line(w, "> ", "", v, sizeof(v));
		good = same_records(v, &want, f, "wrapped at 72, quoted") && good;
		okf(good, "%.60s: quoted, indented, fenced, marked up, wrapped", f);
		/* as posts cut and split it */
		cut_or_split(table, true, w, sizeof(w));
		each_line(w, "> > ", "", v, sizeof(v));
		good = same_records(v, &want, f, "no column heads, quoted twice");
		cut_or_split(table, false, v, sizeof(v));
		good = same_records(v, &want, f, "split in two") && good;
		okf(good, "%.60s: without its column heads; split in two", f);
		/* next to its CSV line, either side: one result */
		snprintf(v, sizeof(v), "%s%s", table, csv);
		read_all(v, &got);
		good = got.n == want.n && got.bad == 0 && !got.r[0].from_table;
		snprintf(v, sizeof(v), "%s\n%s", csv, table);
		read_all(v, &got);
		okf(good && got.n == want.n && got.bad == 0 &&
		    !got.r[0].from_table, "%.60s: with its CSV line, one result", f);
		if (post_len + strlen(table) + 64 < sizeof(post)) {
			post_len += (size_t)snprintf(post + post_len,
			    sizeof(post) - post_len, "Run %d:\n\n%s\n", tables,
			    table);
			memcpy(&post_recs.r[post_want], want.r, sizeof(want.r[0]) *
			    (size_t)want.n);
			post_want += want.n;
		}
	}
	read_all(post, &got);
	post_recs.n = post_want;
	post_recs.bad = 0;
	okf(same_records(post, &post_recs, "all", "in one post"),
	    "%d tables in one post, %d results, each its own", tables,
	    post_want);
	for (i = 0; i < nfiles; i++)
		free(files[i].text);
	return tap_done();
}
