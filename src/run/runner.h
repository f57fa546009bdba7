/*
 * run/runner.h: one run of the benchmark (run/runner.c).
 */
#ifndef CLYDE_RUNNER_H
#define CLYDE_RUNNER_H

#include "config.h"
#include "result.h"

/*
 * Run every enabled phase of cfg, in a scratch directory made inside
 * the target open on target_fd (cfg->dir, setup_check_target()), into res[]: one record per point (config_points(), each made
 * by result_init_run()); *nres says how many were begun, first ones, in
 * order (a --chunks size that -D left out has none).  Returns an exit code (EXIT_OK, EXIT_USAGE for a bad
 * -Z file, EXIT_CANNOT_START, EXIT_IO_ERROR, EXIT_INTERRUPTED); the
 * scratch directory is gone on return unless a message says which path
 * is left.
 */
int phase_run_all(const struct config *cfg, int target_fd,
    struct result *res, unsigned *nres);

#endif
