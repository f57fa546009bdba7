/*
 * dist/mpi.c: the ranks of clyde-mpi over MPI, in the parent of each
 * rank's measuring process.  See dist/dist.h: the measuring process asks
 * (dist/proxy.c, dist/proxy.h), this process makes the MPI calls and
 * answers; between requests it beats and looks for a stop.
 *
 * Collectives for the meetings and the figures, one small point-to-point
 * message per rank to stop the others early.  Each rank sends a beat
 * every second, rank 0 to every rank and every rank to rank 0, also
 * while its measuring process works or is stuck in a call, but not while
 * that process is stopped: a rank that is not heard from is stopped or
 * cut off, not slow.  A meeting that waits longer than dist_watch()'s
 * limit for a rank not heard from that long ends the run: rank 0 tells the others (TAG_LOST), each removes its own
 * files, rank 0 waits for those still heard from (TAG_DONE), lets them go
 * (TAG_BYE) and they exit without MPI_Finalize(), which would wait for
 * the lost rank.  A rank whose measuring process is killed says so to
 * rank 0 (TAG_KILLED), which gives the run up the same way, and takes
 * part in the parting: its own exit would make mpirun end the job before
 * the others have cleaned up.
 */
#include <limits.h>
#include <mpi.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dist/dist.h"
#include "dist/proxy.h"
#include "phases/ctx.h"
#include "core/stop.h"
#include "lib/text.h"

#define TAG_STOP 1
#define TAG_BEAT 2
#define TAG_LOST 3
#define TAG_DONE 4
#define TAG_BYE  5
#define TAG_FIRST 6
#define TAG_KILLED 7

#define HOST_LEN PROXY_HOST_LEN
#define NS       1000000000LL
/* how often a meeting looks for lost ranks */
#define LOOK_NS  (50 * 1000000LL)
/* how often the parent tends to the rest while a request waits */
#define TEND_NS  (10 * 1000000LL)
/* how long it waits for a request at most before it tends to the rest */
#define IDLE_MS  100

static int rank, size = 1;
static bool stop_sent;
static unsigned char stop_token;
static MPI_Request *stop_req;

static char (*hosts)[HOST_LEN];         /* every rank's, from the start */
static char (*scratch_of)[PATH_MAX];    /* rank 0: every rank's scratch */
static int64_t *heard;                  /* when each rank was last heard */
static int64_t silent_ns;               /* dist_watch(); 0: no limit */
static bool *lost;                      /* the ranks given up */
static bool abandoned;                  /* the run stops without them */
static bool lost_told;                  /* lost_msg went out as an error */
static char lost_msg[3 * PATH_MAX + 400];
static MPI_Request *lost_req;           /* rank 0's TAG_LOST sends */
static bool beat_on;                    /* beats sent and heard */
static MPI_Request *beat_req;           /* the last beat to each peer */
static int64_t next_beat, next_tend;
static bool (*look)(void);              /* the supervisor's round */
static bool child_running = true;       /* not stopped, as look() says */
static bool mpi_on;                     /* the ranks can be told */
static bool ending;                     /* dist_job_ends(): nobody waits */
/* dist_child_killed(): the measuring process was, and what it left */
static bool killed;
static char killed_why[128], killed_left[3 * PATH_MAX + 64];

/*
 * First done: each rank, as its measuring process ends a phase, tells
 * every other rank (TAG_FIRST, the phase's number); a rank that hears it
 * while its own still works notes the work its meter shows then.
 */
static struct phase_meter *child_meter; /* shared with the measuring process */
static int phase_seq;                   /* the phases ended so far */
static bool first_seen;                 /* this phase's first end, noted */
static uint64_t first_ops;
static int64_t first_at;                /* when, or -1: this rank ended first */
static int first_heard;                 /* TAG_FIRST of this phase received */

static int wait_sleeping(MPI_Request *req);

/* src into dst[n], cut short when it is longer */
static void copy_msg(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);

	if (n == 0)
		return;
	if (len >= n)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static void nap_ns(long ns)
{
	struct timespec t = { ns / NS, ns % NS };

	nanosleep(&t, NULL);
}

/* rank 0 talks with every rank, the others with rank 0 only */
static bool peer(int i)
{
	return i != rank && (rank == 0 || i == 0);
}

/*
 * The beats: received from any peer, sent every second to each peer
 * whose last beat has left, unless the measuring process is stopped.
 * A rank stuck in a call still beats: this process is not in it.
 */
static void beats(int64_t now)
{
	/* MPI may read it after this returns */
	static unsigned char out;
	unsigned char in;
	MPI_Status st;
	int i, flag = 0;

	while (MPI_Iprobe(MPI_ANY_SOURCE, TAG_BEAT, MPI_COMM_WORLD, &flag,
	    &st) == MPI_SUCCESS && flag) {
		MPI_Recv(&in, 1, MPI_UNSIGNED_CHAR, st.MPI_SOURCE, TAG_BEAT,
		    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		heard[st.MPI_SOURCE] = now;
	}
	if (now < next_beat || !child_running)
		return;
	next_beat = now + NS;
	for (i = 0; i < size; i++) {
		int done = 1;

		if (!peer(i))
			continue;
		if (beat_req[i] != MPI_REQUEST_NULL)
			MPI_Test(&beat_req[i], &done, MPI_STATUS_IGNORE);
		if (done)
			MPI_Isend(&out, 1, MPI_UNSIGNED_CHAR, i, TAG_BEAT,
			    MPI_COMM_WORLD, &beat_req[i]);
	}
}

/* No more beats: MPI ends, or is left as it is. */
static void beat_stop(void)
{
	int i;

	if (!beat_on)
		return;
	beat_on = false;
	/* a beat still on its way goes on without us */
	for (i = 0; i < size; i++)
		if (beat_req[i] != MPI_REQUEST_NULL)
			MPI_Request_free(&beat_req[i]);
}

static bool lost_heard(void);
static bool killed_heard(void);

/*
 * The work the measuring process has done so far in the running phase:
 * its meter, or the seeks taken, which the seekers count as they go
 * (their work reaches the meter as the phase ends).
 */
static uint64_t work_so_far(void)
{
	struct phase_meter *m = child_meter;
	uint64_t ops;

	if (m == NULL)
		return 0;
	ops = __atomic_load_n(&m->ops, __ATOMIC_RELAXED);
	return ops != 0 ? ops :
	    atomic_load_explicit(&m->next_seek, memory_order_relaxed);
}

/*
 * Another rank's end of a phase: the first one heard while this rank's
 * measuring process still works (running) is noted.
 */
static void first_heard_look(bool running)
{
	MPI_Status st;
	int flag = 0, seq;

	while (MPI_Iprobe(MPI_ANY_SOURCE, TAG_FIRST, MPI_COMM_WORLD, &flag,
	    &st) == MPI_SUCCESS && flag) {
		MPI_Recv(&seq, 1, MPI_INT, st.MPI_SOURCE, TAG_FIRST,
		    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		first_heard++;
		if (first_seen || seq != phase_seq || !running)
			continue;
		first_seen = true;
		first_ops = work_so_far();
		first_at = now_ns();
	}
}

/*
 * What this process does besides the requests, at most every TEND_NS:
 * the supervisor's round (which exits when the measuring process has
 * ended), the beats, and a stop from another rank or rank 0's word that
 * one is lost, for dist_poll().  Called while it waits for a request and
 * while a request waits for the other ranks.
 */
static void tend(void)
{
	int64_t now = now_ns();
	int flag = 0;

	if (now < next_tend)
		return;
	next_tend = now + TEND_NS;
	if (look != NULL)
		child_running = look();
	if (!beat_on)
		return;
	beats(now);
	first_heard_look(true);
	if (killed_heard())
		atomic_store(&proxy_shared->stop, 1);
	if (atomic_load(&proxy_shared->stop))
		return;
	MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD, &flag,
	    MPI_STATUS_IGNORE);
	if (flag || lost_heard())
		atomic_store(&proxy_shared->stop, 1);
}

/* Every rank's host name on every rank; the beats start. */
static int watch_start(void)
{
	char host[HOST_LEN];
	int64_t now = now_ns();
	int i;

	hosts = calloc((size_t)size, sizeof(*hosts));
	heard = calloc((size_t)size, sizeof(*heard));
	lost = calloc((size_t)size, sizeof(*lost));
	beat_req = calloc((size_t)size, sizeof(*beat_req));
	if (rank == 0)
		scratch_of = calloc((size_t)size, sizeof(*scratch_of));
	if (hosts == NULL || heard == NULL || lost == NULL || beat_req == NULL ||
	    (rank == 0 && scratch_of == NULL))
		return -1;
	memset(host, 0, sizeof(host));
	if (gethostname(host, sizeof(host) - 1) != 0)
		strcpy(host, "?");
	if (MPI_Allgather(host, HOST_LEN, MPI_CHAR, hosts, HOST_LEN, MPI_CHAR,
	    MPI_COMM_WORLD) != MPI_SUCCESS)
		return -1;
	for (i = 0; i < size; i++) {
		heard[i] = now;
		beat_req[i] = MPI_REQUEST_NULL;
	}
	beat_on = size > 1;
	return 0;
}

/*
 * MPI starts in this process, the parent of the measuring one, which
 * keeps the credentials it was started with (the measuring process may
 * drop them for -u): its shared-memory transport works as root too.
 */
static int start_mpi(void)
{
	if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
		return -1;
	/* errors come back as codes, so that a rank can clean up first */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (watch_start() != 0) {
		MPI_Abort(MPI_COMM_WORLD, EXIT_CANNOT_START);
		return -1;
	}
	return 0;
}

/*
 * Wait for the requests req[i] (MPI_REQUEST_NULL: none) of rank i, each
 * while rank i is heard from (with --stall=0, as long as it takes);
 * those still pending are cancelled.
 */
static void wait_heard(MPI_Request *req, int n)
{
	int64_t limit = silent_ns;
	int i, left;

	do {
		int64_t now = now_ns();

		left = 0;
		for (i = 0; i < n; i++) {
			int done = 0;

			if (req[i] == MPI_REQUEST_NULL)
				continue;
			MPI_Test(&req[i], &done, MPI_STATUS_IGNORE);
			if (!done && (limit == 0 || now - heard[i] <= limit))
				left++;
		}
		if (left > 0) {
			nap_ns(10 * 1000000L);
			tend();
		}
	} while (left > 0);
	for (i = 0; i < n; i++)
		if (req[i] != MPI_REQUEST_NULL) {
			MPI_Cancel(&req[i]);
			MPI_Request_free(&req[i]);
		}
}

/*
 * The run was given up for a lost rank, and this rank has cleaned up:
 * rank 0 waits for the others still heard from to say so, then lets
 * them go; none waits for a rank not heard from.
 */
static void part_ways(void)
{
	/* MPI may read and write them after this returns */
	static unsigned char token, sink;
	MPI_Request *req = calloc((size_t)size, sizeof(*req));
	int i;

	if (req == NULL)
		return;
	for (i = 0; i < size; i++)
		req[i] = MPI_REQUEST_NULL;
	if (rank != 0) {
		MPI_Isend(&token, 1, MPI_UNSIGNED_CHAR, 0, TAG_DONE,
		    MPI_COMM_WORLD, &req[rank]);
		MPI_Irecv(&sink, 1, MPI_UNSIGNED_CHAR, 0, TAG_BYE,
		    MPI_COMM_WORLD, &req[0]);
		wait_heard(req, 1);
		/* the DONE went with the BYE's answer, or never will */
		MPI_Request_free(&req[rank]);
	} else {
		if (lost_req != NULL)
			wait_heard(lost_req, size);
		for (i = 1; i < size; i++)
			if (!lost[i])
				MPI_Irecv(&sink, 1, MPI_UNSIGNED_CHAR, i,
				    TAG_DONE, MPI_COMM_WORLD, &req[i]);
		wait_heard(req, size);
		/* a rank's word that it was killed came before its DONE */
		killed_heard();
		for (i = 1; i < size; i++)
			if (!lost[i])
				MPI_Isend(&token, 1, MPI_UNSIGNED_CHAR, i,
				    TAG_BYE, MPI_COMM_WORLD, &req[i]);
		wait_heard(req, size);
	}
	free(req);
}

/* Rank 0's word that a rank is lost, if it came: the run stops. */
static bool lost_heard(void)
{
	MPI_Status st;
	int flag = 0;

	if (rank == 0 || MPI_Iprobe(0, TAG_LOST, MPI_COMM_WORLD, &flag, &st) !=
	    MPI_SUCCESS || !flag)
		return false;
	memset(lost_msg, 0, sizeof(lost_msg));
	MPI_Recv(lost_msg, sizeof(lost_msg) - 1, MPI_CHAR, 0, TAG_LOST,
	    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	abandoned = true;
	return true;
}

/*
 * Rank 0 gives the run up for why, which lost_msg says in full: every
 * other rank still heard from but except (-1: none) is told (TAG_LOST).
 */
static void give_up(const char *why, int except)
{
	/* sent to the others: MPI reads it after this returns */
	static char told[sizeof(lost_msg)];
	int i;

	abandoned = true;
	snprintf(told, sizeof(told), "stopped by rank 0: %s", why);
	lost_req = calloc((size_t)size, sizeof(*lost_req));
	for (i = 0; lost_req != NULL && i < size; i++) {
		lost_req[i] = MPI_REQUEST_NULL;
		if (peer(i) && !lost[i] && i != except)
			MPI_Isend(told, (int)strlen(told) + 1, MPI_CHAR, i,
			    TAG_LOST, MPI_COMM_WORLD, &lost_req[i]);
	}
}

/*
 * In a meeting: true when the run is given up, for a peer not heard from
 * for longer than the limit (rank 0 then tells the others why) or on
 * rank 0's word.
 */
static bool lost_look(void)
{
	int64_t limit = silent_ns, now = now_ns(), quiet = 0;
	int i, first = -1, more = 0;
	char why[256], quoted[2 * PATH_MAX];

	if (abandoned || lost_heard())
		return true;
	if (limit == 0)
		return false;
	for (i = 0; i < size; i++) {
		int64_t q = now - heard[i];

		if (!peer(i) || q <= limit)
			continue;
		lost[i] = true;
		if (first < 0) {
			first = i;
			quiet = q;
		} else {
			more++;
		}
	}
	if (first < 0)
		return false;
	abandoned = true;
	snprintf(why, sizeof(why), "rank %d (%s)%s has not answered for %lld s",
	    first, hosts[first], more > 0 ? " and more" : "",
	    (long long)(quiet / NS));
	/* the lost rank's own files: rank 0 names them, none removes them */
	if (rank == 0 && scratch_of != NULL && scratch_of[first][0] != '\0') {
		shell_quote(quoted, sizeof(quoted), scratch_of[first]);
		snprintf(lost_msg, sizeof(lost_msg), "%s: stopping; what it "
		    "made may be left: rm -rf %s", why, quoted);
	} else {
		snprintf(lost_msg, sizeof(lost_msg), "%s: stopping", why);
	}
	if (rank == 0)
		give_up(why, -1);
	return true;
}

/*
 * Rank 0: the word that the measuring process of rank who was killed (why)
 * and what it left (child_lost()).  The first gives the run up, unless
 * it already was: true then, and lost_msg names the rank, its host, why
 * and what it left, for this rank's measuring process to say.  Once the
 * run is given up, each word is said here at once.
 */
static bool killed_said(int who, const char *why, const char *left)
{
	char what[HOST_LEN + sizeof(killed_why) + 32];

	snprintf(what, sizeof(what), "rank %d (%s): %s", who, hosts[who], why);
	if (abandoned) {
		fprintf(stderr, "clyde: %s: stopping; %s\n", what, left);
		return false;
	}
	snprintf(lost_msg, sizeof(lost_msg), "%s: stopping; %s", what, left);
	/* that rank knows, and takes part in the parting */
	give_up(what, who);
	return true;
}

/* Rank 0: every word of a killed measuring process; true for a first */
static bool killed_heard(void)
{
	char msg[sizeof(killed_why) + sizeof(killed_left)];
	MPI_Status st;
	int flag = 0;
	bool first = false;

	while (rank == 0 && MPI_Iprobe(MPI_ANY_SOURCE, TAG_KILLED,
	    MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && flag) {
		size_t why_len;

		memset(msg, 0, sizeof(msg));
		MPI_Recv(msg, sizeof(msg) - 1, MPI_CHAR, st.MPI_SOURCE,
		    TAG_KILLED, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		/* why, then what it left, each with its '\0' */
		why_len = strnlen(msg, sizeof(msg) - 2);
		msg[why_len] = '\0';
		first = killed_said(st.MPI_SOURCE, msg, msg + why_len + 1) ||
		    first;
	}
	return first;
}

/* dist_finalize() */
static int finalize(void)
{
	int i;

	/* the child is told how the run ends: a kill from now on is its own */
	mpi_on = false;
	/* the last meeting, bounded: MPI_Finalize() waits for every rank */
	if (!abandoned && !ending && size > 1) {
		MPI_Request req;

		if (MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS)
			wait_sleeping(&req);
	}
	if (abandoned) {
		/* given up outside a phase: no phase's error said why */
		if (!lost_told)
			fprintf(stderr, "clyde: %s\n", lost_msg);
		part_ways();
		beat_stop();
		/* the lost rank would be waited for: exit without MPI */
		return -1;
	}
	beat_stop();
	/* MPI_Finalize() would wait for the rank that mpirun lost */
	if (ending)
		return -1;
	if (stop_req != NULL) {
		for (i = 0; i < size; i++)
			if (i != rank)
				MPI_Wait(&stop_req[i], MPI_STATUS_IGNORE);
		free(stop_req);
		stop_req = NULL;
	}
	MPI_Finalize();
	return 0;
}

/*
 * Wait for a collective without spinning: MPI's busy wait would take the
 * CPU from ranks still working on the same host.  A rank notices the
 * end within about 0.1 ms, which is what rank 0's clock may overstate.
 * -1 when a rank is lost (lost_look()): the collective never ends then,
 * and no other may start.
 */
static int wait_sleeping(MPI_Request *req)
{
	int64_t next_look = now_ns() + LOOK_NS;
	int done = 0;

	for (;;) {
		if (abandoned || ending ||
		    MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		if (done)
			return 0;
		if (now_ns() >= next_look) {
			if (lost_look())
				return -1;
			next_look = now_ns() + LOOK_NS;
		}
		nap_ns(100000);
		tend();
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

static bool all_ok(bool ok)
{
	int mine = ok, all = 0;

	if (abandoned || allreduce_int(&mine, &all, 1, MPI_MIN) != 0)
		return false;
	return all != 0;
}

static void signal_stop(void)
{
	int i;

	if (stop_sent || size < 2 || abandoned)
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

/* dist_share_rank0(): rank 0's text in text[DIST_TEXT_LEN] on every rank */
static int share_rank0(char *text)
{
	MPI_Request req;

	if (abandoned || MPI_Ibcast(text, DIST_TEXT_LEN, MPI_CHAR, 0,
	    MPI_COMM_WORLD, &req) != MPI_SUCCESS || wait_sleeping(&req) != 0)
		return -1;
	text[DIST_TEXT_LEN - 1] = '\0';
	return 0;
}

/*
 * dist_all_ok_why(): 1 when every rank is ok, else 0 and the why of the
 * lowest rank that is not in why[DIST_TEXT_LEN] (-1: MPI failed).  When
 * the run is given up, the why is lost_msg: its caller says it.
 */
static int all_ok_why(bool ok, char *why)
{
	MPI_Request req;
	int failed = ok ? INT_MAX : rank, first = INT_MAX;

	if (abandoned || MPI_Iallreduce(&failed, &first, 1, MPI_INT, MPI_MIN,
	    MPI_COMM_WORLD, &req) != MPI_SUCCESS || wait_sleeping(&req) != 0 ||
	    (first != INT_MAX && (MPI_Ibcast(why, DIST_TEXT_LEN, MPI_CHAR, first,
	    MPI_COMM_WORLD, &req) != MPI_SUCCESS || wait_sleeping(&req) != 0))) {
		if (!abandoned)
			return -1;
		copy_msg(why, DIST_TEXT_LEN, lost_msg);
		lost_told = true;
		return 0;
	}
	if (first == INT_MAX)
		return 1;
	why[DIST_TEXT_LEN - 1] = '\0';
	return 0;
}

/*
 * dist_exchange(): every rank's len bytes gathered, those of rank from
 * back into in; -1 when a rank is lost or MPI failed.
 */
static int exchange(char *in, size_t len, int from)
{
	static char *all;
	MPI_Request req;

	if (abandoned || from < 0 || from >= size)
		return -1;
	free(all);
	if ((all = malloc((size_t)size * len + 1)) == NULL ||
	    MPI_Iallgather(in, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE,
	    MPI_COMM_WORLD, &req) != MPI_SUCCESS || wait_sleeping(&req) != 0)
		return -1;
	memcpy(in, all + (size_t)from * len, len);
	return 0;
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

/* Every rank's own figures of this phase, on rank 0, into all[size]. */
static void gather_own(const struct dist_phase *mine, int64_t start_ns,
    struct phase_figures *all)
{
	struct phase_figures own;

	memset(&own, 0, sizeof(own));
	own.ran = mine->rc == PHASE_OK;
	own.ops = mine->ops;
	own.bytes = mine->bytes;
	own.readdir_passes = mine->readdir_passes;
	own.elapsed_ns = mine->elapsed_ns;
	own.cpu_ns = mine->cpu_ns;
	if (own.ran)
		latency_summarize(mine->lat, &own.lat);
	/*
	 * heard after its measuring process had ended: its whole phase; heard
	 * before it had started: unknown
	 */
	if (first_at < 0 || first_at - start_ns >= mine->elapsed_ns) {
		own.first_done_ops = mine->ops;
		own.first_done_ns = mine->elapsed_ns;
	} else if (first_at > start_ns) {
		/* the seekers take a number or two past the last seek */
		own.first_done_ops = first_ops < mine->ops ? first_ops : mine->ops;
		own.first_done_ns = first_at - start_ns;
	}
	MPI_Gather(&own, sizeof(own), MPI_BYTE, all, sizeof(own), MPI_BYTE, 0,
	    MPI_COMM_WORLD);
}

/*
 * This rank's measuring process has ended the phase: unless another had
 * ended first, this rank was first (as far as it heard); the others are
 * told either way, so that each hears from every rank once a phase.
 */
static void first_tell(void)
{
	/*
	 * MPI may read it after this returns; it changes only in the next
	 * phase, which no rank starts before every rank has received it
	 * (first_end()), so the sends need not be waited for.
	 */
	static int seq;
	MPI_Request req;
	int i;

	/* heard only now: this rank had ended by then too */
	first_heard_look(false);
	if (!first_seen) {
		first_seen = true;
		first_at = -1;
	}
	seq = phase_seq;
	for (i = 0; i < size; i++)
		if (i != rank && MPI_Isend(&seq, 1, MPI_INT, i, TAG_FIRST,
		    MPI_COMM_WORLD, &req) == MPI_SUCCESS)
			MPI_Request_free(&req);
}

/*
 * The phase's end, on every rank: the word of every other rank has come
 * (each sent it before the meeting that ended the phase); the next phase
 * starts afresh.
 */
static void first_end(void)
{
	int seq;

	first_heard_look(false);
	while (first_heard < size - 1) {
		MPI_Recv(&seq, 1, MPI_INT, MPI_ANY_SOURCE, TAG_FIRST,
		    MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		first_heard++;
	}
	first_heard = 0;
	first_seen = false;
	first_ops = 0;
	first_at = 0;
	phase_seq++;
}

/* dist_phase_done(), every rank's own figures into all[size] on rank 0 */
static int phase_done(const struct dist_phase *mine, int64_t start_ns,
    struct phase_figures *pf, struct phase_figures *all, char *error,
    size_t error_len)
{
	static struct latency all_lat;
	uint64_t sums[3] = { mine->ops, mine->bytes, (uint64_t)mine->cpu_ns };
	uint64_t all_sums[3] = { 0, 0, 0 };
	int64_t longest = 0;
	unsigned passes = 0;
	int mine_rc[2] = { mine->rc, mine->rc != PHASE_OK }, all_rc[2] = { 0, 0 };
	int worst, senders;

	/* the job ends (dist_job_ends()): each rank stops on its own */
	if (ending && !abandoned)
		return mine->rc != PHASE_OK ? mine->rc : PHASE_STOPPED;
	if (mine->rc != PHASE_OK)
		signal_stop();
	first_tell();
	/*
	 * The lowest rc (-2 stopped < -1 error < 0 ok) and how many ranks
	 * failed.  When it returns, the slowest rank has ended: the phase's
	 * clock stops here.
	 */
	mine_rc[1] = -mine_rc[1];
	if (abandoned || allreduce_int(mine_rc, all_rc, 2, MPI_MIN) != 0) {
		if (ending && !abandoned)
			return mine->rc != PHASE_OK ? mine->rc : PHASE_STOPPED;
		copy_msg(error, error_len, lost_msg);
		lost_told = true;
		return PHASE_ERROR;
	}
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
	gather_own(mine, start_ns, all);
	first_end();
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

static void share_scratch(const char *path)
{
	static char mine[PATH_MAX];
	MPI_Request req;

	if (size < 2 || abandoned)
		return;
	snprintf(mine, sizeof(mine), "%s", path);
	if (MPI_Igather(mine, PATH_MAX, MPI_CHAR, scratch_of, PATH_MAX,
	    MPI_CHAR, 0, MPI_COMM_WORLD, &req) == MPI_SUCCESS)
		wait_sleeping(&req);
}

/* --- the requests of the measuring process ------------------------------- */

/* An answer: result, then len bytes of data and n more of more. */
static int answer(int fd, int64_t result, const void *data, size_t len,
    const void *more, size_t n)
{
	struct proxy_msg a = { (int32_t)result, (uint32_t)(len + n), 0 };

	if (proxy_send(fd, &a, sizeof(a)) != 0 ||
	    (len > 0 && proxy_send(fd, data, len) != 0) ||
	    (n > 0 && proxy_send(fd, more, n) != 0))
		return -1;
	return 0;
}

/* PROXY_INIT: this rank's number, the number of ranks, the host names */
static int serve_init(int fd, bool started)
{
	struct proxy_hello hello = { (uint32_t)rank, (uint32_t)size };

	if (!started)
		return answer(fd, -1, NULL, 0, NULL, 0);
	return answer(fd, 0, &hello, sizeof(hello), hosts,
	    (size_t)size * sizeof(*hosts));
}

/* PROXY_PHASE_DONE: q as the measuring process sent it */
static int serve_phase_done(int fd, struct proxy_phase *q)
{
	/* rank 0: every rank's own figures (MPI_Gather's buffer) */
	static struct phase_figures *all;
	struct dist_phase mine;
	bool want;
	int rc;

	if (rank == 0 && all == NULL &&
	    (all = calloc((size_t)size, sizeof(*all))) == NULL)
		return -1;
	memset(&mine, 0, sizeof(mine));
	mine.rc = q->rc;
	mine.ops = q->ops;
	mine.bytes = q->bytes;
	mine.readdir_passes = q->readdir_passes;
	mine.cpu_ns = q->cpu_ns;
	mine.elapsed_ns = q->elapsed_ns;
	mine.lat = &q->lat;
	q->mine_error[sizeof(q->mine_error) - 1] = '\0';
	q->error[sizeof(q->error) - 1] = '\0';
	mine.error = q->mine_error;
	if (rank == 0)
		memset(all, 0, (size_t)size * sizeof(*all));
	rc = phase_done(&mine, q->start_ns, &q->pf, all, q->error,
	    sizeof(q->error));
	want = q->want_ranks && rank == 0;
	q->want_ranks = want;
	return answer(fd, rc, q, sizeof(*q), all,
	    want ? (size_t)size * sizeof(*all) : 0);
}

/* One request, read from fd and answered; -1 when fd is done with. */
static int serve(int fd, bool started)
{
	/* the largest request: a phase's figures */
	static struct proxy_phase q;
	struct proxy_msg m;
	char *in = (char *)&q;

	if (proxy_recv(fd, &m, sizeof(m)) != 0 || m.len > sizeof(q) ||
	    (m.len > 0 && proxy_recv(fd, in, m.len) != 0))
		return -1;
	if (m.op != PROXY_INIT && !started)
		return answer(fd, -1, NULL, 0, NULL, 0);
	switch (m.op) {
	case PROXY_INIT:
		return serve_init(fd, started);
	case PROXY_ALL_OK:
		return answer(fd, all_ok(m.arg != 0), NULL, 0, NULL, 0);
	case PROXY_SIGNAL_STOP:
		signal_stop();
		return answer(fd, 0, NULL, 0, NULL, 0);
	case PROXY_PHASE_DONE:
		if (m.len != sizeof(q))
			return -1;
		return serve_phase_done(fd, &q);
	case PROXY_WATCH:
		if (beat_on && m.arg >= 0)
			silent_ns = m.arg * NS;
		return answer(fd, 0, NULL, 0, NULL, 0);
	case PROXY_SHARE_SCRATCH:
		in[m.len < PATH_MAX ? m.len : PATH_MAX - 1] = '\0';
		share_scratch(in);
		return answer(fd, 0, NULL, 0, NULL, 0);
	case PROXY_FINALIZE:
		return answer(fd, finalize(), NULL, 0, NULL, 0);
	case PROXY_SHARE_RANK0:
		if (m.len != DIST_TEXT_LEN || share_rank0(in) != 0)
			return answer(fd, -1, NULL, 0, NULL, 0);
		return answer(fd, 0, in, DIST_TEXT_LEN, NULL, 0);
	case PROXY_ALL_OK_WHY: {
		int all;

		if (m.len > DIST_TEXT_LEN)
			return -1;
		memset(in + m.len, 0, DIST_TEXT_LEN - m.len);
		all = all_ok_why(m.arg != 0, in);
		return answer(fd, all, in, all == 0 ? strlen(in) : 0, NULL, 0);
	}
	case PROXY_EXCHANGE:
		if (m.len > DIST_SHARE_MAX || exchange(in, m.len, (int)m.arg) != 0)
			return answer(fd, -1, NULL, 0, NULL, 0);
		return answer(fd, 0, in, m.len, NULL, 0);
	default:
		return -1;
	}
}

bool dist_child_killed(const char *why, const char *left)
{
	if (!mpi_on)
		return false;
	copy_msg(killed_why, sizeof(killed_why), why);
	copy_msg(killed_left, sizeof(killed_left), left);
	killed = true;
	return true;
}

void dist_job_ends(void)
{
	ending = true;
	mpi_on = false;
	if (proxy_shared != NULL)
		atomic_store(&proxy_shared->stop, 1);
}

/*
 * The measuring process was killed (dist_child_killed()), and the
 * request it made last is answered: every rank finished the meetings
 * this one took part in, and none can finish another.  Rank 0 is told
 * (or, on rank 0, says it and tells the others); this process waits for
 * the ranks still heard from to have removed their own files, as when a
 * rank is lost, and exits 3.
 */
_Noreturn static void child_lost(void)
{
	/* MPI may read it after this returns */
	static char msg[sizeof(killed_why) + sizeof(killed_left)];
	MPI_Request req;
	size_t why_len = strlen(killed_why), len;

	if (rank == 0) {
		/* the reason given up for before, which nobody said yet */
		if (abandoned && !lost_told)
			fprintf(stderr, "clyde: %s\n", lost_msg);
		if (killed_said(0, killed_why, killed_left))
			fprintf(stderr, "clyde: %s\n", lost_msg);
		lost_told = true;
	} else {
		memcpy(msg, killed_why, why_len + 1);
		len = why_len + 1 + strlen(killed_left) + 1;
		memcpy(msg + why_len + 1, killed_left, len - why_len - 1);
		if (MPI_Isend(msg, (int)len, MPI_CHAR, 0, TAG_KILLED,
		    MPI_COMM_WORLD, &req) == MPI_SUCCESS)
			MPI_Request_free(&req);
	}
	part_ways();
	beat_stop();
	_exit(EXIT_IO_ERROR);
}

_Noreturn void dist_serve(bool (*round)(void), struct phase_meter *meter)
{
	int fd = proxy_fd[1];
	bool started;

	close(proxy_fd[0]);
	proxy_fd[0] = -1;
	started = start_mpi() == 0;
	mpi_on = started && size > 1;
	look = round;
	child_meter = meter;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };

		tend();
		if (killed)
			child_lost();
		if (fd < 0) {
			nap_ns(IDLE_MS * 1000000L);
			continue;
		}
		/* the measuring process went, or broke the rules: look() ends */
		if (poll(&p, 1, IDLE_MS) > 0 && serve(fd, started) != 0) {
			close(fd);
			fd = -1;
		}
	}
}
