/*
 * dist/proxy.c: the measuring process of a clyde-mpi rank.  See dist/dist.h.
 *
 * It never calls MPI: each call of dist/dist.h that needs the other ranks is a
 * request to the parent (dist/mpi.c), which makes the MPI calls and
 * answers (dist/proxy.h).  The measuring process waits for the answer; a
 * signal meanwhile (a stop) is seen after it, as when the call was made
 * here.  dist_poll() reads the flag that the parent sets when another
 * rank asks to stop: no system call while a phase runs.
 */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dist/dist.h"
#include "dist/proxy.h"
#include "phases/ctx.h"
#include "core/stop.h"
#include "lib/fdio.h"

int proxy_fd[2] = { -1, -1 };
struct proxy_shared *proxy_shared;

static bool forked;             /* dist_split_child() ran: a parent serves */
static bool gone;               /* the parent stopped answering */
static unsigned rank, size = 1;
static char (*hosts)[PROXY_HOST_LEN];

int proxy_send(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

/* -1 also when the parent closed its end before len bytes came */
int proxy_recv(int fd, void *buf, size_t len)
{
	return read_all(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

bool dist_split(void)
{
	void *p = mmap(NULL, sizeof(*proxy_shared), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	/* without them there is no rank: dist_init() fails */
	if (p == MAP_FAILED)
		return false;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, proxy_fd) != 0) {
		munmap(p, sizeof(*proxy_shared));
		return false;
	}
	proxy_shared = p;
	atomic_init(&proxy_shared->stop, 0);
	return true;
}

void dist_split_child(void)
{
	close(proxy_fd[1]);
	proxy_fd[1] = -1;
	forked = true;
}

/*
 * One request: msg and len bytes of in; returns the answer's result.  Of
 * the answer's bytes, at most out_len go into out (*got of them); when
 * left is not NULL, *left is the count of those that follow, for the
 * caller to read, else they are read and dropped.  -1, and gone, when the
 * parent does not answer: it died, and this process dies with it
 * (run/supervisor.c), or it is about to.
 */
static int64_t ask(int op, int64_t arg, const void *in, size_t len, void *out,
    size_t out_len, size_t *got, size_t *left)
{
	struct proxy_msg m = { op, (uint32_t)len, arg }, a;
	char sink[256];
	size_t rest, n;

	if (got != NULL)
		*got = 0;
	if (left != NULL)
		*left = 0;
	if (gone || proxy_send(proxy_fd[0], &m, sizeof(m)) != 0 ||
	    (len > 0 && proxy_send(proxy_fd[0], in, len) != 0) ||
	    proxy_recv(proxy_fd[0], &a, sizeof(a)) != 0)
		goto lost;
	rest = a.len;
	n = rest < out_len ? rest : out_len;
	if (n > 0 && proxy_recv(proxy_fd[0], out, n) != 0)
		goto lost;
	rest -= n;
	if (got != NULL)
		*got = n;
	if (left != NULL) {
		*left = rest;
		return a.op;
	}
	while (rest > 0) {
		n = rest < sizeof(sink) ? rest : sizeof(sink);
		if (proxy_recv(proxy_fd[0], sink, n) != 0)
			goto lost;
		rest -= n;
	}
	return a.op;
lost:
	gone = true;
	return -1;
}

int dist_init(int *argc, char ***argv)
{
	struct proxy_hello hello;
	size_t got, left;

	(void)argc;
	(void)argv;
	if (!forked || ask(PROXY_INIT, 0, NULL, 0, &hello, sizeof(hello),
	    &got, &left) != 0 || got != sizeof(hello) || hello.size == 0 ||
	    hello.rank >= hello.size || left != hello.size * sizeof(*hosts))
		return -1;
	rank = hello.rank;
	size = hello.size;
	hosts = calloc(size, sizeof(*hosts));
	if (hosts == NULL || proxy_recv(proxy_fd[0], hosts, left) != 0)
		return -1;
	for (unsigned i = 0; i < size; i++)
		hosts[i][PROXY_HOST_LEN - 1] = '\0';
	return 0;
}

int dist_finalize(void)
{
	return ask(PROXY_FINALIZE, 0, NULL, 0, NULL, 0, NULL, NULL) == 0 ? 0 : -1;
}

unsigned dist_rank(void)
{
	return rank;
}

unsigned dist_size(void)
{
	return size;
}

bool dist_has_ranks(void)
{
	return true;
}

bool dist_all_ok(bool ok)
{
	return ask(PROXY_ALL_OK, ok, NULL, 0, NULL, 0, NULL, NULL) == 1;
}

void dist_share_rank0(char *text, size_t len)
{
	char buf[DIST_TEXT_LEN] = { 0 };
	size_t got;

	snprintf(buf, sizeof(buf), "%s", text);
	if (ask(PROXY_SHARE_RANK0, 0, buf, sizeof(buf), buf, sizeof(buf), &got,
	    NULL) == 0 && got == sizeof(buf)) {
		buf[sizeof(buf) - 1] = '\0';
		snprintf(text, len, "%s", buf);
	}
}

bool dist_one_host(void)
{
	for (unsigned i = 0; hosts != NULL && i < size; i++)
		if (strcmp(hosts[i], hosts[rank]) != 0)
			return false;
	return true;
}

bool dist_exchange(const void *mine, size_t len, unsigned from, void *theirs)
{
	size_t got;

	if (len > DIST_SHARE_MAX || from >= size)
		return false;
	return ask(PROXY_EXCHANGE, from, mine, len, theirs, len, &got,
	    NULL) == 0 && got == len;
}

bool dist_all_ok_why(const char *why, char *first, size_t len)
{
	char buf[DIST_TEXT_LEN] = { 0 };
	size_t got;
	int64_t all;

	if (why != NULL)
		snprintf(buf, sizeof(buf), "%s", why);
	all = ask(PROXY_ALL_OK_WHY, why == NULL, buf, strlen(buf) + 1, buf,
	    sizeof(buf) - 1, &got, NULL);
	if (all == 1)
		return true;
	buf[got] = '\0';
	if (all != 0)
		snprintf(buf, sizeof(buf), "the MPI process of this rank "
		    "stopped answering");
	snprintf(first, len, "%s", buf);
	return false;
}

void dist_signal_stop(void)
{
	ask(PROXY_SIGNAL_STOP, 0, NULL, 0, NULL, 0, NULL, NULL);
}

void dist_poll(void)
{
	if (proxy_shared != NULL && atomic_load_explicit(&proxy_shared->stop,
	    memory_order_relaxed))
		phase_stop = 1;
}

int dist_phase_done(const struct dist_phase *mine, int64_t start_ns,
    struct phase_figures *pf, enum phase_id id, struct rank_figures *ranks,
    char *error, size_t error_len)
{
	/* a latency histogram is large: off the stack */
	static struct proxy_phase q;
	struct phase_figures own;
	size_t got, left;
	int rc;

	memset(&q, 0, sizeof(q));
	q.rc = mine->rc;
	q.id = (int32_t)id;
	q.want_ranks = ranks != NULL;
	q.readdir_passes = mine->readdir_passes;
	q.ops = mine->ops;
	q.bytes = mine->bytes;
	q.cpu_ns = mine->cpu_ns;
	q.elapsed_ns = mine->elapsed_ns;
	q.start_ns = start_ns;
	if (mine->lat != NULL)
		q.lat = *mine->lat;
	q.pf = *pf;
	if (mine->error != NULL)
		snprintf(q.mine_error, sizeof(q.mine_error), "%s", mine->error);
	snprintf(q.error, sizeof(q.error), "%s", error);
	rc = (int)ask(PROXY_PHASE_DONE, 0, &q, sizeof(q), &q, sizeof(q), &got,
	    &left);
	/* every rank's own figures follow, on rank 0 */
	if (gone || got != sizeof(q) ||
	    (left != 0 && (ranks == NULL || left != size * sizeof(own)))) {
		gone = true;
		snprintf(error, error_len, "the MPI process of this rank (the "
		    "parent of pid %ld) stopped answering", (long)getpid());
		return PHASE_ERROR;
	}
	*pf = q.pf;
	snprintf(error, error_len, "%s", q.error);
	for (unsigned i = 0; left > 0 && i < size; i++) {
		if (proxy_recv(proxy_fd[0], &own, sizeof(own)) != 0) {
			gone = true;
			break;
		}
		ranks[i].phase[id] = own;
	}
	return rc;
}

void dist_gather_hosts(struct rank_figures *ranks)
{
	/* gathered at the start (PROXY_INIT) */
	for (unsigned i = 0; rank == 0 && ranks != NULL && hosts != NULL &&
	    i < size; i++)
		snprintf(ranks[i].host, sizeof(ranks[i].host), "%s", hosts[i]);
}

void dist_watch(unsigned silent_s)
{
	ask(PROXY_WATCH, silent_s, NULL, 0, NULL, 0, NULL, NULL);
}

void dist_share_scratch(const char *path)
{
	ask(PROXY_SHARE_SCRATCH, 0, path, strlen(path) + 1, NULL, 0, NULL, NULL);
}
