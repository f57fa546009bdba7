/*
 * core/result.c: the result record and every value derived from the raw
 * measurements.  No I/O here.
 */
#include <stdio.h>
#include <string.h>

#include "result.h"

const char *const phase_title[PH_COUNT] = {
	"Per-char write", "Block write", "Rewrite", "Per-char read",
	"Block read", "Random seeks", "Sequential create", "Sequential read",
	"Sequential delete", "Random create", "Random read", "Random delete",
	"Directory create", "Directory stat", "Directory delete",
	"Random directory create", "Random directory stat",
	"Random directory delete",
};

const char *const phase_csv_name[PH_COUNT] = {
	[PH_PUTC] = "putc",
	[PH_PUT_BLOCK] = "put_block",
	[PH_REWRITE] = "rewrite",
	[PH_GETC] = "getc",
	[PH_GET_BLOCK] = "get_block",
	[PH_SEEKS] = "seeks",
	[PH_SEQ_CREATE] = "seq_create",
	[PH_SEQ_STAT] = "seq_stat",
	[PH_SEQ_DEL] = "seq_del",
	[PH_RAN_CREATE] = "ran_create",
	[PH_RAN_STAT] = "ran_stat",
	[PH_RAN_DEL] = "ran_del",
	[PH_DIR_CREATE] = "dir_create",
	[PH_DIR_STAT] = "dir_stat",
	[PH_DIR_DEL] = "dir_del",
	[PH_RAN_DIR_CREATE] = "ran_dir_create",
	[PH_RAN_DIR_STAT] = "ran_dir_stat",
	[PH_RAN_DIR_DEL] = "ran_dir_del",
};

void result_init_run(struct result *res, const struct config *cfg)
{
	int i;

	memset(res, 0, sizeof(*res));
	res->from_run = true;
	res->status = RUN_OK;
	if (cfg->compat == COMPAT_103) {
		strcpy(res->generation, "1.0x");
	} else {
		strcpy(res->generation, "1.98");
		strcpy(res->format_version, "1.98");
		strcpy(res->bonnie_version, "2.00a");
	}
	snprintf(res->name, sizeof(res->name), "%s", cfg->machine);
	res->concurrency = (int)cfg->concurrency;
	if (cfg->seed_file != NULL)
		snprintf(res->seed, sizeof(res->seed), "%s", cfg->seed_file);
	else
		snprintf(res->seed, sizeof(res->seed), "%u", (unsigned)cfg->seed);

	res->has_io = cfg->file_size_mib > 0;
	res->file_size_mib = cfg->file_size_mib;
	res->chunk = cfg->chunk;
	res->seeks = cfg->seeks;
	res->seekers = cfg->seekers;

	res->has_files = cfg->files.count_k > 0;
	res->files = cfg->files;
	res->has_dirs = cfg->dirs.count_k > 0;
	res->dirs = cfg->dirs;

	for (i = 0; i < PH_COUNT; i++) {
		res->cell[i].status = CELL_SKIPPED;
		res->cell[i].cpu = -1;
		res->cell[i].latency_us = -1;
	}
}

void result_set_point(struct result *res, const struct config *cfg,
    unsigned i, bool first)
{
	res->chunk = config_point_chunk(cfg, i);
	res->file_size_mib = config_point_size(cfg, i);
	res->has_files = first && cfg->files.count_k > 0;
	res->has_dirs = first && cfg->dirs.count_k > 0;
	if (!first) {
		res->run.per_char_mib = 0;
	} else if (cfg->per_char && cfg->nsizes > 0) {
		struct config at;

		/* the per-char size within the first point's file */
		config_at_point(cfg, i, &at);
		res->run.per_char_mib = at.per_char_mib;
	}
	memcpy(res->sweep_chunks, cfg->chunks, sizeof(res->sweep_chunks));
	res->sweep_n = cfg->nchunks;
	memcpy(res->sweep_sizes, cfg->sizes_mib, sizeof(res->sweep_sizes));
	res->sweep_nsizes = cfg->nsizes;
	res->sweep_point = i + 1;
}

/* ops over ns: K/s for the data phases, operations per second for the others */
static double rate_of(enum phase_id id, uint64_t ops, int64_t ns)
{
	double count = (double)ops;

	if (id <= PH_GET_BLOCK && id != PH_SEEKS)
		count /= 1024.0;
	return count / ((double)ns / 1e9);
}

static double phase_rate(enum phase_id id, const struct phase_figures *pf)
{
	return rate_of(id, pf->ops, pf->elapsed_ns);
}

double result_rank_rate(enum phase_id id, const struct phase_figures *pf)
{
	return pf->ran && pf->elapsed_ns > 0 ? phase_rate(id, pf) : -1;
}

double result_skew(const struct result *res, enum phase_id id,
    unsigned *slowest, unsigned *fastest)
{
	int64_t most = 0, least = 0;
	unsigned r, n = 0;

	for (r = 0; res->ranks != NULL && r < res->nranks; r++) {
		const struct phase_figures *pf = &res->ranks[r].phase[id];

		if (!pf->ran || pf->elapsed_ns <= 0)
			continue;
		if (n == 0 || pf->elapsed_ns > most) {
			most = pf->elapsed_ns;
			*slowest = r;
		}
		if (n == 0 || pf->elapsed_ns < least) {
			least = pf->elapsed_ns;
			*fastest = r;
		}
		n++;
	}
	return n < 2 ? 0 : (double)most / (double)least;
}

double result_first_done(const struct result *res, enum phase_id id)
{
	double sum = 0;
	unsigned r, n = 0;

	for (r = 0; res->ranks != NULL && r < res->nranks; r++) {
		const struct phase_figures *pf = &res->ranks[r].phase[id];

		if (!pf->ran || pf->first_done_ns <= 0)
			continue;
		sum += rate_of(id, pf->first_done_ops, pf->first_done_ns);
		n++;
	}
	return n == res->nranks && n >= 2 ? sum : -1;
}

void result_finalize(struct result *res, bool precise)
{
	int i;

	for (i = 0; i < PH_COUNT; i++) {
		const struct phase_figures *pf = &res->phase[i];
		struct cell *c = &res->cell[i];

		c->status = CELL_SKIPPED;
		c->short_phase = false;
		c->stopped = false;
		c->rate = 0;
		c->cpu = -1;
		c->latency_us = -1;
		if (!pf->ran || pf->elapsed_ns <= 0)
			continue;
		c->latency_us = pf->lat.count ? (int64_t)(pf->lat.max / 1000) : -1;
		/* a short phase prints +++++ but keeps its figures for --json */
		c->short_phase = pf->elapsed_ns < MIN_TIME_NS;
		c->status = c->short_phase && !precise ? CELL_TOO_FAST : CELL_OK;
		c->stopped = pf->stopped_ns > 0;
		c->rate = phase_rate((enum phase_id)i, pf);
		/* bonnie++: int(cpu / elapsed * 100), truncated */
		c->cpu = (int)((double)pf->cpu_ns / (double)pf->elapsed_ns * 100.0);
	}
}

bool result_section_absent(const struct result *res, bool files)
{
	return res->cell[files ? PH_FIRST_FILE : PH_PUTC].status == CELL_ABSENT;
}
