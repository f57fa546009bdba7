/*
 * out/json.c: the result record as JSON (clyde(1), OUTPUT, The JSON
 * record, and REPORT).  Every key is
 * always present, null where the value is unknown, so that consumers
 * never test for presence.  The same writer serves clyde report and the
 * benchmark's --json.
 *
 * Strings: quote, backslash and control characters are escaped; valid
 * UTF-8 passes through; any other byte becomes \u00XX, the character of
 * that byte in Latin-1, so nothing is lost and the output is valid JSON.
 *
 * schema_version says which record this is: clyde(1) says when it
 * changes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/csv.h"
#include "out/json.h"
#include "out/text_cells.h"
#include "out/writer.h"
#include "report/set.h"
#include "lib/text.h"
#include "lib/units.h"

static void json_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', out);
	while (*s != '\0') {
		size_t n = utf8_len((const char *)s);

		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", out);
		else if (*s == '\t')
			fputs("\\t", out);
		else if (*s < 0x20 || *s == 0x7f || n == 0)
			fprintf(out, "\\u%04x", *s);
		else
			fwrite(s, 1, n, out);
		s += n ? n : 1;
	}
	fputc('"', out);
}

/* a string, or null when empty */
static void json_opt_string(FILE *out, const char *s)
{
	if (s[0] == '\0')
		fputs("null", out);
	else
		json_string(out, s);
}

static void json_number(FILE *out, double v)
{
	if (!isfinite(v))
		fputs("null", out);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(out, "%.0f", v);
	else
		fprintf(out, "%.15g", v);
}

/* a count, or null when 0 (unknown) */
static void json_opt_count(FILE *out, unsigned long long v)
{
	if (v == 0)
		fputs("null", out);
	else
		fprintf(out, "%llu", v);
}

static void json_key(FILE *out, int indent, const char *key)
{
	fprintf(out, "%*s\"%s\": ", indent, "", key);
}

/* -n, defaults included as in io_chunk_size; links have no sizes */
static void json_files(FILE *out, const struct result *res)
{
	const struct files_spec *fs = &res->files;

	if (!res->has_files) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"count\": %u, \"max_size\": ", fs->count_k);
	if (fs->max_size >= 0)
		fprintf(out, "%ld, \"min_size\": %ld", fs->max_size,
		    fs->min_size);
	else
		fputs("null, \"min_size\": null", out);
	fputs(", \"dirs\": ", out);
	json_opt_count(out, fs->dirs);
	fputs(", \"chunk_size\": ", out);
	json_opt_count(out, fs->chunk);
	fprintf(out, ", \"kind\": \"%s\"}",
	    fs->max_size == FILES_HARDLINK ? "link" :
	    fs->max_size == FILES_SYMLINK ? "symlink" : "files");
}

/* --dirs, or null without it */
static void json_dirs(FILE *out, const struct result *res)
{
	const struct dirs_spec *ds = &res->dirs;

	if (!res->has_dirs)
		fputs("null", out);
	else
		fprintf(out, "{\"count\": %u, \"depth\": %u, \"fanout\": %u, "
		    "\"shared\": %s}", ds->count_k, ds->depth, ds->fanout,
		    ds->shared ? "true" : "false");
}

/*
 * A run measured a too_fast phase all the same: its rate is written, and
 * the status says it is too short to trust.  A CSV line has +++++ alone.
 * One whose processes were stopped for part of it is "stopped", with the
 * rate it measured, which is no measure of the filesystem.
 */
static void json_test(FILE *out, const struct cell *c, bool from_run,
    bool cut)
{
	static const char *const status[] = {
		[CELL_SKIPPED] = "skipped",
		[CELL_TOO_FAST] = "too_fast",
		[CELL_OK] = "ok",
		[CELL_UNKNOWN] = "unknown",
		[CELL_ABSENT] = "absent",
	};

	/* --precise prints a short phase's figure; it is still too short */
	/* a phase that a stop cut is no phase left out by the options (-f) */
	fprintf(out, "{\"status\": \"%s\", \"rate\": ", c->stopped ?
	    "stopped" : c->short_phase ? status[CELL_TOO_FAST] :
	    cut && c->status == CELL_SKIPPED ? "interrupted" :
	    status[c->status]);
	if (c->status == CELL_OK || (c->status == CELL_TOO_FAST && from_run)) {
		json_number(out, c->rate);
		fprintf(out, ", \"cpu\": %d", c->cpu);
	} else if (c->status == CELL_UNKNOWN) {
		fprintf(out, "null, \"cpu\": %d", c->cpu);
	} else {
		fputs("null, \"cpu\": null", out);
	}
	fputs(", \"latency_us\": ", out);
	if (c->latency_us >= 0)
		fprintf(out, "%lld", (long long)c->latency_us);
	else
		fputs("null", out);
	fputs(", \"rate_precision\": ", out);
	if (c->status == CELL_OK && c->rate_precision > 0)
		json_number(out, c->rate_precision);
	else
		fputs("null", out);
	fputc('}', out);
}

/* "name": {...} for each phase, one a line */
static void json_per_phase(FILE *out, int indent, const struct result *res,
    void (*one)(FILE *, const struct result *, int, const void *),
    const void *arg)
{
	int i;

	fputs("{\n", out);
	for (i = 0; i < PH_COUNT; i++) {
		json_key(out, indent + 2, phase_csv_name[i]);
		one(out, res, i, arg);
		fputs(i + 1 < PH_COUNT ? ",\n" : "\n", out);
	}
	fprintf(out, "%*s}", indent, "");
}

static void one_test(FILE *out, const struct result *res, int ph,
    const void *arg)
{
	(void)arg;
	json_test(out, &res->cell[ph], res->from_run,
	    res->status == RUN_INTERRUPTED && res->cut_phase == (unsigned)ph + 1);
}

/*
 * The shares of operations slower than 2 s and 10 s (tiotest's), then
 * those of --latency-over, each as a fraction from 0 to 1; %.17g keeps
 * every bit, so that a share read back is the share written.
 */
static void latency_over_json(FILE *out, const struct latency_summary *l)
{
	unsigned i;

	/* a record written before the shares were has none to give */
	if (l->nover < 2) {
		fputs("\"over_2s\": null, \"over_10s\": null, \"over\": []",
		    out);
		return;
	}
	fprintf(out, "\"over_2s\": %.17g, \"over_10s\": %.17g, \"over\": [",
	    l->over[LAT_OVER_2S], l->over[LAT_OVER_10S]);
	for (i = 2; i < l->nover; i++)
		fprintf(out, "%s{\"ns\": %llu, \"share\": %.17g}",
		    i > 2 ? ", " : "", (unsigned long long)l->over_ns[i],
		    l->over[i]);
	fputc(']', out);
}

/*
 * one phase's raw figures: ops, bytes, times, latency in ns, readdir
 * passes; of the whole run (agg, phase ph) also the ranks' skew and
 * first-done rate, null with one process
 */
static void phase_figures_json(FILE *out, const struct phase_figures *pf,
    const struct result *agg, int ph)
{
	const struct latency_summary *l = &pf->lat;

	if (!pf->ran) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"ops\": %llu, \"bytes\": %llu, \"elapsed_ns\": %lld, "
	    "\"cpu_ns\": %lld, \"latency_ns\": ", (unsigned long long)pf->ops,
	    (unsigned long long)pf->bytes, (long long)pf->elapsed_ns,
	    (long long)pf->cpu_ns);
	if (l->count == 0) {
		fputs("null", out);
	} else {
		fprintf(out, "{\"count\": %llu, \"max\": %llu, \"mean\": %llu, "
		    "\"p50\": %llu, \"p90\": %llu, \"p99\": %llu, "
		    "\"p999\": %llu, ", (unsigned long long)l->count,
		    (unsigned long long)l->max, (unsigned long long)l->mean,
		    (unsigned long long)l->p50, (unsigned long long)l->p90,
		    (unsigned long long)l->p99, (unsigned long long)l->p999);
		latency_over_json(out, l);
		fputc('}', out);
	}
	if (agg != NULL) {
		unsigned slow, fast;
		double skew = result_skew(agg, (enum phase_id)ph, &slow, &fast);
		double first = result_first_done(agg, (enum phase_id)ph);

		fputs(", \"skew\": ", out);
		if (skew > 0)
			json_number(out, skew);
		else
			fputs("null", out);
		fputs(", \"first_done_rate\": ", out);
		if (first >= 0)
			json_number(out, first);
		else
			fputs("null", out);
	} else if (pf->first_done_ns > 0) {
		fprintf(out, ", \"first_done_ops\": %llu, \"first_done_ns\": "
		    "%lld", (unsigned long long)pf->first_done_ops,
		    (long long)pf->first_done_ns);
	} else {
		fputs(", \"first_done_ops\": null, \"first_done_ns\": null",
		    out);
	}
	/* null for a phase that never went --stall seconds without progress */
	if (pf->stall_ns == 0) {
		fputs(", \"stall\": null", out);
	} else {
		fprintf(out, ", \"stall\": {\"ns\": %lld, \"call\": ",
		    (long long)pf->stall_ns);
		json_string(out, pf->stall_call);
		fputc('}', out);
	}
	/* null for a phase whose processes were never stopped */
	fputs(", \"stopped_ns\": ", out);
	if (pf->stopped_ns > 0)
		fprintf(out, "%lld", (long long)pf->stopped_ns);
	else
		fputs("null", out);
	/* null for the phases that read no directory */
	fputs(", \"readdir_passes\": ", out);
	json_opt_count(out, pf->readdir_passes);
	fputc('}', out);
}

static void one_phase(FILE *out, const struct result *res, int ph,
    const void *arg)
{
	(void)arg;
	phase_figures_json(out, &res->phase[ph], res, ph);
}

/* with several ranks (clyde-mpi), one rank's own figures: arg is it */
static void one_rank_phase(FILE *out, const struct result *res, int ph,
    const void *arg)
{
	(void)res;
	phase_figures_json(out, &((const struct rank_figures *)arg)->phase[ph],
	    NULL, ph);
}

/* "ranks": every rank's host and own figures; null for a single process */
static void json_ranks(FILE *out, const struct result *res)
{
	unsigned i;

	json_key(out, 2, "ranks");
	if (res->nranks < 2 || res->ranks == NULL) {
		fputs("null,\n", out);
		return;
	}
	fputs("[\n", out);
	for (i = 0; i < res->nranks; i++) {
		fprintf(out, "    {\"rank\": %u, \"host\": ", i);
		json_string(out, res->ranks[i].host);
		fprintf(out, ", \"read_from\": %u", res->ranks[i].read_from);
		fputs(", \"phases\": ", out);
		json_per_phase(out, 4, res, one_rank_phase, &res->ranks[i]);
		fputs(i + 1 < res->nranks ? "},\n" : "}\n", out);
	}
	fputs("  ],\n", out);
}

static void one_spread(FILE *out, const struct result *res, int ph,
    const void *arg)
{
	const struct report_spread *sp = (const struct report_spread *)arg + ph;

	(void)res;
	if (sp->runs == 0) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"runs\": %u, \"min\": ", sp->runs);
	json_number(out, sp->min);
	fputs(", \"max\": ", out);
	json_number(out, sp->max);
	fprintf(out, ", \"cv\": %.2f, \"too_fast\": %u, \"stopped\": %u, "
	    "\"median\": ", sp->cv, sp->too_fast, sp->stopped);
	json_number(out, sp->median);
	fprintf(out, ", \"mean\": %.2f, \"ci\": [%.2f, %.2f], "
	    "\"bimodal\": %s}", sp->mean, sp->ci_low, sp->ci_high,
	    sp->bimodal ? "true" : "false");
}

/* compare's verdict keys, and --best's, in their order */
static const char *const verdict_key[] = { "significant", "p", "ci_percent",
    "runs_needed" };
#define NVERDICT_KEYS (sizeof(verdict_key) / sizeof(verdict_key[0]))
static const char *const best_key[] = { "percent", "is_best", "significant",
    "p" };

/* one key of a phase: of verdicts or --best cells [PH_COUNT], or NULL */
struct keyed_arg {
	const void *of;
	size_t key;                             /* into its keys */
};

/* one verdict key of a phase; null where no verdict was reached */
static void one_verdict(FILE *out, const struct result *res, int ph,
    const void *arg)
{
	const struct keyed_arg *a = arg;
	const struct report_verdict *v = a->of != NULL ?
	    (const struct report_verdict *)a->of + ph : NULL;

	(void)res;
	/* the runs needed are known from 2 runs a side, a verdict from 3 */
	if (a->key == 3 && v != NULL && v->runs_needed[0] > 0) {
		int k;

		for (k = 0; k < REPORT_POWER_CHANGES; k++)
			fprintf(out, "%s%u", k ? ", " : "[", v->runs_needed[k]);
		fputc(']', out);
	} else if (v == NULL || v->kind == VERDICT_NONE ||
	    v->kind == VERDICT_TOO_FEW || a->key == 3)
		fputs("null", out);
	else if (a->key == 0)
		fputs(v->kind == VERDICT_SAME ? "false" : "true", out);
	else if (a->key == 1)
		fprintf(out, "%.4g", v->p);
	else
		fprintf(out, "[%.2f, %.2f]", v->ci_low, v->ci_high);
}

static void one_in_rounding(FILE *out, const struct result *res, int ph,
    const void *arg)
{
	long pct;

	if (!report_set_percent(arg, res, (enum phase_id)ph, &pct))
		fputs("null", out);
	else
		fputs(report_set_in_rounding(arg, res, (enum phase_id)ph) ?
		    "true" : "false", out);
}

/* compare's percentages: of the rates, or of the latencies */
struct percent_arg {
	const struct report_set *set;
	bool latency;
};

static void one_percent(FILE *out, const struct result *res, int ph,
    const void *arg)
{
	const struct percent_arg *a = arg;
	long pct;

	if (a->latency ? report_set_latency_percent(a->set, res,
	    (enum phase_id)ph, &pct) : report_set_percent(a->set, res,
	    (enum phase_id)ph, &pct))
		fprintf(out, "%ld", pct);
	else
		fputs("null", out);
}


/* one --best key of a phase; null where the set has no median */
static void one_best(FILE *out, const struct result *res, int ph,
    const void *arg)
{
	const struct keyed_arg *a = arg;
	const struct report_best *b = a->of != NULL ?
	    (const struct report_best *)a->of + ph : NULL;
	bool judged = b != NULL && !b->best && b->v.kind != VERDICT_NONE &&
	    b->v.kind != VERDICT_TOO_FEW;

	(void)res;
	if (b == NULL || !b->has || (a->key >= 2 && !judged))
		fputs("null", out);
	else if (a->key == 0)
		fprintf(out, "%.2f", b->percent);
	else if (a->key == 1)
		fputs(b->best ? "true" : "false", out);
	else if (a->key == 2)
		fputs(b->v.kind == VERDICT_SAME ? "false" : "true", out);
	else
		fprintf(out, "%.4g", b->v.p);
}

/* "best": per phase of the rates, then "latency": the same */
static void json_best(FILE *out, const struct result *res,
    const struct report_best *best, const struct report_best *lat_best)
{
	struct keyed_arg ba = { best, 0 };

	if (best == NULL && lat_best == NULL) {
		fputs("null", out);
		return;
	}
	fputc('{', out);
	for (ba.key = 0; ba.key < 4; ba.key++) {
		fprintf(out, "%s\"%s\": ", ba.key ? ", " : "", best_key[ba.key]);
		json_per_phase(out, 4, res, one_best, &ba);
	}
	fputs(", \"latency\": {", out);
	ba.of = lat_best;
	for (ba.key = 0; ba.key < 4; ba.key++) {
		fprintf(out, "%s\"%s\": ", ba.key ? ", " : "", best_key[ba.key]);
		json_per_phase(out, 6, res, one_best, &ba);
	}
	fputs("}}", out);
}

/* one top-level "key": value line */
static void line_string(FILE *out, const char *key, const char *v, bool opt)
{
	json_key(out, 2, key);
	if (opt)
		json_opt_string(out, v);
	else
		json_string(out, v);
	fputs(",\n", out);
}

static void line_count(FILE *out, const char *key, unsigned long long v)
{
	json_key(out, 2, key);
	json_opt_count(out, v);
	fputs(",\n", out);
}

/* "argv": the command line as given, or null */
static void json_argv(FILE *out, const struct run_info *run)
{
	const char *a = run->argv;
	unsigned i;

	json_key(out, 2, "argv");
	if (run->argc == 0) {
		fputs("null,\n", out);
		return;
	}
	fputc('[', out);
	for (i = 0; i < run->argc; i++, a += strlen(a) + 1) {
		if (i > 0)
			fputs(", ", out);
		json_string(out, a);
	}
	fputs("],\n", out);
}

/* the members "key": string or null of n pairs { key, value }, by ", " */
static void opt_members(FILE *out, const char *const *pairs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fprintf(out, "%s\"%s\": ", i > 0 ? ", " : "", pairs[2 * i]);
		json_opt_string(out, pairs[2 * i + 1]);
	}
}

/* "host": the machine, and the block device under the target, or null */
static void json_host(FILE *out, const struct run_info *run)
{
	const struct host_info *h = &run->host;
	const struct device_info *d = &h->device;
	const char *const host[] = { "name", h->name, "kernel", h->kernel,
	    "cpu", h->cpu };
	const char *const dev[] = { "name", d->name, "disk", d->disk,
	    "model", d->model, "scheduler", d->scheduler };

	json_key(out, 2, "host");
	if (!run->has_host) {
		fputs("null,\n", out);
		return;
	}
	fputc('{', out);
	opt_members(out, host, 3);
	fputs(", \"ram_mib\": ", out);
	json_opt_count(out, h->ram_mib);
	fputs(", \"device\": ", out);
	if (!h->has_device) {
		fputs("null},\n", out);
		return;
	}
	fputc('{', out);
	opt_members(out, dev, 4);
	fprintf(out, ", \"read_only\": %s}},\n", d->read_only < 0 ? "null" :
	    d->read_only ? "true" : "false");
}

/* the keys only a benchmark run fills */
static void json_run(FILE *out, const struct result *res)
{
	const struct run_info *run = &res->run;
	static const char *const status[] = {
		[RUN_OK] = "ok",
		[RUN_FAILED] = "failed",
		[RUN_INTERRUPTED] = "interrupted",
	};

	if (!res->from_run) {
		static const char *const keys[] = { "clyde_version", "compat",
		    "started", "argv", "host", "target", "options", "phases",
		    "ranks", "status", "error" };
		size_t i;

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			json_key(out, 2, keys[i]);
			fputs("null,\n", out);
		}
		return;
	}
	line_string(out, "clyde_version", clyde_version, false);
	line_string(out, "compat", run->compat == COMPAT_103 ? "1.03" : "2.00",
	    false);
	line_string(out, "started", run->started, true);
	json_argv(out, run);
	json_host(out, run);
	json_key(out, 2, "target");
	fputs("{\"path\": ", out);
	json_opt_string(out, run->target);
	fputs(", \"fstype\": ", out);
	json_opt_string(out, run->fstype);
	fputs(", \"mount_source\": ", out);
	json_opt_string(out, run->mount_source);
	fputs(", \"mount_options\": ", out);
	json_opt_string(out, run->mount_options);
	fputs("},\n", out);
	json_key(out, 2, "options");
	fprintf(out, "{\"sync_writes\": %s, \"direct_io\": %s, \"precise\": %s, "
	    "\"ram_mib\": ", run->sync_writes ? "true" : "false",
	    run->direct_io ? "true" : "false", run->precise ? "true" : "false");
	json_opt_count(out, run->ram_mib);
	fputs(", \"per_char_size_mib\": ", out);
	json_opt_count(out, run->per_char_mib);
	fprintf(out, ", \"shift\": %u},\n", run->shift);
	json_key(out, 2, "phases");
	json_per_phase(out, 2, res, one_phase, NULL);
	fputs(",\n", out);
	json_ranks(out, res);
	line_string(out, "status", status[res->status], false);
	line_string(out, "error", res->error, true);
}

struct extras {
	size_t runs;                            /* --average, 0: none */
	const struct report_spread *spread;
	const struct report_set *compare;       /* NULL: none */
	const char *base;
	const struct report_set *set;           /* clyde report's, or NULL */
	const struct report_place *place;       /* in a sweep, or NULL */
	bool mean;
	const struct report_verdict *verdicts;  /* a mean's, or NULL */
	const char *unlike;                     /* a mean's, or "" */
	const struct report_spread *lat_spread;         /* of latencies */
	const struct report_verdict *lat_verdicts;
	const struct report_best *best, *lat_best;      /* --best, or NULL */
};

/*
 * a run's --chunks and --sizes: the chunk sizes (none without --chunks)
 * and the file sizes (the key only with --sizes) in the order given, its
 * point from 1
 */
static void json_run_sweep(FILE *out, const struct result *res)
{
	unsigned i;

	fputs("{\"chunks\": [", out);
	for (i = 0; i < res->sweep_n; i++)
		fprintf(out, "%s%u", i ? ", " : "", res->sweep_chunks[i]);
	fputc(']', out);
	for (i = 0; i < res->sweep_nsizes; i++)
		fprintf(out, "%s%llu", i ? ", " : ", \"sizes_mib\": [",
		    (unsigned long long)res->sweep_sizes[i]);
	fprintf(out, "%s, \"point\": %u}", res->sweep_nsizes ? "]" : "",
	    res->sweep_point);
}

/*
 * where clyde report found the record in a chunk sweep, a run's place in
 * its --chunks, or null
 */
static void json_sweep(FILE *out, const struct result *res,
    const struct extras *x)
{
	const struct report_sweep *sw;
	size_t p;

	if (res->from_run && (res->sweep_n > 0 || res->sweep_nsizes > 0)) {
		json_run_sweep(out, res);
		return;
	}
	if (x->place == NULL || x->place->sweep < 0) {
		fputs("null", out);
		return;
	}
	sw = &x->set->sweeps[x->place->sweep];
	fprintf(out, "{\"index\": %ld, \"chunks\": [", x->place->sweep);
	for (p = 0; p < sw->nchunks; p++)
		fprintf(out, "%s%u", p ? ", " : "", sw->chunks[p]);
	/* a sweep of file sizes: each point's, beside its chunk */
	for (p = 0; sw->nsizes > 1 && p < sw->nchunks; p++)
		fprintf(out, "%s%llu", p ? ", " : "], \"sizes_mib\": [",
		    (unsigned long long)sw->sizes[p]);
	fprintf(out, "], \"point\": %zu, \"series\": ", x->place->point + 1);
	if (x->mean)
		fputs("null", out);
	else
		fprintf(out, "%zu", x->place->series + 1);
	fprintf(out, ", \"runs\": %zu}", sw->nseries);
}

static void json_record(FILE *out, const struct result *res,
    const struct extras *x)
{
	struct keyed_arg va = { x->verdicts, 0 };
	struct percent_arg pa = { x->compare, false };
	char size[32] = "";

	if (res->has_io)
		fmt_file_size(size, sizeof(size), res->file_size_mib);
	fprintf(out, REPORT_JSON_START "%d,\n", JSON_SCHEMA_VERSION);
	line_string(out, "source", res->from_run ? "run" :
	    res->from_table ? "table" : "csv", false);
	line_string(out, "generation", res->generation, false);
	line_string(out, "format_version", res->format_version, true);
	line_string(out, "bonnie_version", res->bonnie_version, true);
	line_string(out, "name", res->name, false);
	line_count(out, "concurrency",
	    res->concurrency > 0 ? (unsigned)res->concurrency : 0);
	line_string(out, "seed", res->seed, true);
	line_string(out, "file_size", size, true);
	json_key(out, 2, "file_size_mib");
	if (res->has_io)
		fprintf(out, "%llu,\n", (unsigned long long)res->file_size_mib);
	else
		fputs("null,\n", out);
	line_count(out, "io_chunk_size", res->has_io ? res->chunk : 0);
	line_count(out, "seeks", res->has_io ? res->seeks : 0);
	line_count(out, "seek_procs", res->has_io ? res->seekers : 0);
	json_key(out, 2, "files");
	json_files(out, res);
	fputs(",\n", out);
	json_key(out, 2, "dirs");
	json_dirs(out, res);
	fputs(",\n", out);
	json_key(out, 2, "tests");
	json_per_phase(out, 2, res, one_test, NULL);
	fputs(",\n", out);
	json_run(out, res);
	json_key(out, 2, "sweep");
	json_sweep(out, res, x);
	fputs(",\n", out);
	json_key(out, 2, "average");
	if (x->runs > 0) {
		fprintf(out, "{\"runs\": %zu, \"spread\": ", x->runs);
		json_per_phase(out, 4, res, one_spread, x->spread);
		fputs(", \"latency_spread\": ", out);
		json_per_phase(out, 4, res, one_spread, x->lat_spread);
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	fputs(",\n", out);
	json_key(out, 2, "compare");
	if (x->compare != NULL) {
		fputs("{\"base\": ", out);
		json_string(out, x->base);
		fputs(", \"percent\": ", out);
		json_per_phase(out, 4, res, one_percent, &pa);
		fputs(", \"within_rounding\": ", out);
		json_per_phase(out, 4, res, one_in_rounding, x->compare);
		for (va.key = 0; va.key < NVERDICT_KEYS; va.key++) {
			fprintf(out, ", \"%s\": ", verdict_key[va.key]);
			json_per_phase(out, 4, res, one_verdict, &va);
		}
		/* the same of the latencies, lower better */
		fputs(", \"latency\": {\"percent\": ", out);
		pa.latency = true;
		json_per_phase(out, 6, res, one_percent, &pa);
		va.of = x->lat_verdicts;
		for (va.key = 0; va.key < NVERDICT_KEYS; va.key++) {
			fprintf(out, ", \"%s\": ", verdict_key[va.key]);
			json_per_phase(out, 6, res, one_verdict, &va);
		}
		fputc('}', out);
		fputs(", \"unlike\": ", out);
		json_opt_string(out, x->unlike);
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	fputs(",\n", out);
	json_key(out, 2, "best");
	json_best(out, res, x->best, x->lat_best);
	fputs("\n}", out);
}

void report_json_record(FILE *out, const struct result *res)
{
	struct extras none = { 0, NULL, NULL, NULL, NULL, NULL, false, NULL, "",
	    NULL, NULL, NULL, NULL };

	json_record(out, res, &none);
	fputc('\n', out);
}

void report_json_set(FILE *out, const struct report_set *set,
    const char *base)
{
	struct extras x = { 0, NULL, base != NULL ? set : NULL, base, set, NULL,
	    false, NULL, "", NULL, NULL, NULL, NULL };
	char unlike[512];
	struct result scratch;
	size_t i;

	memset(&scratch, 0, sizeof(scratch));
	fputc('[', out);
	for (i = 0; i < set->n; i++) {
		report_set_get(set, i, &scratch);
		x.place = report_set_place(set, i);
		fputs(i ? ",\n" : "\n", out);
		json_record(out, &scratch, &x);
	}
	for (i = 0; i < set->ngroups; i++) {
		x.runs = report_set_group_runs(set, i);
		x.spread = report_set_group_spread(set, i);
		x.place = report_set_place(set, report_set_group_first(set, i));
		x.mean = true;
		x.verdicts = report_set_verdicts(set, (long)i);
		x.lat_spread = report_set_group_latency_spread(set, i);
		x.lat_verdicts = report_set_latency_verdicts(set, (long)i);
		x.best = report_set_best_of(set, (long)i, false);
		x.lat_best = report_set_best_of(set, (long)i, true);
		report_text_unlike(unlike, sizeof(unlike), set, (long)i);
		x.unlike = unlike;
		report_set_group_mean(set, i, &scratch);
		fputs(set->n + i ? ",\n" : "\n", out);
		json_record(out, &scratch, &x);
	}
	fputs(set->n + set->ngroups ? "\n]\n" : "]\n", out);
}

/* clyde report --json */
static void print_set(FILE *out, const struct report_set *set,
    const struct writer_opts *o)
{
	report_json_set(out, set, o->base);
}

/* The records of a run: one, or part of an array (-x N > 1, a sweep) */
static int print_records(FILE *out, const struct writer_run *run,
    const struct result *res, unsigned nres)
{
	for (unsigned i = 0; i < nres; i++) {
		if (run->several)
			fputs(run->records + i == 0 ? "[\n" : ",\n", out);
		report_json_record(out, &res[i]);
	}
	return 0;
}

/* The end of the array */
static void print_end(FILE *out, const struct writer_run *run)
{
	if (run->several && run->records > 0)
		fputs("]\n", out);
}

const struct writer writer_json = {
	"json", "a JSON array of result records",
	print_set, print_records, print_end
};
