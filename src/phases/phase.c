/*
 * phases/phase.c: the table of families.  See phases/phase.h.
 */
#include "phases/phase.h"

extern const struct phase_family phase_family_io, phase_family_seek,
    phase_family_files, phase_family_dirs;

/*
 * The families in the order their phases run.  A new family is the file
 * phases/NAME.c that defines phase_family_NAME, declared here and given
 * its line of the table (tests/layering.sh checks that each has its file).
 */
const struct phase_family *const phase_families[] = {
	&phase_family_io,
	&phase_family_seek,
	&phase_family_files,
	&phase_family_dirs,
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
