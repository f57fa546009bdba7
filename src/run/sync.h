/*
 * run/sync.h: bonnie++'s synchronisation of several processes (-p, -y).
 * clyde uses bonnie++'s semaphore key, so clyde and bonnie++ runs can
 * start their phases together.
 */
#ifndef CLYDE_SYNC_H
#define CLYDE_SYNC_H

#include "config.h"
#include "result.h"

/* -p N makes the semaphore set, -p -1 removes it.  Exit code. */
int sync_setup(const struct config *cfg);

/* -y s: attach to the semaphore set before the run.  Exit code. */
int sync_attach(const struct config *cfg);

enum sync_outcome {
	SYNC_GO = 0,
	SYNC_FAILED = -1,       /* failed or interrupted; errno says which */
	SYNC_INPUT_ENDED = -2,  /* -y p: standard input ended */
	SYNC_USED_UP = -3       /* -y s: more runs than the set was made for */
};

/*
 * Before each phase: -y s waits until every process has reached it, -y p
 * waits for Enter, naming the phase by LABEL as the table does ("block
 * write").  Returns a sync_outcome.
 */
int sync_wait(const struct config *cfg, enum phase_id phase,
    const char *label);

#endif
