/*
 * dist/proxy.h: what the two processes of a clyde-mpi rank say to each
 * other (dist/dist.h).  The measuring process's side is dist/proxy.c, the
 * parent's (MPI's) dist/mpi.c; nothing else includes this.
 *
 * Each dist/dist.h call of the measuring process that needs MPI is a request:
 * a struct proxy_msg, then len bytes; the parent answers each one the
 * same way, op holding the call's result, before the next request is
 * read.  The two ends are a stream socket pair, made before the fork.
 * The flag for dist_poll() is in memory they share.
 */
#ifndef CLYDE_DIST_PROXY_H
#define CLYDE_DIST_PROXY_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "core/timing.h"

enum proxy_op {
	PROXY_INIT = 1,         /* answer: struct proxy_hello, host names */
	PROXY_ALL_OK,           /* arg: ok; answer: all ok */
	PROXY_SIGNAL_STOP,
	PROXY_PHASE_DONE,       /* struct proxy_phase both ways, then figures */
	PROXY_WATCH,            /* arg: silent_s */
	PROXY_SHARE_SCRATCH,    /* the path, with its '\0' */
	PROXY_FINALIZE,         /* answer: dist_finalize()'s */
	PROXY_SHARE_RANK0,      /* DIST_TEXT_LEN bytes both ways */
	PROXY_ALL_OK_WHY,       /* arg: ok; the why, with its '\0'; answer:
				   all ok, and the first why when not */
	PROXY_EXCHANGE          /* arg: the rank whose bytes come back; the
				   bytes both ways */
};

struct proxy_msg {
	int32_t op;             /* the request; in an answer, the result */
	uint32_t len;           /* the bytes that follow */
	int64_t arg;
};

#define PROXY_HOST_LEN 64

/* PROXY_INIT's answer; then size host names of PROXY_HOST_LEN bytes */
struct proxy_hello {
	uint32_t rank, size;
};

/*
 * PROXY_PHASE_DONE: the rank's share of the phase (struct dist_phase),
 * and pf and the error as the caller has them; the answer is the same
 * struct, pf and error as dist_phase_done() left them, and then, when
 * want_ranks was set, on rank 0, size phase_figures: every rank's own.
 */
#define PROXY_ERROR_LEN 1024
struct proxy_phase {
	int32_t rc, id, want_ranks;
	uint32_t readdir_passes;
	uint64_t ops, bytes;
	int64_t cpu_ns, elapsed_ns, start_ns;
	struct latency lat;
	struct phase_figures pf;
	char mine_error[PROXY_ERROR_LEN];
	char error[PROXY_ERROR_LEN];
};

/* In memory both processes map, made before the fork. */
struct proxy_shared {
	/* set by the parent: another rank asked to stop, or is lost */
	atomic_int stop;
};

/* [0] the measuring process's end, [1] the parent's; -1 when closed */
extern int proxy_fd[2];
extern struct proxy_shared *proxy_shared;

/* All of len bytes: 0, or -1 (the other end gone, or an error). */
int proxy_send(int fd, const void *buf, size_t len);
int proxy_recv(int fd, void *buf, size_t len);

#endif
