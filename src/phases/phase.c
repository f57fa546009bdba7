/*
 * phases/phase.c: the phases and the table of families.  See phases/phase.h.
 */
#include "phases/phase.h"
#include "phases/dirs.h"
#include "phases/files.h"
#include "phases/io.h"
#include "phases/seek.h"

static bool io_enabled(const struct config *cfg)
{
	return cfg->file_size_mib > 0;
}

static bool per_char_enabled(const struct config *cfg)
{
	return cfg->file_size_mib > 0 && cfg->per_char;
}

static bool files_enabled(const struct config *cfg)
{
	return cfg->files.count_k > 0;
}

static bool dirs_enabled(const struct config *cfg)
{
	return cfg->dirs.count_k > 0;
}

/*
 * The per-char and block phases: a --chunks sweep runs the block phases
 * at every point, the per-char ones at the first alone.
 */
static const struct phase_def io_phases[] = {
	{ PH_PUTC, "per-char write", "Writing with putc()...", "done\n",
	  per_char_enabled, phase_putc_prepare, phase_putc_run,
	  NULL, false, false, NULL, NULL },
	{ PH_PUT_BLOCK, "block write", "Writing intelligently...", "done\n",
	  io_enabled, phase_put_block_prepare, phase_put_block_run,
	  NULL, true, true, NULL, NULL },
	{ PH_REWRITE, "rewrite", "Rewriting...", "done\n",
	  io_enabled, phase_rewrite_prepare, phase_rewrite_run,
	  NULL, true, false, NULL, NULL },
	{ PH_GETC, "per-char read", "Reading with getc()...", "done\n",
	  per_char_enabled, phase_getc_prepare, phase_getc_run,
	  NULL, false, false, NULL, NULL },
	{ PH_GET_BLOCK, "block read", "Reading intelligently...", "done\n",
	  io_enabled, phase_get_block_prepare, phase_get_block_run,
	  NULL, true, false, NULL, NULL },
};

const struct phase_family io_family = {
	.name = "io",
	.phases = io_phases,
	.nphases = sizeof(io_phases) / sizeof(io_phases[0]),
	.check_direct = phase_io_check_direct,
	.made = phase_io_made,
	.theirs = phase_io_theirs,
	.made_what = "data files",
	.cleanup = phase_io_cleanup,
	.descriptors = phase_io_descriptors,
};

/*
 * The seeks are the last phase to use the data files: they go as soon
 * as it ends, so that the small-file phases run without them.  A
 * --chunks sweep runs them at every point.
 */
static const struct phase_def seek_phases[] = {
	{ PH_SEEKS, "random seeks", "start 'em...", NULL,
	  io_enabled, phase_seeks_prepare, phase_seeks_run,
	  phase_io_cleanup, true, false, NULL, NULL },
};

const struct phase_family seek_family = {
	.name = "seek",
	.phases = seek_phases,
	.nphases = sizeof(seek_phases) / sizeof(seek_phases[0]),
	.cleanup = phase_seeks_cleanup,
	.descriptors = phase_seeks_descriptors,
};

/* The small-file phases, at the first point of a sweep alone. */
static const struct phase_def files_phases[] = {
	{ PH_SEQ_CREATE, "sequential create", "Create files in sequential order...",
	  "done.\n", files_enabled, phase_seq_create_prepare, phase_seq_create_run,
	  NULL, false, true, NULL, NULL },
	{ PH_SEQ_STAT, "sequential stat", "Stat files in sequential order...",
	  "done.\n", files_enabled, NULL, phase_seq_stat_run,
	  phase_files_release, false, false, NULL, NULL },
	{ PH_SEQ_DEL, "sequential delete", "Delete files in sequential order...",
	  "done.\n", files_enabled, NULL, phase_seq_del_run,
	  NULL, false, false, NULL, NULL },
	{ PH_RAN_CREATE, "random create", "Create files in random order...",
	  "done.\n", files_enabled, phase_ran_create_prepare, phase_ran_create_run,
	  NULL, false, true, NULL, NULL },
	{ PH_RAN_STAT, "random stat", "Stat files in random order...",
	  "done.\n", files_enabled, phase_ran_stat_prepare, phase_ran_stat_run,
	  phase_files_release, false, false, NULL, NULL },
	{ PH_RAN_DEL, "random delete", "Delete files in random order...",
	  "done.\n", files_enabled, phase_ran_del_prepare, phase_ran_del_run,
	  NULL, false, false, NULL, NULL },
};

const struct phase_family files_family = {
	.name = "files",
	.phases = files_phases,
	.nphases = sizeof(files_phases) / sizeof(files_phases[0]),
	.reserve = phase_files_reserve,
	.made = phase_files_made,
	.theirs = phase_files_theirs,
	.made_what = "small files",
	.theirs_agreed = true,
	.cleanup = phase_files_cleanup,
	.descriptors = phase_files_descriptors,
};

/*
 * A directory phase: its id, label, progress line, prepare(), run(),
 * join() and after_all() (--dirs-shared)
 */
#define DIR_PHASE(id, label, progress, prepare, run, join, after_all) \
	{ id, label, progress, "done.\n", dirs_enabled, prepare, run, \
	  phase_dirs_release, false, false, join, after_all }

/* --dirs: after bonnie++'s phases, the same six for directories */
static const struct phase_def dirs_phases[] = {
	DIR_PHASE(PH_DIR_CREATE, "directory create", "Create directories in tree "
	    "order...", phase_dir_create_prepare, phase_dir_create_run,
	    phase_dir_create_join, NULL),
	DIR_PHASE(PH_DIR_STAT, "directory stat", "Stat directories in tree "
	    "order...", phase_dir_walk_prepare, phase_dir_stat_run, NULL, NULL),
	DIR_PHASE(PH_DIR_DEL, "directory delete", "Delete directories in tree "
	    "order...", phase_dir_walk_prepare, phase_dir_del_run, NULL,
	    phase_dir_shared_done),
	DIR_PHASE(PH_RAN_DIR_CREATE, "random directory create", "Create "
	    "directories in random order...", phase_ran_dir_create_prepare,
	    phase_ran_dir_create_run, phase_dir_create_join, NULL),
	DIR_PHASE(PH_RAN_DIR_STAT, "random directory stat", "Stat directories "
	    "in random order...", phase_ran_dir_stat_prepare,
	    phase_ran_dir_stat_run, NULL, NULL),
	DIR_PHASE(PH_RAN_DIR_DEL, "random directory delete", "Delete "
	    "directories in random order...", phase_ran_dir_del_prepare,
	    phase_ran_dir_del_run, NULL, phase_dir_shared_done),
};

const struct phase_family dirs_family = {
	.name = "dirs",
	.phases = dirs_phases,
	.nphases = sizeof(dirs_phases) / sizeof(dirs_phases[0]),
	.reserve = phase_dirs_reserve,
	.cleanup = phase_dirs_cleanup,
	.cleanup_shared = phase_dirs_cleanup_shared,
	.descriptors = phase_dirs_descriptors,
};

/* The families in the order their phases run. */
const struct phase_family *const phase_families[] = {
	&io_family,
	&seek_family,
	&files_family,
	&dirs_family,
};

const size_t phase_family_count =
    sizeof(phase_families) / sizeof(phase_families[0]);

const struct phase_def *phase_at(size_t i)
{
	for (size_t k = 0; k < phase_family_count; k++) {
		if (i < phase_families[k]->nphases)
			return &phase_families[k]->phases[i];
		i -= phase_families[k]->nphases;
	}
	return NULL;
}

size_t phase_index(const struct phase_def *p)
{
	size_t n = 0;

	for (size_t k = 0; k < phase_family_count; k++) {
		const struct phase_family *f = phase_families[k];

		for (size_t i = 0; i < f->nphases; i++)
			if (&f->phases[i] == p)
				return n + i;
		n += f->nphases;
	}
	return n;
}

const struct phase_family *phase_family_of(const struct phase_def *p)
{
	for (size_t k = 0; k < phase_family_count; k++) {
		const struct phase_family *f = phase_families[k];

		for (size_t i = 0; i < f->nphases; i++)
			if (&f->phases[i] == p)
				return f;
	}
	return NULL;
}

bool phase_family_runs(const struct phase_family *f,
    const struct config *cfg)
{
	for (size_t i = 0; i < f->nphases; i++)
		if (f->phases[i].enabled(cfg))
			return true;
	return false;
}

bool phase_runs_at(const struct phase_def *p, const struct config *cfg,
    bool first)
{
	return p->enabled(cfg) && (first || p->every_point);
}

unsigned phase_count_at(const struct config *cfg, bool first)
{
	unsigned n = 0;

	for (size_t k = 0; k < phase_family_count; k++)
		for (size_t i = 0; i < phase_families[k]->nphases; i++)
			n += phase_runs_at(&phase_families[k]->phases[i], cfg,
			    first);
	return n;
}

void phase_cleanup_all(struct phase_ctx *ctx)
{
	for (size_t k = phase_family_count; k-- > 0;)
		if (phase_families[k]->cleanup != NULL)
			phase_families[k]->cleanup(ctx);
}
