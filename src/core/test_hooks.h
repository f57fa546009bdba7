/*
 * core/test_hooks.h: ways for the tests to stop or fail a run at a chosen
 * point without depending on timing (core/test_hooks.c).  They read the
 * environment only in a build with -DCLYDE_TEST_HOOKS, the one the test
 * suite makes (build/tests/clyde-hooks, build/tests/clyde-mpi-hooks); in
 * clyde as built and installed every hook does nothing.
 *
 *   CLYDE_TEST_SIGNAL_PHASE=<CSV name>[:N]  SIGINT when that phase's
 *                                       timed run starts ("seq_create",
 *                                       ...), the Nth time (default 1:
 *                                       a --chunks sweep runs it again)
 *   CLYDE_TEST_SIGNAL_CLEANUP=1         SIGINT when cleanup starts: after
 *                                       a first signal, the second one
 *   CLYDE_TEST_FAIL_RANK=N[:<CSV name>] rank N fails that phase with EIO
 *                                       (put_block when none is named)
 *   CLYDE_TEST_SEM_KEY=N                the key of -p and -y s instead of
 *                                       bonnie++'s 4711, so that a test
 *                                       never touches a real run's set
 *   CLYDE_TEST_MARK_PHASES=1            before each phase's prepare() and
 *                                       at the start of its timed run,
 *                                       access() on a path that names
 *                                       them, "/clyde-test-mark/prepare/
 *                                       put_block" and ".../run/put_block",
 *                                       which strace shows
 *                                       (tests/e2e/sync.sh counts the
 *                                       syncs of each phase)
 */
#ifndef CLYDE_TEST_HOOKS_H
#define CLYDE_TEST_HOOKS_H

#include "result.h"

/* Read the environment once, before the run. */
void test_hooks_load(void);

/* Phase id's prepare() is about to run (in the thread shown on progress). */
void test_hook_phase_prepare(enum phase_id id);

/* The timed run of phase id starts (in the thread shown on progress). */
void test_hook_phase_start(enum phase_id id);

/* Cleanup starts. */
void test_hook_cleanup_start(void);

/* When rank must fail phase id, the operation to name; else NULL. */
const char *test_hook_fail_rank(unsigned rank, enum phase_id id);

/* The SysV semaphore key of -p and -y s: def, or the test's own. */
long test_hook_sem_key(long def);

#endif
