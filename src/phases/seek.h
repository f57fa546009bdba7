/*
 * phases/seek.h: random seeks in the data files by forked seeker
 * processes (phases/seek.c).
 */
#ifndef CLYDE_PHASE_SEEK_H
#define CLYDE_PHASE_SEEK_H

#include "phases/ctx.h"

int phase_seeks_prepare(struct phase_ctx *ctx);
int phase_seeks_run(struct phase_ctx *ctx);
/* Unmap the shared positions; safe to call at any point, twice. */
void phase_seeks_cleanup(struct phase_ctx *ctx);
/* phases/phase.h's descriptors(): the data files, as the seeks open them */
unsigned long phase_seeks_descriptors(const struct config *cfg,
    const char **fewer);

#endif
