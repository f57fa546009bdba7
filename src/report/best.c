/*
 * report/best.c: --best: per phase, each set's median against the best
 * set's, with the test of --compare's verdicts (report/compare.c).
 */
#include <stdbool.h>
#include <stdlib.h>

#include "report/set.h"
#include "report/set_items.h"

/* Whether group g takes part: the sets outside chunk sweeps. */
static bool in_best(const struct report_set *set, size_t g)
{
	return report_set_place(set, set->groups[g].first)->sweep < 0;
}

/*
 * One measurement of every set against the best set's: the highest
 * median rate, or the lowest median latency.  out[g * PH_COUNT + ph].
 */
static void best_of(struct report_set *set, enum phase_id ph, bool latency,
    struct report_best *out)
{
	long best = -1;
	size_t g;

	for (g = 0; g < set->ngroups; g++) {
		const struct report_spread *sp = latency ?
		    &set->groups[g].lat_spread[ph] : &set->groups[g].spread[ph];
		const struct report_spread *bp;

		if (!in_best(set, g) || sp->runs == 0)
			continue;
		if (best < 0) {
			best = (long)g;
			continue;
		}
		bp = latency ? &set->groups[best].lat_spread[ph] :
		    &set->groups[best].spread[ph];
		if (latency ? sp->median < bp->median : sp->median > bp->median)
			best = (long)g;
	}
	if (best < 0)
		return;
	for (g = 0; g < set->ngroups; g++) {
		const struct report_group *b = &set->groups[best], *grp =
		    &set->groups[g];
		const struct report_spread *bp = latency ? &b->lat_spread[ph] :
		    &b->spread[ph];
		const struct report_spread *sp = latency ? &grp->lat_spread[ph] :
		    &grp->spread[ph];
		struct report_best *c = &out[g * PH_COUNT + ph];

		if (!in_best(set, g) || sp->runs == 0 || !(bp->median > 0))
			continue;
		c->has = true;
		c->percent = sp->median / bp->median * 100.0;
		/* a tie is a best too */
		c->best = sp->median == bp->median;
		if (c->best)
			continue;
		set_judge(bp, sp, latency ?
		    set_latency_slack((double)b->mean.cell[ph].latency_us) +
		    set_latency_slack((double)grp->mean.cell[ph].latency_us) :
		    b->mean.cell[ph].rate_precision +
		    grp->mean.cell[ph].rate_precision, latency, &c->v);
	}
}

int report_set_best(struct report_set *set)
{
	int ph;

	free(set->best);
	set->best = NULL;
	if (set->ngroups == 0)
		return 0;
	set->best = calloc(2 * set->ngroups * PH_COUNT, sizeof(*set->best));
	if (set->best == NULL)
		return -1;
	for (ph = 0; ph < PH_COUNT; ph++) {
		best_of(set, (enum phase_id)ph, false, set->best);
		best_of(set, (enum phase_id)ph, true,
		    set->best + set->ngroups * PH_COUNT);
	}
	return 0;
}

const struct report_best *report_set_best_of(const struct report_set *set,
    long g, bool latency)
{
	const struct report_best *b;
	int ph;

	if (set->best == NULL || g < 0 || (size_t)g >= set->ngroups)
		return NULL;
	b = set->best + (latency ? set->ngroups * PH_COUNT : 0) +
	    (size_t)g * PH_COUNT;
	for (ph = 0; ph < PH_COUNT; ph++)
		if (b[ph].has)
			return b;
	return NULL;
}

