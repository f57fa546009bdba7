/*
 * phases/phase.c: the table of families.  See phases/phase.h.
 */
#include "phases/phase.h"

/*
 * The families in the order their phases run, each defined in its file
 * of phases/ (io_family in phases/io.c): a family is that file and its
 * line here.
 */
#define PHASE_FAMILIES(F) \
	F(io_family)            /* per-char and block I/O */ \
	F(seek_family)          /* random seeks */ \
	F(files_family)         /* small files */ \
	F(dirs_family)          /* --dirs */

#define DECLARE(family) extern const struct phase_family family;
PHASE_FAMILIES(DECLARE)

#define ENTRY(family) &family,
const struct phase_family *const phase_families[] = {
	PHASE_FAMILIES(ENTRY)
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
