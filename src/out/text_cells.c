/*
 * out/text_cells.c: the cells and labels of bonnie++'s text table that
 * the other tables write the same way: the Markdown and HTML tables, the
 * sweep grids, the latency tables and the JSON's "unlike" (out/text.c
 * prints the table itself).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "out/text_cells.h"
#include "report/set.h"
#include "lib/units.h"

void report_text_rate(char *out, size_t n, double rate, enum phase_id ph,
    bool units)
{
	char kept[64];

	if (ph == PH_SEEKS) {
		/* the figure its CSV line keeps, so that the two tables match */
		fmt_seeks(kept, sizeof(kept), rate, !units);
		rate = strtod(kept, NULL);
		snprintf(out, n, rate < 1000.0 ? "%.1f" : "%.0f", rate);
	} else if (units)
		fmt_kib_rate(out, n, rate);
	else if (rate < 2147483647.0)
		snprintf(out, n, "%d", (int)rate);      /* bonnie++ truncates */
	else
		snprintf(out, n, "%.0f", floor(rate));
}

/*
 * 1.03's size label ("64M:4k"), or 2.00's: size:chunk:concurrency:seeks:
 * seekers, defaults left empty, trailing colons dropped.  2.00a lost the
 * seeker count; it is kept here (clyde(1), COMPATIBILITY).
 */
void report_text_size_label(char *out, size_t n, enum compat compat,
    const struct result *res, bool sweep)
{
	char part[5][32] = { "", "", "", "", "" };
	bool default_chunk = res->chunk == 0 || res->chunk == DEFAULT_CHUNK;
	int i, last = 0;

	if (compat == COMPAT_103) {
		size_t len;

		fmt_size_103(out, n, res);
		len = strlen(out);
		if (sweep && default_chunk && len < n)
			snprintf(out + len, n - len, ":%uk", DEFAULT_CHUNK / 1024);
		return;
	}
	fmt_file_size(part[0], sizeof(part[0]), res->file_size_mib);
	if (!default_chunk || sweep)
		fmt_chunk(part[1], sizeof(part[1]), default_chunk ?
		    DEFAULT_CHUNK : res->chunk);
	if (res->concurrency > 1)
		snprintf(part[2], sizeof(part[2]), "%d", res->concurrency);
	if (res->seeks != 0 && res->seeks != SEEKS_200)
		snprintf(part[3], sizeof(part[3]), "%u", res->seeks);
	if (res->seekers != 0 && res->seekers != SEEKERS_200)
		snprintf(part[4], sizeof(part[4]), "%u", res->seekers);
	for (i = 0; i < 5; i++)
		if (part[i][0] != '\0')
			last = i;
	snprintf(out, n, "%s", part[0]);
	for (i = 1; i <= last; i++) {
		size_t len = strlen(out);

		snprintf(out + len, n - len, ":%s", part[i]);
	}
}

void report_text_dirs_label(char *out, size_t n, const struct result *res)
{
	int len = snprintf(out, n, "%u:%u:%u", res->dirs.count_k,
	    res->dirs.depth, res->dirs.fanout);

	if (res->concurrency > 1 && len >= 0 && (size_t)len < n)
		snprintf(out + len, n - (size_t)len, ":%d", res->concurrency);
}

size_t report_text_json_records(const struct report_set *set,
    struct result *scratch)
{
	size_t i, n = 0;

	for (i = 0; i < set->n; i++) {
		report_set_get(set, i, scratch);
		n += scratch->from_json;
	}
	return n;
}

size_t report_text_generations(char *out, size_t n,
    const struct report_set *set, struct result *scratch)
{
	char seen[512] = "|";
	size_t i, o = 0, kinds = 0;

	for (i = 0; i < set->n; i++) {
		char gen[24];
		size_t len = strlen(seen);

		report_set_get(set, i, scratch);
		if (scratch->from_json)
			continue;
		snprintf(gen, sizeof(gen), "|%s|", scratch->generation);
		if (strstr(seen, gen) != NULL || len + strlen(gen) >= sizeof(seen))
			continue;
		snprintf(seen + len, sizeof(seen) - len, "%s|",
		    scratch->generation);
		kinds++;
	}
	/* "|1.0x|1.98|" -> "1.0x, 1.98" */
	for (i = 1; seen[i] != '\0' && o + 3 < n; i++) {
		if (seen[i] != '|')
			out[o++] = seen[i];
		else if (seen[i + 1] != '\0') {
			out[o++] = ',';
			out[o++] = ' ';
		}
	}
	if (n > 0)
		out[o < n ? o : n - 1] = '\0';
	return kinds;
}

void report_text_verdict(char *cell, char *interval, size_t n,
    const struct report_set *set, const struct result *res,
    const struct report_verdict *v, enum phase_id ph, bool latency)
{
	long p;

	cell[0] = interval[0] = '\0';
	switch (v->kind) {
	case VERDICT_NONE:
		break;
	case VERDICT_TOO_FEW:
		if (latency ? report_set_latency_percent(set, res, ph, &p) :
		    report_set_percent(set, res, ph, &p))
			report_set_percent_text(cell, n, p);
		break;
	case VERDICT_SAME:
		snprintf(cell, n, "~");
		break;
	case VERDICT_BETTER:
	case VERDICT_WORSE:
		snprintf(cell, n, "%+.0f%%", v->percent);
		snprintf(interval, n, "%+.0f..%+.0f", v->ci_low, v->ci_high);
		break;
	}
}

static int runs_text(char *out, size_t n, unsigned runs)
{
	return runs > 999 ? snprintf(out, n, "1k+") :
	    snprintf(out, n, "%u", runs);
}

void report_text_runs_needed(char *cell, size_t n,
    const struct report_verdict *v)
{
	size_t used = 0;
	int k;

	cell[0] = '\0';
	if (v->runs_needed[0] == 0)
		return;
	for (k = 0; k < REPORT_POWER_CHANGES && used + 1 < n; k++) {
		if (k > 0)
			cell[used++] = '/';
		used += (size_t)runs_text(cell + used, n - used,
		    v->runs_needed[k]);
	}
}

bool report_text_any_runs_needed(const struct report_verdict *v, int first)
{
	int i;

	for (i = first; i < first + 6; i++)
		if (v[i].runs_needed[0] > 0)
			return true;
	return false;
}

void report_text_short_of_runs(char *buf, size_t n,
    const struct report_verdict *v, int first)
{
	size_t used = 0;
	int i, k = 1;   /* report_power_change[1]: 5 % */

	buf[0] = '\0';
	for (i = first; i < first + 6 && used + 1 < n; i++) {
		char runs[16];

		if (v[i].runs_needed[k] == 0 || v[i].runs >= v[i].runs_needed[k])
			continue;
		runs_text(runs, sizeof(runs), v[i].runs_needed[k]);
		used += (size_t)snprintf(buf + used, n - used, "%s%s %s a set",
		    used == 0 ? "too few runs to see a 5 % change: " : ", ",
		    phase_csv_name[i], runs);
	}
	if (used >= n && n > 0)
		buf[n - 1] = '\0';
}

bool report_text_any_verdict(const struct report_verdict *v, int first)
{
	int i;

	for (i = first; v != NULL && i < first + 6; i++)
		if (v[i].kind != VERDICT_NONE)
			return true;
	return false;
}

/* appends ", WHAT A vs B" (no comma first) to out */
static void add_unlike(char *out, size_t n, const char *what, const char *a,
    const char *b)
{
	size_t len = strlen(out);

	if (len < n)
		snprintf(out + len, n - len, "%s%s %s vs %s", len ? ", " : "",
		    what, a, b);
}

void report_text_unlike(char *out, size_t n, const struct report_set *set,
    long g)
{
	struct result base, mean;
	char a[64], b[64];
	size_t base_first = 0;
	unsigned u;

	memset(&base, 0, sizeof(base));
	memset(&mean, 0, sizeof(mean));
	out[0] = '\0';
	u = report_set_unlike(set, g, &base, &base_first);
	if (u == 0)
		return;
	report_set_group_mean(set, (size_t)g, &mean);
	if (u & REPORT_UNLIKE_PROFILE)
		add_unlike(out, n, "profile",
		    report_set_stdio_per_char(&mean) ? "1.03" : "2.00",
		    report_set_stdio_per_char(&base) ? "1.03" : "2.00");
	if (u & REPORT_UNLIKE_FILE_SIZE) {
		fmt_file_size(a, sizeof(a), mean.file_size_mib);
		fmt_file_size(b, sizeof(b), base.file_size_mib);
		add_unlike(out, n, "file size", a, b);
	}
	if (u & REPORT_UNLIKE_CHUNK) {
		fmt_chunk(a, sizeof(a), mean.chunk ? mean.chunk : DEFAULT_CHUNK);
		fmt_chunk(b, sizeof(b), base.chunk ? base.chunk : DEFAULT_CHUNK);
		add_unlike(out, n, "chunk", a, b);
	}
	if (u & REPORT_UNLIKE_CONCURRENCY) {
		snprintf(a, sizeof(a), "%d", mean.concurrency);
		snprintf(b, sizeof(b), "%d", base.concurrency);
		add_unlike(out, n, "-c", a, b);
	}
	if (u & REPORT_UNLIKE_SEEKS) {
		snprintf(a, sizeof(a), "%u:%u", mean.seeks, mean.seekers);
		snprintf(b, sizeof(b), "%u:%u", base.seeks, base.seekers);
		add_unlike(out, n, "seeks:seekers", a, b);
	}
	if (u & REPORT_UNLIKE_FILES) {
		fmt_files_spec(a, sizeof(a), &mean.files);
		fmt_files_spec(b, sizeof(b), &base.files);
		add_unlike(out, n, "files", a, b);
	}
	if ((u & (REPORT_UNLIKE_FSTYPE | REPORT_UNLIKE_MOUNT |
	    REPORT_UNLIKE_SYNC | REPORT_UNLIKE_DIRECT)) == 0)
		return;
	/* what the first runs' records say (report_set_unlike()) */
	report_set_get(set, report_set_group_first(set, (size_t)g), &mean);
	report_set_get(set, base_first, &base);
	if (u & REPORT_UNLIKE_FSTYPE)
		add_unlike(out, n, "filesystem", mean.run.fstype, base.run.fstype);
	if (u & REPORT_UNLIKE_MOUNT)
		add_unlike(out, n, "mount options", mean.run.mount_options,
		    base.run.mount_options);
	if (u & REPORT_UNLIKE_SYNC)
		add_unlike(out, n, "-b", mean.run.sync_writes ? "yes" : "no",
		    base.run.sync_writes ? "yes" : "no");
	if (u & REPORT_UNLIKE_DIRECT)
		add_unlike(out, n, "-D", mean.run.direct_io ? "yes" : "no",
		    base.run.direct_io ? "yes" : "no");
}

unsigned report_text_too_few(const struct report_verdict *v, int first)
{
	int i;

	for (i = first; i < first + 6; i++)
		if (v[i].kind == VERDICT_TOO_FEW)
			return v[i].runs;
	return 0;
}

void report_text_too_fast(char *buf, size_t n, const struct report_set *set,
    size_t g, int first)
{
	const struct report_spread *sp = report_set_group_spread(set, g);
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = first; i < first + 6 && used + 1 < n; i++) {
		if (sp[i].runs == 0 || sp[i].too_fast == 0)
			continue;
		used += (size_t)snprintf(buf + used, n - used,
		    "%s%s %u of %u runs measured, %u too fast (+++++)",
		    used == 0 ? "" : "; ", phase_csv_name[i], sp[i].runs,
		    sp[i].runs + sp[i].too_fast, sp[i].too_fast);
	}
	if (used >= n && n > 0)
		buf[n - 1] = '\0';
}

void report_text_stopped(char *buf, size_t n, const struct report_set *set,
    size_t g, int first)
{
	const struct report_spread *sp = report_set_group_spread(set, g);
	unsigned stopped = 0;
	int i;

	for (i = first; i < first + 6; i++)
		stopped += sp[i].stopped;
	buf[0] = '\0';
	if (stopped > 0)
		snprintf(buf, n, "%u stopped phase%s left out", stopped,
		    stopped == 1 ? "" : "s");
}

/* "box: a sweep of 3 file sizes, 1M to 16M, by 2 chunk sizes, 4k to 64k" */
static int sizes_heading(char *out, size_t n, const struct report_sweep *sw,
    const char *name)
{
	unsigned *chunks = malloc(sw->nchunks * sizeof(*chunks));
	size_t nchunks = chunks != NULL ?
	    report_set_sweep_chunks(sw, chunks) : 0;
	char lo[32], hi[32], clo[32] = "", chi[32] = "";
	int len;

	fmt_file_size(lo, sizeof(lo), sw->sizes[0]);
	fmt_file_size(hi, sizeof(hi), sw->sizes[sw->nchunks - 1]);
	if (nchunks > 0) {
		fmt_chunk(clo, sizeof(clo), chunks[0]);
		fmt_chunk(chi, sizeof(chi), chunks[nchunks - 1]);
	}
	if (nchunks > 1)
		len = snprintf(out, n, "%s: a sweep of %zu file sizes, %s to %s, "
		    "by %zu chunk sizes, %s to %s", name, sw->nsizes, lo, hi,
		    nchunks, clo, chi);
	else
		len = snprintf(out, n, "%s: a sweep of %zu file sizes, %s to %s, "
		    "chunk size %s", name, sw->nsizes, lo, hi, clo);
	free(chunks);
	return len;
}

void report_text_sweep_heading(char *out, size_t n,
    const struct report_set *set, size_t s)
{
	const struct report_sweep *sw = &set->sweeps[s];
	struct result first;
	char size[32], lo[32], hi[32];
	int len;

	memset(&first, 0, sizeof(first));
	report_set_get(set, sw->first, &first);
	fmt_file_size(size, sizeof(size), first.file_size_mib);
	fmt_chunk(lo, sizeof(lo), sw->chunks[0]);
	fmt_chunk(hi, sizeof(hi), sw->chunks[sw->nchunks - 1]);
	if (sw->nsizes > 1)
		len = sizes_heading(out, n, sw, first.name);
	else
		len = snprintf(out, n, "%s %s: a sweep of %zu chunk sizes, %s "
		    "to %s", first.name, size, sw->nchunks, lo, hi);
	if (sw->nseries > 1 && len >= 0 && (size_t)len < n)
		snprintf(out + len, n - (size_t)len, ", %zu runs", sw->nseries);
}

void report_text_best_cell(char *cell, size_t n, const struct report_best *b)
{
	cell[0] = '\0';
	if (!b->has)
		return;
	snprintf(cell, n, "%s%.0f", b->best ? "*" :
	    b->v.kind == VERDICT_SAME ? "~" : "", b->percent);
}

unsigned report_text_best_few(const struct report_best *b, int first)
{
	int i;

	for (i = first; b != NULL && i < first + 6; i++)
		if (b[i].has && b[i].v.kind == VERDICT_TOO_FEW)
			return b[i].v.runs;
	return 0;
}

bool report_text_best_any(const struct report_best *b, int first)
{
	int i;

	for (i = first; b != NULL && i < first + 6; i++)
		if (b[i].has)
			return true;
	return false;
}

bool report_text_best_section(const struct report_set *set, int first)
{
	size_t g;

	for (g = 0; g < set->ngroups; g++)
		if (report_text_best_any(report_set_best_of(set, (long)g, false),
		    first) || report_text_best_any(report_set_best_of(set,
		    (long)g, true), first))
			return true;
	return false;
}
