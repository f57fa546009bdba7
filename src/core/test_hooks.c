/*
 * core/test_hooks.c: see core/test_hooks.h.  Without -DCLYDE_TEST_HOOKS every
 * hook is empty and the environment is never read.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/test_hooks.h"

#ifdef CLYDE_TEST_HOOKS

static char signal_phase[32];
static unsigned long signal_nth;        /* the start to signal, from 1 */
static bool signal_cleanup;
static const char *fail_rank;
static bool mark_phases;

void test_hooks_load(void)
{
	const char *phase = getenv("CLYDE_TEST_SIGNAL_PHASE");
	char *colon;

	signal_phase[0] = '\0';
	if (phase != NULL)
		snprintf(signal_phase, sizeof(signal_phase), "%s", phase);
	colon = strchr(signal_phase, ':');
	signal_nth = colon != NULL ? strtoul(colon + 1, NULL, 10) : 1;
	if (colon != NULL)
		*colon = '\0';
	signal_cleanup = getenv("CLYDE_TEST_SIGNAL_CLEANUP") != NULL;
	fail_rank = getenv("CLYDE_TEST_FAIL_RANK");
	mark_phases = getenv("CLYDE_TEST_MARK_PHASES") != NULL;
}

/* A call that strace shows with the step and the phase in its argument. */
static void mark(const char *step, enum phase_id id)
{
	char path[96];

	if (!mark_phases)
		return;
	snprintf(path, sizeof(path), "/clyde-test-mark/%s/%s", step,
	    phase_csv_name[id]);
	(void)access(path, F_OK);
}

void test_hook_phase_prepare(enum phase_id id)
{
	mark("prepare", id);
}

void test_hook_phase_start(enum phase_id id)
{
	mark("run", id);
	if (strcmp(signal_phase, phase_csv_name[id]) == 0 && --signal_nth == 0)
		raise(SIGINT);
}

void test_hook_cleanup_start(void)
{
	if (signal_cleanup)
		raise(SIGINT);
}

const char *test_hook_fail_rank(unsigned rank, enum phase_id id)
{
	char *end;
	long r;

	if (fail_rank == NULL)
		return NULL;
	r = strtol(fail_rank, &end, 10);
	if (end == fail_rank || r < 0 || (unsigned long)r != rank)
		return NULL;
	if (*end == '\0' ? id == PH_PUT_BLOCK :
	    *end == ':' && strcmp(end + 1, phase_csv_name[id]) == 0)
		return "failure injected by CLYDE_TEST_FAIL_RANK";
	return NULL;
}

long test_hook_sem_key(long def)
{
	const char *s = getenv("CLYDE_TEST_SEM_KEY");
	char *end;
	long key;

	if (s == NULL)
		return def;
	key = strtol(s, &end, 10);
	return end != s && *end == '\0' ? key : def;
}

#else

void test_hooks_load(void)
{
}

void test_hook_phase_prepare(enum phase_id id)
{
	(void)id;
}

void test_hook_phase_start(enum phase_id id)
{
	(void)id;
}

void test_hook_cleanup_start(void)
{
}

const char *test_hook_fail_rank(unsigned rank, enum phase_id id)
{
	(void)rank;
	(void)id;
	return NULL;
}

long test_hook_sem_key(long def)
{
	return def;
}

#endif
