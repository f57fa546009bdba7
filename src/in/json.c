/*
 * in/json.c: see in/json.h.  Each key of the record (clyde(1),
 * The JSON record) back into the field it was written from, so that a
 * record read back prints the table and the CSV line of its run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "in/csv_line.h"
#include "in/json.h"
#include "in/reader.h"
#include "lib/json_read.h"

bool json_input_looks(const char *text, size_t len)
{
	const char *end = text + len, *s = text;
	char open;

	while (s < end && strchr(" \t\r\n", *s) != NULL && *s)
		s++;
	if (s == end || (*s != '{' && *s != '['))
		return false;
	open = *s++;
	while (s < end && strchr(" \t\r\n", *s) != NULL && *s)
		s++;
	if (s == end)
		return false;
	return open == '{' ? *s == '"' || *s == '}' : *s == '{' || *s == ']';
}

/* Why a record is not read: the first reason found is kept. */
struct record_check {
	char *why;
	size_t why_len;
	bool bad;
};

static void bad(struct record_check *r, const char *what, const char *key)
{
	if (!r->bad)
		snprintf(r->why, r->why_len, "%s %s", key, what);
	r->bad = true;
}

static const struct json_value *get_kind(struct record_check *r,
    const struct json_value *obj, const char *key, enum json_type type,
    bool may_be_null)
{
	const struct json_value *v = json_get(obj, key);

	if (v == NULL) {
		bad(r, "is missing", key);
		return NULL;
	}
	if (v->type == JSON_NULL && may_be_null)
		return NULL;
	if (v->type != type && !(type == JSON_TRUE && v->type == JSON_FALSE)) {
		bad(r, type == JSON_STRING ? "is not a string" :
		    type == JSON_NUMBER ? "is not a number" :
		    type == JSON_OBJECT ? "is not an object" :
		    type == JSON_ARRAY ? "is not an array" : "is not true or false",
		    key);
		return NULL;
	}
	return v;
}

/* A string key into out[n]; null is "". */
static void get_string(struct record_check *r, const struct json_value *obj,
    const char *key, char *out, size_t n)
{
	const struct json_value *v = get_kind(r, obj, key, JSON_STRING, true);

	out[0] = '\0';
	if (v == NULL)
		return;
	if (strlen(v->string) >= n)
		bad(r, "is too long", key);
	else
		memcpy(out, v->string, strlen(v->string) + 1);
}

/* A number key; null is dflt.  Whole and within max when whole. */
static double get_number(struct record_check *r, const struct json_value *obj,
    const char *key, double dflt, double max, bool whole)
{
	const struct json_value *v = get_kind(r, obj, key, JSON_NUMBER, true);

	if (v == NULL)
		return dflt;
	if (!(v->number >= 0 && v->number <= max) ||
	    (whole && v->number != floor(v->number))) {
		bad(r, "is out of range", key);
		return dflt;
	}
	return v->number;
}

static bool get_bool(struct record_check *r, const struct json_value *obj,
    const char *key)
{
	const struct json_value *v = get_kind(r, obj, key, JSON_TRUE, false);

	return v != NULL && v->type == JSON_TRUE;
}

static void read_files(struct record_check *r, const struct json_value *f,
    struct result *res)
{
	char kind[16];

	res->has_files = f != NULL;
	if (f == NULL)
		return;
	res->files.count_k = (unsigned)get_number(r, f, "count", 0, 1e6, true);
	res->files.max_size = (long)get_number(r, f, "max_size", 0, 1e15, true);
	res->files.min_size = (long)get_number(r, f, "min_size", 0, 1e15, true);
	res->files.dirs = (unsigned)get_number(r, f, "dirs", 0, 1e6, true);
	res->files.chunk = (unsigned)get_number(r, f, "chunk_size", 0, 1e9,
	    true);
	get_string(r, f, "kind", kind, sizeof(kind));
	if (strcmp(kind, "link") == 0)
		res->files.max_size = FILES_HARDLINK;
	else if (strcmp(kind, "symlink") == 0)
		res->files.max_size = FILES_SYMLINK;
	else if (strcmp(kind, "files") != 0)
		bad(r, "is not files, link or symlink", "kind");
}

/* --dirs; absent from the records made before it existed */
static void read_dirs(struct record_check *r, const struct json_value *rec,
    struct result *res)
{
	const struct json_value *d = json_get(rec, "dirs") == NULL ? NULL :
	    get_kind(r, rec, "dirs", JSON_OBJECT, true);

	res->has_dirs = d != NULL;
	if (d == NULL)
		return;
	res->dirs.count_k = (unsigned)get_number(r, d, "count", 0,
	    UINT32_MAX / FILE_UNIT, true);
	res->dirs.depth = (unsigned)get_number(r, d, "depth", 1,
	    DIRS_DEPTH_MAX, true);
	res->dirs.fanout = (unsigned)get_number(r, d, "fanout", 1,
	    DIRS_FANOUT_MAX, true);
	/* absent before --dirs-shared existed */
	res->dirs.shared = json_get(d, "shared") != NULL &&
	    get_bool(r, d, "shared");
}

static void read_test(struct record_check *r, const struct json_value *t,
    struct cell *c)
{
	static const char *const status[] = {
		[CELL_SKIPPED] = "skipped", [CELL_TOO_FAST] = "too_fast",
		[CELL_OK] = "ok", [CELL_UNKNOWN] = "unknown",
		[CELL_ABSENT] = "absent",
	};
	char s[16];
	size_t i;

	get_string(r, t, "status", s, sizeof(s));
	/* a run's phase that was stopped for part of it: measured all the same */
	c->stopped = strcmp(s, "stopped") == 0;
	if (c->stopped)
		snprintf(s, sizeof(s), "%s", status[CELL_OK]);
	/* the phase a stop cut: not measured, an empty cell as a skipped one */
	if (strcmp(s, "interrupted") == 0)
		snprintf(s, sizeof(s), "%s", status[CELL_SKIPPED]);
	for (i = 0; i < sizeof(status) / sizeof(status[0]); i++)
		if (strcmp(s, status[i]) == 0)
			c->status = (enum cell_status)i;
	if (strcmp(s, status[c->status]) != 0)
		bad(r, "is no status of a test", "status");
	c->rate = get_number(r, t, "rate", 0, 1e300, false);
	c->cpu = (int)get_number(r, t, "cpu", -1, CPU_PERCENT_MAX, true);
	c->latency_us = (int64_t)get_number(r, t, "latency_us", -1, 1e15, true);
	c->rate_precision = get_number(r, t, "rate_precision", 0, 1e300, false);
	/* a missing rate is named above */
	if (c->status == CELL_OK && json_get(t, "rate") != NULL &&
	    json_get(t, "rate")->type == JSON_NULL)
		bad(r, "has no rate", "an ok test");
	c->short_phase = c->status == CELL_TOO_FAST;
}

/*
 * The shares of slower operations, where the record has them (nover 0
 * in one written before they were): 2 s, 10 s, then --latency-over's.
 */
static void read_latency_over(struct record_check *r,
    const struct json_value *l, struct latency_summary *lat)
{
	const struct json_value *over = json_get(l, "over");
	size_t i;

	if (json_get(l, "over_2s") == NULL ||
	    json_get(l, "over_2s")->type == JSON_NULL)
		return;
	lat->over_ns[LAT_OVER_2S] = 2000000000;
	lat->over_ns[LAT_OVER_10S] = 10000000000;
	lat->over[LAT_OVER_2S] = get_number(r, l, "over_2s", 0, 1, false);
	lat->over[LAT_OVER_10S] = get_number(r, l, "over_10s", 0, 1, false);
	lat->nover = 2;
	if (over == NULL || over->type != JSON_ARRAY) {
		bad(r, "is not an array", "over");
		return;
	}
	for (i = 0; i < over->n && lat->nover < LAT_OVER_MAX; i++) {
		const struct json_value *o = &over->items[i];

		if (o->type != JSON_OBJECT) {
			bad(r, "holds no object", "over");
			return;
		}
		lat->over_ns[lat->nover] = (uint64_t)get_number(r, o, "ns", 0,
		    1e19, true);
		lat->over[lat->nover++] = get_number(r, o, "share", 0, 1, false);
	}
}

/* A phase's raw figures (a run's "phases"), or null: it did not run. */
static void read_phase(struct record_check *r, const struct json_value *p,
    struct phase_figures *pf)
{
	const struct json_value *l, *st;

	memset(pf, 0, sizeof(*pf));
	if (p == NULL)
		return;
	pf->ran = true;
	pf->ops = (uint64_t)get_number(r, p, "ops", 0, 1e19, true);
	pf->bytes = (uint64_t)get_number(r, p, "bytes", 0, 1e19, true);
	pf->elapsed_ns = (int64_t)get_number(r, p, "elapsed_ns", 0, 9e18, true);
	pf->cpu_ns = (int64_t)get_number(r, p, "cpu_ns", 0, 9e18, true);
	pf->readdir_passes = (unsigned)get_number(r, p, "readdir_passes", 0,
	    1e9, true);
	/* absent before it was written */
	if (json_get(p, "stopped_ns") != NULL)
		pf->stopped_ns = (int64_t)get_number(r, p, "stopped_ns", 0,
		    9e18, true);
	if ((l = get_kind(r, p, "latency_ns", JSON_OBJECT, true)) != NULL) {
		pf->lat.count = (uint64_t)get_number(r, l, "count", 0, 1e19, true);
		pf->lat.max = (uint64_t)get_number(r, l, "max", 0, 1e19, true);
		pf->lat.mean = (uint64_t)get_number(r, l, "mean", 0, 1e19, true);
		pf->lat.p50 = (uint64_t)get_number(r, l, "p50", 0, 1e19, true);
		pf->lat.p90 = (uint64_t)get_number(r, l, "p90", 0, 1e19, true);
		pf->lat.p99 = (uint64_t)get_number(r, l, "p99", 0, 1e19, true);
		pf->lat.p999 = (uint64_t)get_number(r, l, "p999", 0, 1e19, true);
		read_latency_over(r, l, &pf->lat);
	}
	if ((st = get_kind(r, p, "stall", JSON_OBJECT, true)) != NULL) {
		pf->stall_ns = (int64_t)get_number(r, st, "ns", 0, 9e18, true);
		get_string(r, st, "call", pf->stall_call,
		    sizeof(pf->stall_call));
	}
	/* a rank's, since they were written */
	if (json_get(p, "first_done_ns") != NULL) {
		pf->first_done_ops = (uint64_t)get_number(r, p,
		    "first_done_ops", 0, 1e19, true);
		pf->first_done_ns = (int64_t)get_number(r, p, "first_done_ns",
		    0, 9e18, true);
	}
}

/* the most ranks of a record read back */
#define RANKS_MAX 100000

/*
 * clyde-mpi's ranks, read into memory that the next record reuses unless
 * add() took it (in/json.h)
 */
static struct rank_figures *ranks_buf;
static size_t ranks_cap;

/* Where read_rank() reads to. */
struct ranks_reader {
	struct record_check *r;
	size_t n;
};

/* Rank i of "ranks" into ranks_buf[i]; non-zero ends the ranks */
static int read_rank(void *ctx, size_t i, const struct json_value *one)
{
	struct ranks_reader *rr = ctx;
	struct record_check *r = rr->r;
	struct rank_figures *rank = &ranks_buf[i];
	const struct json_value *ph;

	memset(rank, 0, sizeof(*rank));
	if (one->type != JSON_OBJECT) {
		bad(r, "holds no object", "ranks");
		return 1;
	}
	get_string(r, one, "host", rank->host, sizeof(rank->host));
	if (json_get(one, "read_from") != NULL)
		rank->read_from = (unsigned)get_number(r, one, "read_from",
		    (double)i, (double)(rr->n - 1), true);
	else
		rank->read_from = (unsigned)i;
	ph = get_kind(r, one, "phases", JSON_OBJECT, false);
	for (size_t k = 0; ph != NULL && k < PH_COUNT; k++)
		read_phase(r, get_kind(r, ph, phase_csv_name[k], JSON_OBJECT,
		    true), &rank->phase[k]);
	return r->bad;
}

/*
 * "ranks": clyde-mpi's every rank, one at a time from the text (the
 * array is left unparsed, json_parse_deferring()), into ranks_buf.
 */
static void read_ranks(struct record_check *r, const struct json_value *a,
    struct result *res)
{
	struct ranks_reader rr = { r, 0 };

	if (a == NULL || a->type == JSON_NULL)
		return;
	if (a->type != JSON_SPAN && a->type != JSON_ARRAY) {
		bad(r, "is not an array", "ranks");
		return;
	}
	if (a->n < 2)
		return;
	if (a->n > RANKS_MAX) {
		bad(r, "has too many ranks", "ranks");
		return;
	}
	if (a->n > ranks_cap) {
		struct rank_figures *more = realloc(ranks_buf,
		    a->n * sizeof(*ranks_buf));

		if (more == NULL) {
			bad(r, "is too large for the memory", "ranks");
			return;
		}
		ranks_buf = more;
		ranks_cap = a->n;
	}
	rr.n = a->n;
	if (json_array_each(a, read_rank, &rr) < 0)
		bad(r, "is too large for the memory", "ranks");
	if (r->bad)
		return;
	res->nranks = (unsigned)a->n;
	res->ranks = ranks_buf;
}

/*
 * A key that a record may lack (one written before it existed): NULL
 * when missing or null, else of type.
 */
static const struct json_value *get_newer(struct record_check *r,
    const struct json_value *obj, const char *key, enum json_type type)
{
	return json_get(obj, key) != NULL ? get_kind(r, obj, key, type, true) :
	    NULL;
}

/* "argv": the command line, each argument NUL-terminated in run->argv. */
static void read_argv(struct record_check *r, const struct json_value *a,
    struct run_info *run)
{
	size_t i, used = 0, len;

	for (i = 0; a != NULL && i < a->n; i++) {
		if (a->items[i].type != JSON_STRING) {
			bad(r, "holds no string", "argv");
			return;
		}
		len = strlen(a->items[i].string) + 1;
		if (len > sizeof(run->argv) - used) {
			bad(r, "is too long", "argv");
			return;
		}
		memcpy(run->argv + used, a->items[i].string, len);
		used += len;
		run->argc++;
	}
}

/* "host", and its "device" (null where the target has none). */
static void read_host(struct record_check *r, const struct json_value *h,
    struct host_info *host)
{
	const struct json_value *d = get_kind(r, h, "device", JSON_OBJECT, true);
	const struct json_value *ro;

	get_string(r, h, "name", host->name, sizeof(host->name));
	get_string(r, h, "kernel", host->kernel, sizeof(host->kernel));
	get_string(r, h, "cpu", host->cpu, sizeof(host->cpu));
	host->ram_mib = (uint64_t)get_number(r, h, "ram_mib", 0, 1e15, true);
	host->has_device = d != NULL;
	if (d == NULL)
		return;
	get_string(r, d, "name", host->device.name, sizeof(host->device.name));
	get_string(r, d, "disk", host->device.disk, sizeof(host->device.disk));
	get_string(r, d, "model", host->device.model,
	    sizeof(host->device.model));
	get_string(r, d, "scheduler", host->device.scheduler,
	    sizeof(host->device.scheduler));
	ro = get_kind(r, d, "read_only", JSON_TRUE, true);
	host->device.read_only = ro == NULL ? -1 : ro->type == JSON_TRUE;
}

/* What only a run knows: where it ran, with what, its raw figures. */
static void read_run(struct record_check *r, const struct json_value *rec,
    struct result *res)
{
	const struct json_value *t = get_kind(r, rec, "target", JSON_OBJECT,
	    false);
	const struct json_value *o = get_kind(r, rec, "options", JSON_OBJECT,
	    false);
	const struct json_value *ph = get_kind(r, rec, "phases", JSON_OBJECT,
	    false);
	const struct json_value *sw = get_kind(r, rec, "sweep", JSON_OBJECT,
	    true), *chunks, *sizes, *h;
	struct run_info *run = &res->run;
	char s[16];
	size_t i;

	res->from_run = true;
	get_string(r, rec, "compat", s, sizeof(s));
	run->compat = strcmp(s, "2.00") == 0 ? COMPAT_200 : COMPAT_103;
	get_string(r, rec, "started", run->started, sizeof(run->started));
	/* since schema_version 1 */
	read_argv(r, get_newer(r, rec, "argv", JSON_ARRAY), run);
	if ((h = get_newer(r, rec, "host", JSON_OBJECT)) != NULL)
		read_host(r, h, &run->host);
	run->has_host = h != NULL;
	if (t != NULL) {
		get_string(r, t, "path", run->target, sizeof(run->target));
		get_string(r, t, "fstype", run->fstype, sizeof(run->fstype));
		get_string(r, t, "mount_source", run->mount_source,
		    sizeof(run->mount_source));
		get_string(r, t, "mount_options", run->mount_options,
		    sizeof(run->mount_options));
	}
	if (o != NULL) {
		run->sync_writes = get_bool(r, o, "sync_writes");
		run->direct_io = get_bool(r, o, "direct_io");
		run->precise = get_bool(r, o, "precise");
		run->ram_mib = (uint64_t)get_number(r, o, "ram_mib", 0, 1e15, true);
		run->per_char_mib = (uint64_t)get_number(r, o,
		    "per_char_size_mib", 0, 1e15, true);
		/* absent from the records written before it existed */
		if (json_get(o, "shift") != NULL)
			run->shift = (unsigned)get_number(r, o, "shift", 0,
			    SHIFT_MAX, true);
	}
	for (i = 0; ph != NULL && i < PH_COUNT; i++)
		if (i < PH_FIRST_DIR || json_get(ph, phase_csv_name[i]) != NULL)
			read_phase(r, get_kind(r, ph, phase_csv_name[i],
			    JSON_OBJECT, true), &res->phase[i]);
	read_ranks(r, json_get(rec, "ranks"), res);
	get_string(r, rec, "status", s, sizeof(s));
	res->status = strcmp(s, "failed") == 0 ? RUN_FAILED :
	    strcmp(s, "interrupted") == 0 ? RUN_INTERRUPTED : RUN_OK;
	get_string(r, rec, "error", res->error, sizeof(res->error));
	/* a run's --chunks; clyde report's own sweeps are found again */
	chunks = json_get(sw, "chunks");
	if (json_get(sw, "index") != NULL || chunks == NULL ||
	    chunks->type != JSON_ARRAY || chunks->n > CHUNKS_MAX)
		return;
	res->sweep_n = (unsigned)chunks->n;
	for (i = 0; i < chunks->n; i++)
		res->sweep_chunks[i] = chunks->items[i].type == JSON_NUMBER ?
		    (unsigned)chunks->items[i].number : 0;
	res->sweep_point = (unsigned)get_number(r, sw, "point", 0, POINTS_MAX,
	    true);
	/* since --sizes */
	sizes = json_get(sw, "sizes_mib");
	if (sizes == NULL || sizes->type != JSON_ARRAY || sizes->n > SIZES_MAX)
		return;
	res->sweep_nsizes = (unsigned)sizes->n;
	for (i = 0; i < sizes->n; i++)
		res->sweep_sizes[i] = sizes->items[i].type == JSON_NUMBER ?
		    (uint64_t)sizes->items[i].number : 0;
}

/*
 * Whether a record of schema version v is one this clyde reads: a newer
 * one may have removed a key or changed its meaning, and versions start
 * at 1.
 */
static bool known_schema(struct record_check *r, double v)
{
	if (r->bad)
		return false;
	if (v > JSON_SCHEMA_VERSION)
		snprintf(r->why, r->why_len, "schema_version %.0f is newer "
		    "than this clyde reads (%d)", v, JSON_SCHEMA_VERSION);
	else if (v < 1)
		snprintf(r->why, r->why_len, "schema_version %.0f is no "
		    "version of the record (they start at 1)", v);
	else
		return true;
	r->bad = true;
	return false;
}

static void read_record(struct record_check *r, const struct json_value *rec,
    struct result *res)
{
	const struct json_value *tests;
	char source[16];
	size_t i;

	csv_result_clear(res);
	if (rec->type != JSON_OBJECT) {
		bad(r, "is not a JSON object", "the record");
		return;
	}
	tests = get_kind(r, rec, "tests", JSON_OBJECT, false);
	if (tests == NULL)
		return;
	/* absent from the records written before it existed */
	if (json_get(rec, "schema_version") != NULL &&
	    !known_schema(r, get_number(r, rec, "schema_version", 0, 1e9,
	    true)))
		return;
	get_string(r, rec, "source", source, sizeof(source));
	res->from_table = strcmp(source, "table") == 0;
	res->from_json = true;
	get_string(r, rec, "generation", res->generation,
	    sizeof(res->generation));
	if (csv_layout_of_tag(res->generation) == NULL)
		bad(r, "is no CSV generation", "generation");
	get_string(r, rec, "format_version", res->format_version,
	    sizeof(res->format_version));
	get_string(r, rec, "bonnie_version", res->bonnie_version,
	    sizeof(res->bonnie_version));
	get_string(r, rec, "name", res->name, sizeof(res->name));
	get_string(r, rec, "seed", res->seed, sizeof(res->seed));
	res->concurrency = (int)get_number(r, rec, "concurrency", 0, 1e6, true);
	res->has_io = json_get(rec, "file_size_mib") != NULL &&
	    json_get(rec, "file_size_mib")->type != JSON_NULL;
	res->file_size_mib = (uint64_t)get_number(r, rec, "file_size_mib", 0,
	    1e15, true);
	res->chunk = (unsigned)get_number(r, rec, "io_chunk_size", 0, 1e10,
	    true);
	res->seeks = (unsigned)get_number(r, rec, "seeks", 0, 4e9, true);
	res->seekers = (unsigned)get_number(r, rec, "seek_procs", 0, 4e9, true);
	read_files(r, get_kind(r, rec, "files", JSON_OBJECT, true), res);
	read_dirs(r, rec, res);
	for (i = 0; i < PH_COUNT; i++) {
		const struct json_value *t;

		/* the directory phases: absent from older records */
		if (i >= PH_FIRST_DIR && json_get(tests, phase_csv_name[i]) == NULL)
			continue;
		t = get_kind(r, tests, phase_csv_name[i], JSON_OBJECT, false);

		if (t != NULL)
			read_test(r, t, &res->cell[i]);
	}
	if (strcmp(source, "run") == 0)
		read_run(r, rec, res);
	/* --precise printed a short phase's figure: so does its record read back */
	for (i = 0; res->run.precise && i < PH_COUNT; i++)
		if (res->cell[i].status == CELL_TOO_FAST && res->cell[i].rate > 0)
			res->cell[i].status = CELL_OK;
}

/* A group mean of clyde report --average: made again from its runs. */
static bool is_mean(const struct json_value *rec)
{
	const struct json_value *a = json_get(rec, "average");

	return a != NULL && a->type != JSON_NULL;
}

long json_input_read(const char *text, size_t len, json_input_add *add,
    void *ctx, char *why, size_t why_len, unsigned long *line)
{
	static struct result res;
	struct json_value top;
	struct record_check r = { why, why_len, false };
	const struct json_value *recs;
	size_t i, n;
	long count = 0;

	/* the ranks' array, the bulk of clyde-mpi's records: one at a time */
	if (json_parse_deferring(text, len, "ranks", &top, why, why_len,
	    line) != 0)
		return -1;
	*line = 0;
	recs = top.type == JSON_ARRAY ? top.items : &top;
	n = top.type == JSON_ARRAY ? top.n : 1;
	for (i = 0; i < n && count >= 0; i++) {
		if (recs[i].type == JSON_OBJECT && is_mean(&recs[i]))
			continue;
		read_record(&r, &recs[i], &res);
		if (r.bad) {
			char what[128];

			snprintf(what, sizeof(what), "%s", why);
			snprintf(why, why_len, "record %zu: %s", i + 1, what);
			count = -1;
		} else if (add(ctx, &res) != 0) {
			snprintf(why, why_len, "%s", strerror(errno));
			count = -1;
		} else {
			count++;
		}
		/* add() took the ranks: the next record reads into new memory */
		if (res.nranks > 0 && res.ranks == NULL) {
			ranks_buf = NULL;
			ranks_cap = 0;
		}
	}
	json_free(&top);
	return count;
}

/* Where json_input_read() hands each record: the sink's take() */
static int take_record(void *ctx, struct result *res)
{
	const struct reader_sink *sink = ctx;

	return sink->take(sink->ctx, res, 0);
}

/*
 * clyde's own --json, the bytes seen first and the rest of in: every
 * record, or one line that says why none is read.
 */
static enum reader_status read_all(FILE *in, const char *head,
    size_t head_len, const struct reader_sink *sink)
{
	struct reader_sink own = *sink;
	char *text = malloc(head_len + 65536), why[READER_WHY_MAX];
	char said[READER_WHY_MAX + 8];
	size_t len = head_len, cap = head_len + 65536, got;
	unsigned long line;
	long n;
	int err;

	if (text != NULL)
		memcpy(text, head, head_len);
	while (text != NULL && (got = fread(text + len, 1, cap - len, in)) > 0) {
		len += got;
		if (len == cap) {
			char *more = realloc(text, cap * 2);

			if (more == NULL)
				free(text);
			text = more;
			cap *= 2;
		}
	}
	if (text == NULL || ferror(in)) {
		err = text == NULL ? ENOMEM : errno;
		free(text);
		errno = err;
		return READER_ERROR;
	}
	n = json_input_read(text, len, take_record, &own, why, sizeof(why),
	    &line);
	free(text);
	if (n > 0)
		return READER_OK;
	if (n == 0)
		snprintf(why, sizeof(why), "no result in this JSON (only the "
		    "means of clyde report --average, or none)");
	snprintf(said, sizeof(said), "JSON: %s", why);
	sink->say(sink->ctx, line, said);
	return READER_BAD;
}

const struct reader reader_json = { "json", json_input_looks, read_all };
