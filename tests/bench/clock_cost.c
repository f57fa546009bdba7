/*
 * clock_cost: what one latency sample costs inside the fastest loops
 * clyde times, measured in one process so that the machine's noise
 * between runs (10-20 % here) does not drown a cost of a few percent.
 *
 * The same loop (stat of every file of a directory by name, or reading
 * a file in chunks) runs in blocks, in turn: untimed, reading clyde's
 * operation clock and nothing more (the floor of any per-operation
 * timing), with clyde's clock and histogram (latency_lap(), as the
 * phases call it), and with clock_gettime() in its place; ROUNDS times
 * each, interleaved.
 * Prints ns per operation of each and the cost relative to untimed.
 *
 *   tests/bench/clock_cost.sh DIR      (DIR on the filesystem to measure: tmpfs)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/timing.h"

#define FILES  16384
#define ROUNDS 200
#define CHUNK  8192
#define DATA   (64u << 20)

enum mode { UNTIMED, CLOCK_ONLY, OP_CLOCK, GETTIME, MODES };

static const char *const mode_name[MODES] = {
	"untimed", "op_clock read only", "op_clock (clyde)", "clock_gettime",
};

static char names[FILES][24];
static struct latency lat;
static char buf[CHUNK];
static volatile uint64_t clock_sink;

/* One sample after an operation, as the mode says; nothing when untimed. */
static inline void sample(enum mode m, uint64_t *t0, int64_t *n0)
{
	if (m == CLOCK_ONLY) {
		clock_sink = op_clock();
	} else if (m == OP_CLOCK) {
		latency_lap(&lat, t0);
	} else if (m == GETTIME) {
		int64_t n1 = now_ns();

		latency_add(&lat, (uint64_t)(n1 - *n0));
		*n0 = n1;
	}
}

static int stat_all(int dir, enum mode m)
{
	uint64_t t0 = op_clock();
	int64_t n0 = now_ns();
	struct stat st;
	int i, bad = 0;

	for (i = 0; i < FILES; i++) {
		bad |= fstatat(dir, names[i], &st, 0);
		sample(m, &t0, &n0);
	}
	return bad;
}

static int read_all_chunks(int fd, enum mode m)
{
	uint64_t t0 = op_clock();
	int64_t n0 = now_ns();
	unsigned i;
	int bad = 0;

	for (i = 0; i < DATA / CHUNK; i++) {
		bad |= pread(fd, buf, CHUNK, (off_t)i * CHUNK) != CHUNK;
		sample(m, &t0, &n0);
	}
	return bad;
}

static void report(const char *loop, const double *ns, double ops)
{
	int m;

	for (m = 0; m < MODES; m++)
		printf("%-6s %-18s %8.1f ns/op  cost %+6.2f %%\n", loop,
		    mode_name[m], ns[m] / ops, 100.0 * (ns[m] / ns[UNTIMED] - 1));
}

int main(int argc, char **argv)
{
	double stat_ns[MODES] = { 0 }, read_ns[MODES] = { 0 };
	int dir, fd, i, r, m;

	if (argc != 2) {
		fprintf(stderr, "usage: clock_cost DIR\n");
		return 1;
	}
	dir = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (dir < 0) {
		fprintf(stderr, "clock_cost: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (i = 0; i < FILES; i++) {
		snprintf(names[i], sizeof(names[i]), "cc%08x", i * 2654435761u);
		fd = openat(dir, names[i], O_CREAT | O_WRONLY | O_EXCL, 0600);
		if (fd < 0) {
			fprintf(stderr, "clock_cost: %s: %s\n", names[i],
			    strerror(errno));
			return 1;
		}
		close(fd);
	}
	fd = openat(dir, "cc-data", O_CREAT | O_RDWR | O_EXCL, 0600);
	memset(buf, 'x', sizeof(buf));
	for (i = 0; fd >= 0 && i < (int)(DATA / CHUNK); i++)
		if (write(fd, buf, CHUNK) != CHUNK)
			break;
	op_clock_init();
	printf("operation clock: %s\n", op_clock_scale == (uint64_t)1 << 32 ?
	    "CLOCK_MONOTONIC" : "time-stamp counter");
	for (r = 0; r < ROUNDS; r++) {
		for (m = 0; m < MODES; m++) {
			int64_t t = now_ns();

			if (stat_all(dir, (enum mode)m) != 0)
				fprintf(stderr, "clock_cost: stat failed\n");
			stat_ns[m] += (double)(now_ns() - t);
			t = now_ns();
			if (fd >= 0 && read_all_chunks(fd, (enum mode)m) != 0)
				fprintf(stderr, "clock_cost: read failed\n");
			read_ns[m] += (double)(now_ns() - t);
		}
	}
	report("stat", stat_ns, (double)ROUNDS * FILES);
	report("read", read_ns, (double)ROUNDS * (DATA / CHUNK));
	for (i = 0; i < FILES; i++)
		unlinkat(dir, names[i], 0);
	if (fd >= 0) {
		close(fd);
		unlinkat(dir, "cc-data", 0);
	}
	return 0;
}
