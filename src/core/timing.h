/*
 * core/timing.h: monotonic clock, CPU time, and a fixed-size latency
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
 * The clock of the per-operation latency samples, read once per
 * operation: op_clock() gives a stamp in its own ticks, op_span_ns()
 * turns the distance between two stamps into nanoseconds.  On x86-64,
 * when the kernel keeps its own clock on the time-stamp counter, the
 * ticks are the counter's (rdtsc costs about half of clock_gettime, and
 * on the fastest phases that difference is most of the timing's cost);
 * anywhere else they are CLOCK_MONOTONIC nanoseconds.  op_clock_init()
 * chooses and calibrates, before the phases of a run.
 *
 * Built with -DCLYDE_NO_OP_TIMING (tests/bench/latency_cost.sh does), no clock
 * is read and latency_add() does nothing: the rate without the timing,
 * to measure what the timing costs.
 */
void op_clock_init(void);

/* ns per tick as a 0.32 fixed-point factor; 1 << 32 when ticks are ns */
extern uint64_t op_clock_scale;

#if defined(CLYDE_NO_OP_TIMING)
static inline uint64_t op_clock(void)
{
	return 0;
}
#elif defined(__x86_64__)
#include <x86intrin.h>

extern int op_clock_tsc;

static inline uint64_t op_clock(void)
{
	return op_clock_tsc ? __rdtsc() : (uint64_t)now_ns();
}
#else
static inline uint64_t op_clock(void)
{
	return (uint64_t)now_ns();
}
#endif

static inline uint64_t op_span_ns(uint64_t start, uint64_t end)
{
	/* counters of two CPUs may differ by a few ticks: never negative */
	uint64_t d = end - start;

	if (end <= start)
		return 0;
	/* op_clock_scale <= 1 << 32, so no product overflows */
	if (d <= 0xffffffffu)
		return (d * op_clock_scale) >> 32;
	return (d >> 32) * op_clock_scale +
	    (((d & 0xffffffffu) * op_clock_scale) >> 32);
}

void latency_reset(struct latency *lat);
void latency_add(struct latency *lat, uint64_t ns);

/* One sample per operation: the end of one operation is the start of the next. */
static inline void latency_lap(struct latency *lat, uint64_t *start)
{
	uint64_t end = op_clock();

	latency_add(lat, op_span_ns(*start, end));
	*start = end;
}
void latency_merge(struct latency *into, const struct latency *from);

/*
 * The thresholds latency_summarize() tells the share of slower
 * operations for: 2 s and 10 s, then these n (--latency-over, at most
 * LATENCY_OVER_MAX).  Set once, before the phases of a run.
 */
void latency_over_set(const uint64_t *ns, unsigned n);
void latency_summarize(const struct latency *lat, struct latency_summary *out);

#endif
