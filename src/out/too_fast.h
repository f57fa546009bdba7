/*
 * out/too_fast.h: the line a run prints on the standard error when some
 * of bonnie++'s phases ran under 0.5 s and print +++++: the -s and -n
 * that would measure them, from the run's own times (clyde(1), -s).
 */
#ifndef CLYDE_OUT_TOO_FAST_H
#define CLYDE_OUT_TOO_FAST_H

#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "result.h"

/* What the target has free, UINT64_MAX where not known. */
struct too_fast_room {
	uint64_t free_mib;
	uint64_t free_inodes;
};

/* Nothing when no phase was too fast. */
void too_fast_hint(FILE *out, const struct config *cfg,
    const struct result *res, const struct too_fast_room *room);

#endif
