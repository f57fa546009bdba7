/*
 * timing.h: monotonic clock, CPU time, and a fixed-size latency
 * histogram (no allocation while a phase runs).
 */
#ifndef CLYDE_TIMING_H
#define CLYDE_TIMING_H

#include <stdint.h>

#include "result.h"

/* Log-linear buckets: 16 per power of two, so a percentile is within 6 %. */
#define LAT_SUB_BITS 4
#define LAT_SUB      (1u << LAT_SUB_BITS)
#define LAT_BUCKETS  (64u * LAT_SUB)

struct latency {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns;
	uint64_t bucket[LAT_BUCKETS];
};

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t now_ns(void);

/* user + system time of this process and its reaped children, in ns */
int64_t cpu_ns(void);

/* user + system time of the reaped children only, in ns */
int64_t children_cpu_ns(void);

/*
 * The clock of the per-operation latency samples.  Built with
 * -DCLYDE_NO_OP_TIMING (bench/latency_cost.sh does), it reads no clock
 * and latency_add() does nothing: the rate without the timing, to
 * measure what the timing costs.
 */
#ifdef CLYDE_NO_OP_TIMING
static inline int64_t op_clock_ns(void)
{
	return 0;
}
#else
static inline int64_t op_clock_ns(void)
{
	return now_ns();
}
#endif

void latency_reset(struct latency *lat);
void latency_add(struct latency *lat, uint64_t ns);
void latency_merge(struct latency *into, const struct latency *from);
void latency_summarize(const struct latency *lat, struct latency_summary *out);

#endif
