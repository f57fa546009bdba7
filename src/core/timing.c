/*
 * core/timing.c: clocks and the latency histogram.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/timing.h"
#include "lib/fdio.h"

uint64_t op_clock_scale = (uint64_t)1 << 32;

int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t tv_ns(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000;
}

int64_t cpu_ns(void)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return tv_ns(&self.ru_utime) + tv_ns(&self.ru_stime) +
	    tv_ns(&kids.ru_utime) + tv_ns(&kids.ru_stime);
}

int64_t children_cpu_ns(void)
{
	struct rusage kids;

	getrusage(RUSAGE_CHILDREN, &kids);
	return tv_ns(&kids.ru_utime) + tv_ns(&kids.ru_stime);
}

#if defined(__x86_64__) && !defined(CLYDE_NO_OP_TIMING)
int op_clock_tsc;

/*
 * The kernel keeps its own clock on the time-stamp counter only when it
 * found it constant-rate and in step across CPUs: its verdict is ours.
 */
static int kernel_trusts_tsc(void)
{
	char buf[16];

	if (read_small_file("/sys/devices/system/clocksource/clocksource0/"
	    "current_clocksource", buf, sizeof(buf)) <= 0)
		return 0;
	return strcmp(buf, "tsc\n") == 0;
}

/* A counter reading paired with the middle of the two clock readings around it. */
static int tsc_pair(uint64_t *tsc, int64_t *ns)
{
	for (int tries = 0; tries < 100; tries++) {
		int64_t before = now_ns();
		uint64_t t = __rdtsc();
		int64_t after = now_ns();

		/* preempted in between: try again */
		if (after - before < 2000) {
			*tsc = t;
			*ns = before + (after - before) / 2;
			return 1;
		}
	}
	return 0;
}

/*
 * Count ticks over 5 ms of CLOCK_MONOTONIC: the pairs are within a few
 * tens of ns, so the factor is within 1e-5 of the truth.
 */
void op_clock_init(void)
{
	uint64_t t0, t1;
	int64_t n0, n1;
	double ns_per_tick;

	op_clock_tsc = 0;
	op_clock_scale = (uint64_t)1 << 32;
	if (!kernel_trusts_tsc() || !tsc_pair(&t0, &n0))
		return;
	do {
		if (!tsc_pair(&t1, &n1))
			return;
	} while (n1 - n0 < 5000000);
	if (t1 <= t0)
		return;
	ns_per_tick = (double)(n1 - n0) / (double)(t1 - t0);
	/* a counter slower than 1 GHz would not be worth it, nor fit the scale */
	if (!(ns_per_tick > 0.01 && ns_per_tick <= 1.0))
		return;
	op_clock_scale = (uint64_t)(ns_per_tick * 4294967296.0 + 0.5);
	op_clock_tsc = 1;
}
#else
void op_clock_init(void)
{
}
#endif

void latency_reset(struct latency *lat)
{
	memset(lat, 0, sizeof(*lat));
}

#ifndef CLYDE_NO_OP_TIMING
/*
 * Bucket of a value: below LAT_SUB the value itself; above, the position
 * of the highest bit and the LAT_SUB_BITS bits under it.
 */
static unsigned bucket_of(uint64_t ns)
{
	unsigned msb;

	if (ns < LAT_SUB)
		return (unsigned)ns;
	msb = 63u - (unsigned)__builtin_clzll(ns);
	return (msb - LAT_SUB_BITS + 1) * LAT_SUB +
	    (unsigned)((ns >> (msb - LAT_SUB_BITS)) & (LAT_SUB - 1));
}
#endif

/* The largest value that falls in bucket b: percentiles never understate. */
static uint64_t bucket_top(unsigned b)
{
	unsigned shift;

	if (b < LAT_SUB)
		return b;
	shift = b / LAT_SUB - 1;
	return (((uint64_t)(LAT_SUB + b % LAT_SUB) + 1) << shift) - 1;
}

void latency_add(struct latency *lat, uint64_t ns)
{
#ifdef CLYDE_NO_OP_TIMING
	(void)lat;
	(void)ns;
#else
	lat->count++;
	lat->sum_ns += ns;
	if (ns > lat->max_ns)
		lat->max_ns = ns;
	lat->bucket[bucket_of(ns)]++;
#endif
}

void latency_merge(struct latency *into, const struct latency *from)
{
	unsigned i;

	into->count += from->count;
	into->sum_ns += from->sum_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
	for (i = 0; i < LAT_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
}

static uint64_t percentile(const struct latency *lat, unsigned per_mille)
{
	uint64_t rank, seen = 0;
	unsigned b;

	/* the smallest value with at least per_mille/1000 of samples at or below */
	rank = (lat->count * per_mille + 999) / 1000;
	if (rank == 0)
		rank = 1;
	for (b = 0; b < LAT_BUCKETS; b++) {
		seen += lat->bucket[b];
		if (seen >= rank) {
			uint64_t top = bucket_top(b);
			return top < lat->max_ns ? top : lat->max_ns;
		}
	}
	return lat->max_ns;
}

static uint64_t over_ns[LAT_OVER_MAX] = {
	[LAT_OVER_2S] = 2000000000, [LAT_OVER_10S] = 10000000000
};
static unsigned nover = 2;

void latency_over_set(const uint64_t *ns, unsigned n)
{
	if (n > LATENCY_OVER_MAX)
		n = LATENCY_OVER_MAX;
	memcpy(over_ns + 2, ns, n * sizeof(*ns));
	nover = 2 + n;
}

/*
 * The share of samples slower than t ns.  The bucket that holds t counts
 * as slower (a share is never understated, as a percentile never is):
 * operations within 6 % under t may count, none over it is missed.
 */
static double share_over(const struct latency *lat, uint64_t t)
{
	uint64_t over = 0;
	unsigned b;

	if (lat->max_ns <= t)
		return 0;
	for (b = 0; b < LAT_BUCKETS; b++)
		if (bucket_top(b) > t)
			over += lat->bucket[b];
	return (double)over / (double)lat->count;
}

void latency_summarize(const struct latency *lat, struct latency_summary *out)
{
	unsigned i;

	memset(out, 0, sizeof(*out));
	out->count = lat->count;
	out->nover = nover;
	memcpy(out->over_ns, over_ns, sizeof(out->over_ns));
	if (lat->count == 0)
		return;
	for (i = 0; i < nover; i++)
		out->over[i] = share_over(lat, over_ns[i]);
	out->mean = lat->sum_ns / lat->count;
	out->p50 = percentile(lat, 500);
	out->p90 = percentile(lat, 900);
	out->p99 = percentile(lat, 990);
	out->p999 = percentile(lat, 999);
	out->max = lat->max_ns;
}
