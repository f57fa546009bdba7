/*
 * timing.c: clocks and the latency histogram.
 */
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "timing.h"

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

void latency_summarize(const struct latency *lat, struct latency_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->count = lat->count;
	if (lat->count == 0)
		return;
	out->mean = lat->sum_ns / lat->count;
	out->p50 = percentile(lat, 500);
	out->p90 = percentile(lat, 900);
	out->p99 = percentile(lat, 990);
	out->p999 = percentile(lat, 999);
	out->max = lat->max_ns;
}
