/*
 * cli/setup.h: what must hold before clyde creates anything: the privilege
 * drop and the checks of the target directory.
 */
#ifndef CLYDE_SETUP_H
#define CLYDE_SETUP_H

#include "config.h"

/* Refuse root without -u, or drop to -u/-g and verify.  Exit code. */
int setup_privileges(const struct config *cfg);

/*
 * Target exists, is a writable directory with room for the test.  Exit
 * code; on EXIT_OK *target_fd is the target's descriptor (O_PATH where
 * there is one), which the checks were made on and the run uses, else -1.
 */
int setup_check_target(const struct config *cfg, int *target_fd);

/*
 * The descriptors the run will hold at once fit under RLIMIT_NOFILE,
 * raising the soft limit when the hard one allows: else a refusal now,
 * not EMFILE in the middle of a phase.  Exit code.
 */
int setup_check_descriptors(const struct config *cfg);

/* The -Z file can be read and holds 32-bit numbers.  Exit code. */
int setup_check_seed_file(const struct config *cfg);

/* "Using uid:N, gid:N." once the checks passed, as bonnie++ says it. */
void setup_announce(const struct config *cfg);

#endif
