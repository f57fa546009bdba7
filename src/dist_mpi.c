/*
 * dist_mpi.c: the ranks of clyde-mpi over MPI.  See dist.h.
 *
 * No home-made protocol: collectives for the meetings and the figures,
 * one small point-to-point message per rank to stop the others early.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dist.h"
#include "phase_ctx.h"
#include "stop.h"

#define TAG_STOP 1

static int rank, size = 1;
static bool stop_sent;
static unsigned char stop_token;
static MPI_Request *stop_req;

int dist_init(int *argc, char ***argv)
{
	int provided;

	/*
	 * A rank started as root drops to -u's user after MPI_Init: before
	 * it, Open MPI's PMIx client cannot use the files mpirun's daemon
	 * made as root.  Its shared-memory transport (vader) then fails: its
	 * segment in /dev/shm is root's and cannot be unlinked, and reading
	 * a peer's memory (process_vm_readv) is refused to a process that
	 * changed its uid (EPERM, "Read -1, expected 8192, errno = 1").  So
	 * these ranks talk over TCP, unless the user chose the transports.
	 */
	if (geteuid() == 0)
		setenv("OMPI_MCA_btl", "self,tcp", 0);
	/* the copies of -c are refused with MPI: one thread calls MPI */
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) !=
	    MPI_SUCCESS)
		return -1;
	/* errors come back as codes, so that a rank can clean up first */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	return 0;
}

void dist_finalize(void)
{
	int i;

	if (stop_req != NULL) {
		for (i = 0; i < size; i++)
			if (i != rank)
				MPI_Wait(&stop_req[i], MPI_STATUS_IGNORE);
		free(stop_req);
		stop_req = NULL;
	}
	MPI_Finalize();
}

unsigned dist_rank(void)
{
	return (unsigned)rank;
}

unsigned dist_size(void)
{
	return (unsigned)size;
}

/*
 * Wait for a collective without spinning: MPI's busy wait would take the
 * CPU from ranks still working on the same host.  A rank notices the
 * end within about 0.1 ms, which is what rank 0's clock may overstate.
 */
static int wait_sleeping(MPI_Request *req)
{
	struct timespec nap = { 0, 100000 };
	int done = 0;

	for (;;) {
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		if (done)
			return 0;
		nanosleep(&nap, NULL);
	}
}

/* MPI_Allreduce of ints, waited for without spinning */
static int allreduce_int(int *mine, int *all, int n, MPI_Op op)
{
	MPI_Request req;

	if (MPI_Iallreduce(mine, all, n, MPI_INT, op, MPI_COMM_WORLD, &req) !=
	    MPI_SUCCESS)
		return -1;
	return wait_sleeping(&req);
}

bool dist_all_ok(bool ok)
{
	int mine = ok, all = 0;

	if (allreduce_int(&mine, &all, 1, MPI_MIN) != 0)
		return false;
	return all != 0;
}

void dist_signal_stop(void)
{
	int i;

	if (stop_sent || size < 2)
		return;
	stop_req = calloc((size_t)size, sizeof(*stop_req));
	if (stop_req == NULL)
		return;
	stop_sent = true;
	for (i = 0; i < size; i++)
		if (i != rank)
			MPI_Isend(&stop_token, 1, MPI_UNSIGNED_CHAR, i, TAG_STOP,
			    MPI_COMM_WORLD, &stop_req[i]);
}

void dist_poll(void)
{
	int flag = 0;

	if (size < 2)
		return;
	MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD, &flag,
	    MPI_STATUS_IGNORE);
	if (flag)
		phase_stop = 1;
}

/*
 * Receive the stop messages that were sent for this phase, so none is
 * left pending for the next one or for MPI_Finalize.
 */
static void drain_stops(int senders)
{
	int i, from_me = stop_sent ? 1 : 0;
	unsigned char token;

	for (i = 0; i < senders - from_me; i++)
		MPI_Recv(&token, 1, MPI_UNSIGNED_CHAR, MPI_ANY_SOURCE, TAG_STOP,
		    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* The failed rank with the lowest number tells the others what happened. */
static void share_error(const struct dist_phase *mine, char *error,
    size_t error_len)
{
	char msg[512];
	int failed = mine->rc == PHASE_ERROR ? rank : INT_MAX, first = INT_MAX;

	MPI_Allreduce(&failed, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (first == INT_MAX)
		return;
	memset(msg, 0, sizeof(msg));
	if (rank == first)
		snprintf(msg, sizeof(msg), "%s", mine->error);
	MPI_Bcast(msg, sizeof(msg), MPI_CHAR, first, MPI_COMM_WORLD);
	if (rank != first)
		snprintf(error, error_len, "rank %d failed: %s", first, msg);
}

static void merge_latency(const struct latency *mine, struct latency *all)
{
	MPI_Reduce(mine->bucket, all->bucket, LAT_BUCKETS, MPI_UINT64_T,
	    MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&mine->count, &all->count, 1, MPI_UINT64_T, MPI_SUM, 0,
	    MPI_COMM_WORLD);
	MPI_Reduce(&mine->sum_ns, &all->sum_ns, 1, MPI_UINT64_T, MPI_SUM, 0,
	    MPI_COMM_WORLD);
	MPI_Reduce(&mine->max_ns, &all->max_ns, 1, MPI_UINT64_T, MPI_MAX, 0,
	    MPI_COMM_WORLD);
}

/* Every rank's own figures of this phase, on rank 0. */
static void gather_own(const struct dist_phase *mine, enum phase_id id,
    struct rank_figures *ranks)
{
	struct phase_figures own, *all = NULL;
	int i;

	memset(&own, 0, sizeof(own));
	own.ran = mine->rc == PHASE_OK;
	own.ops = mine->ops;
	own.bytes = mine->bytes;
	own.readdir_passes = mine->readdir_passes;
	own.elapsed_ns = mine->elapsed_ns;
	own.cpu_ns = mine->cpu_ns;
	if (own.ran)
		latency_summarize(mine->lat, &own.lat);
	if (rank == 0)
		all = calloc((size_t)size, sizeof(*all));
	MPI_Gather(&own, sizeof(own), MPI_BYTE, all, sizeof(own), MPI_BYTE, 0,
	    MPI_COMM_WORLD);
	if (rank == 0 && all != NULL && ranks != NULL)
		for (i = 0; i < size; i++)
			ranks[i].phase[id] = all[i];
	free(all);
}

int dist_phase_done(const struct dist_phase *mine, int64_t start_ns,
    struct phase_figures *pf, enum phase_id id, struct rank_figures *ranks,
    char *error, size_t error_len)
{
	static struct latency all_lat;
	uint64_t sums[3] = { mine->ops, mine->bytes, (uint64_t)mine->cpu_ns };
	uint64_t all_sums[3] = { 0, 0, 0 };
	int64_t longest = 0;
	unsigned passes = 0;
	int mine_rc[2] = { mine->rc, mine->rc != PHASE_OK }, all_rc[2] = { 0, 0 };
	int worst, senders;

	if (mine->rc != PHASE_OK)
		dist_signal_stop();
	/*
	 * The lowest rc (-2 stopped < -1 error < 0 ok) and how many ranks
	 * failed.  When it returns, the slowest rank has ended: the phase's
	 * clock stops here.
	 */
	mine_rc[1] = -mine_rc[1];
	allreduce_int(mine_rc, all_rc, 2, MPI_MIN);
	if (rank == 0)
		pf->elapsed_ns = now_ns() - start_ns;
	worst = all_rc[0];
	/* any failure: then count the senders of stop messages */
	senders = 0;
	if (all_rc[1] != 0) {
		int stopped = mine->rc != PHASE_OK;

		MPI_Allreduce(&stopped, &senders, 1, MPI_INT, MPI_SUM,
		    MPI_COMM_WORLD);
	}
	drain_stops(senders);
	share_error(mine, error, error_len);
	if (worst == PHASE_STOPPED) {
		/* an error on any rank is an error for all; else a stop */
		int err = mine->rc == PHASE_ERROR, any_err = 0;

		MPI_Allreduce(&err, &any_err, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
		worst = any_err ? PHASE_ERROR : PHASE_STOPPED;
	}
	MPI_Reduce(sums, all_sums, 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	/*
	 * A rank that left the meeting before rank 0 did started earlier than
	 * rank 0's clock says: the phase lasted at least as long as any rank.
	 */
	MPI_Reduce(&mine->elapsed_ns, &longest, 1, MPI_INT64_T, MPI_MAX, 0,
	    MPI_COMM_WORLD);
	if (rank == 0 && longest > pf->elapsed_ns)
		pf->elapsed_ns = longest;
	MPI_Reduce(&mine->readdir_passes, &passes, 1, MPI_UNSIGNED, MPI_MAX, 0,
	    MPI_COMM_WORLD);
	memset(&all_lat, 0, sizeof(all_lat));
	merge_latency(mine->lat, &all_lat);
	gather_own(mine, id, ranks);
	if (worst != PHASE_OK || rank != 0)
		return worst;
	pf->ran = true;
	pf->ops = all_sums[0];
	pf->bytes = all_sums[1];
	pf->readdir_passes = passes;
	pf->cpu_ns = (int64_t)all_sums[2];
	latency_summarize(&all_lat, &pf->lat);
	return PHASE_OK;
}

void dist_gather_hosts(struct rank_figures *ranks)
{
	char host[64], *all = NULL;
	int i;

	memset(host, 0, sizeof(host));
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "?");
	if (rank == 0)
		all = calloc((size_t)size, sizeof(host));
	MPI_Gather(host, sizeof(host), MPI_CHAR, all, sizeof(host), MPI_CHAR, 0,
	    MPI_COMM_WORLD);
	if (rank == 0 && all != NULL && ranks != NULL)
		for (i = 0; i < size; i++)
			memcpy(ranks[i].host, all + (size_t)i * sizeof(host),
			    sizeof(host));
	free(all);
}
