/*
 * phases/phase.c: the phase table.  See phases/phase.h.
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
 * A directory phase: its id, label, progress line, prepare(), run(),
 * join() and after_all() (--dirs-shared)
 */
#define DIR_PHASE(id, label, progress, prepare, run, join, after_all) \
	{ id, label, progress, "done.\n", dirs_enabled, prepare, run, \
	  phase_dirs_release, phase_dirs_cleanup, false, MAKES_NOTHING, join, \
	  after_all }

/*
 * The seeks are the last phase to use the data files: they go as soon
 * as it ends, so that the small-file phases run without them.  A
 * --chunks sweep runs the block phases and the seeks at every point,
 * the per-char and small-file phases at the first alone.
 */
const struct phase_def phase_table[] = {
	{ PH_PUTC, "per-char write", "Writing with putc()...", "done\n",
	  per_char_enabled, phase_putc_prepare, phase_putc_run,
	  NULL, phase_io_cleanup, false, MAKES_NOTHING, NULL, NULL },
	{ PH_PUT_BLOCK, "block write", "Writing intelligently...", "done\n",
	  io_enabled, phase_put_block_prepare, phase_put_block_run,
	  NULL, phase_io_cleanup, true, MAKES_DATA, NULL, NULL },
	{ PH_REWRITE, "rewrite", "Rewriting...", "done\n",
	  io_enabled, phase_rewrite_prepare, phase_rewrite_run,
	  NULL, phase_io_cleanup, true, MAKES_NOTHING, NULL, NULL },
	{ PH_GETC, "per-char read", "Reading with getc()...", "done\n",
	  per_char_enabled, phase_getc_prepare, phase_getc_run,
	  NULL, phase_io_cleanup, false, MAKES_NOTHING, NULL, NULL },
	{ PH_GET_BLOCK, "block read", "Reading intelligently...", "done\n",
	  io_enabled, phase_get_block_prepare, phase_get_block_run,
	  NULL, phase_io_cleanup, true, MAKES_NOTHING, NULL, NULL },
	{ PH_SEEKS, "random seeks", "start 'em...", NULL,
	  io_enabled, phase_seeks_prepare, phase_seeks_run,
	  phase_io_cleanup, phase_seeks_cleanup, true, MAKES_NOTHING, NULL, NULL },
	{ PH_SEQ_CREATE, "sequential create", "Create files in sequential order...",
	  "done.\n", files_enabled, phase_seq_create_prepare, phase_seq_create_run,
	  NULL, phase_files_cleanup, false, MAKES_FILES, NULL, NULL },
	{ PH_SEQ_STAT, "sequential stat", "Stat files in sequential order...",
	  "done.\n", files_enabled, NULL, phase_seq_stat_run,
	  phase_files_release, phase_files_cleanup, false,
	  MAKES_NOTHING, NULL, NULL },
	{ PH_SEQ_DEL, "sequential delete", "Delete files in sequential order...",
	  "done.\n", files_enabled, NULL, phase_seq_del_run,
	  NULL, phase_files_cleanup, false, MAKES_NOTHING, NULL, NULL },
	{ PH_RAN_CREATE, "random create", "Create files in random order...",
	  "done.\n", files_enabled, phase_ran_create_prepare, phase_ran_create_run,
	  NULL, phase_files_cleanup, false, MAKES_FILES, NULL, NULL },
	{ PH_RAN_STAT, "random stat", "Stat files in random order...",
	  "done.\n", files_enabled, phase_ran_stat_prepare, phase_ran_stat_run,
	  phase_files_release, phase_files_cleanup, false,
	  MAKES_NOTHING, NULL, NULL },
	{ PH_RAN_DEL, "random delete", "Delete files in random order...",
	  "done.\n", files_enabled, phase_ran_del_prepare, phase_ran_del_run,
	  NULL, phase_files_cleanup, false, MAKES_NOTHING, NULL, NULL },
	/* --dirs: after bonnie++'s phases, the same six for directories */
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

const size_t phase_count = sizeof(phase_table) / sizeof(phase_table[0]);

bool phase_runs_at(const struct phase_def *p, const struct config *cfg,
    bool first)
{
	return p->enabled(cfg) && (first || p->every_point);
}

unsigned phase_count_at(const struct config *cfg, bool first)
{
	unsigned n = 0;

	for (size_t i = 0; i < phase_count; i++)
		n += phase_runs_at(&phase_table[i], cfg, first);
	return n;
}

void phase_cleanup_all(struct phase_ctx *ctx)
{
	void (*done)(struct phase_ctx *) = NULL;

	for (size_t i = phase_count; i-- > 0;) {
		/* neighbours share a cleanup: once is enough */
		if (phase_table[i].cleanup != done)
			phase_table[i].cleanup(ctx);
		done = phase_table[i].cleanup;
	}
}
