/*
 * dist/local.c: the one rank of a plain clyde run.  See dist/dist.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"

int dist_init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int dist_finalize(void)
{
	return 0;
}

unsigned dist_rank(void)
{
	return 0;
}

unsigned dist_size(void)
{
	return 1;
}

bool dist_has_ranks(void)
{
	return false;
}

bool dist_all_ok(bool ok)
{
	return ok;
}

void dist_share_rank0(char *text, size_t len)
{
	/* rank 0's is this one's */
	(void)text;
	(void)len;
}

bool dist_one_host(void)
{
	return true;
}

bool dist_exchange(const void *mine, size_t len, unsigned from, void *theirs)
{
	/* the one rank is rank 0 */
	if (from != 0 || len > DIST_SHARE_MAX)
		return false;
	memcpy(theirs, mine, len);
	return true;
}

bool dist_all_ok_why(const char *why, char *first, size_t len)
{
	if (why != NULL)
		snprintf(first, len, "%s", why);
	return why == NULL;
}

void dist_signal_stop(void)
{
}

void dist_poll(void)
{
}

int dist_phase_done(const struct dist_phase *mine, int64_t start_ns,
    struct phase_figures *pf, enum phase_id id, struct rank_figures *ranks,
    char *error, size_t error_len)
{
	(void)start_ns;
	(void)id;
	(void)ranks;
	(void)error;
	(void)error_len;
	pf->ops = mine->ops;
	pf->bytes = mine->bytes;
	pf->readdir_passes = mine->readdir_passes;
	pf->cpu_ns = mine->cpu_ns;
	pf->elapsed_ns = mine->elapsed_ns;
	if (mine->rc == 0) {
		pf->ran = true;
		latency_summarize(mine->lat, &pf->lat);
	}
	return mine->rc;
}

void dist_gather_hosts(struct rank_figures *ranks)
{
	(void)ranks;
}

void dist_watch(unsigned silent_s)
{
	(void)silent_s;
}

void dist_share_scratch(const char *path)
{
	(void)path;
}

bool dist_split(void)
{
	return false;
}

void dist_split_child(void)
{
}

_Noreturn void dist_serve(bool (*look)(void), struct phase_meter *meter)
{
	/* never called: dist_split() said no */
	(void)look;
	(void)meter;
	abort();
}

bool dist_child_killed(const char *why, const char *left)
{
	/* no other rank to tell */
	(void)why;
	(void)left;
	return false;
}

void dist_job_ends(void)
{
}
