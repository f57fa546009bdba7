/*
 * stall.h: a phase that makes no progress (stall.c).  A network
 * filesystem whose server stops answering leaves a call hanging, often
 * where no signal reaches it (an NFS hard mount).  A watcher thread sees
 * that the meters of the running phase have not moved for --stall
 * seconds and says on stderr which call has not returned, on which path,
 * for how long, again at growing intervals; so the user sees that it is
 * the filesystem, not clyde.  While a call hangs, the watcher also takes
 * the stop signals that the stuck thread cannot: the first stops the run
 * as usual, a second one kills the seekers and exits 5, naming the
 * scratch directory to remove.
 */
#ifndef CLYDE_STALL_H
#define CLYDE_STALL_H

#include <stdatomic.h>

#include "config.h"

struct phase_meter;

/*
 * Start and stop the watcher around the phases (nothing with --stall=0).
 * scratch: the scratch directory's path, named where the call cannot be
 * seen; left_behind: the message for an exit with the run stuck, with
 * the command that removes it.  Both must live until stall_stop().
 */
void stall_start(const struct config *cfg, const char *scratch,
    const char *left_behind);
void stall_stop(void);

/*
 * The calling thread runs a phase (label) and counts in meter; the
 * watcher checks it until stall_unwatch().  Several threads may be
 * watched at once (the copies of -c).
 */
void stall_watch(const struct phase_meter *meter, const char *label);
void stall_unwatch(const struct phase_meter *meter);

/*
 * Work that other processes count for the phase that meter watches (the
 * seekers' shared counter); NULL before that memory goes.
 */
void stall_watch_also(const struct phase_meter *meter, const atomic_uint *also);

#endif
