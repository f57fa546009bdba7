/*
 * unit_util: number parsing, cell strings, the latency histogram, the
 * random source and the rules of result_finalize().
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/csv.h"
#include "result.h"
#include "tap.h"
#include "core/timing.h"
#include "lib/fdio.h"
#include "lib/rng.h"
#include "lib/units.h"

#define MIB (1024 * 1024)

static void test_parse(void)
{
	uint64_t v = 0;

	ok(parse_size("64", "kmgt", MIB, 0, 1 << 20, &v) == NULL && v == 64,
	    "64 is 64 MiB");
	ok(parse_size("2g", "kmgt", MIB, 0, 1 << 20, &v) == NULL && v == 2048,
	    "2g is 2048 MiB");
	ok(parse_size("2G", "kmgt", MIB, 0, 1 << 20, &v) == NULL && v == 2048,
	    "2G is 2048 MiB");
	ok(parse_size("1t", "kmgt", MIB, 0, 1 << 20, &v) == NULL && v == 1 << 20,
	    "1t is 1048576 MiB");
	ok(parse_size("2048k", "kmgt", MIB, 0, 1 << 20, &v) == NULL && v == 2,
	    "2048k is 2 MiB");
	is_str(parse_size("512k", "kmgt", MIB, 0, 1 << 20, &v),
	    "not a whole number of units", "512k is not a whole MiB");
	is_str(parse_size("", "kmgt", MIB, 0, 10, &v), "empty value", "empty");
	is_str(parse_size("-1", "", 1, 0, 10, &v), "must not be negative",
	    "negative");
	is_str(parse_size("12x", "km", 1, 0, 100, &v), "not a number",
	    "trailing garbage");
	is_str(parse_size("4kk", "km", 1, 0, 1 << 20, &v), "not a number",
	    "two suffixes");
	is_str(parse_size(" 4", "", 1, 0, 10, &v), "not a number",
	    "leading blank");
	is_str(parse_size("99999999999999999999", "", 1, 0, UINT64_MAX, &v),
	    "out of range", "overflow");
	is_str(parse_size("11", "", 1, 0, 10, &v), "out of range", "above max");
	ok(parse_size("4k", "km", 1, 0, 1 << 20, &v) == NULL && v == 4096,
	    "4k is 4096 bytes");
	ok(parse_u64("4294967295", 0, UINT32_MAX, &v) == NULL && v == UINT32_MAX,
	    "largest 32-bit value");
}

static void test_cells(void)
{
	char buf[64];

	fmt_latency(buf, sizeof(buf), 99999);
	is_str(buf, "99999us", "latency below 0.1 s in us");
	fmt_latency(buf, sizeof(buf), 100000);
	is_str(buf, "100ms", "latency from 0.1 s in ms");
	fmt_latency(buf, sizeof(buf), 12422999);
	is_str(buf, "12422ms", "ms truncated, not rounded");
	fmt_latency(buf, sizeof(buf), 100000000);
	is_str(buf, "100s", "latency from 100 s in s");
	fmt_latency(buf, sizeof(buf), -1);
	is_str(buf, "", "no latency: empty");
	fmt_file_size(buf, sizeof(buf), 2048);
	is_str(buf, "2G", "whole GiB");
	fmt_file_size(buf, sizeof(buf), 16096);
	is_str(buf, "16096M", "MiB otherwise");
	fmt_chunk(buf, sizeof(buf), 512);
	is_str(buf, "512", "chunk in bytes");
	fmt_chunk(buf, sizeof(buf), 4096);
	is_str(buf, "4k", "chunk in k");
	fmt_chunk(buf, sizeof(buf), 1 << 20);
	is_str(buf, "1m", "chunk in m");
}

static void test_latency(void)
{
	static struct latency lat, other;
	struct latency_summary s;
	uint64_t i;

	latency_reset(&lat);
	for (i = 1; i <= 1000; i++)
		latency_add(&lat, i * 1000);
	latency_summarize(&lat, &s);
	is_int(s.count, 1000, "count");
	is_int(s.max, 1000000, "max is exact");
	is_int(s.mean, 500500, "mean is exact");
	/* a bucket is 1/16 of a power of two wide: within 6.25 % above */
	ok(s.p50 >= 500000 && s.p50 <= 500000 * 1.0625, "p50 within a bucket");
	ok(s.p90 >= 900000 && s.p90 <= 900000 * 1.0625, "p90 within a bucket");
	ok(s.p99 >= 990000 && s.p99 <= 1000000, "p99 within a bucket, <= max");
	ok(s.p999 >= 999000 && s.p999 <= 1000000, "p99.9 <= max");
	latency_reset(&other);
	latency_add(&other, 5000000);
	latency_merge(&lat, &other);
	latency_summarize(&lat, &s);
	is_int(s.count, 1001, "merge adds counts");
	is_int(s.max, 5000000, "merge keeps the larger max");
	latency_reset(&other);
	latency_summarize(&other, &s);
	is_int(s.max, 0, "empty histogram: zeros");
}

/*
 * The operation clock: spans convert exactly, never go negative, and a
 * real sleep measured with it agrees with CLOCK_MONOTONIC.
 */
static void test_op_clock(void)
{
	struct timespec pause = { 0, 50000000 };
	uint64_t saved, big = ((uint64_t)1 << 40) + 123, a, b, span;
	int64_t n0, n1;

	saved = op_clock_scale;
	op_clock_scale = (uint64_t)1 << 32;
	is_int(op_span_ns(7, 7 + big), big, "ns ticks: a span is itself");
	is_int(op_span_ns(9, 5), 0, "a span backwards is 0, not huge");
	op_clock_scale = (uint64_t)1 << 31;
	is_int(op_span_ns(0, 1000), 500, "half-ns ticks: half");
	is_int(op_span_ns(0, big), big / 2, "half-ns ticks: half, past 2^32 too");
	op_clock_scale = saved;

	op_clock_init();
	n0 = now_ns();
	a = op_clock();
	nanosleep(&pause, NULL);
	b = op_clock();
	n1 = now_ns();
	span = op_span_ns(a, b);
	/* the op clock's span lies inside the monotonic one, within 1 % */
	ok(span <= (uint64_t)(n1 - n0) * 1.01 && span >= 50000000 * 0.99,
	    "a 50 ms sleep measures 50 ms on the operation clock");
}

/* -Z numbers cycle: a skip past the end wraps as the draws do */
static void test_rng_file_skip(void)
{
	const unsigned char be[] = { 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3,
	    0, 0, 0, 4, 0, 0, 0, 5 };
	char path[] = "/tmp/clyde-unit-rng.XXXXXX";
	const char *why;
	struct rng r;
	int fd = mkstemp(path);

	ok(fd >= 0 && write(fd, be, sizeof(be)) == (ssize_t)sizeof(be),
	    "a -Z file of five numbers");
	close(fd);
	rng_seed(&r, 1);
	ok(rng_load_file(&r, path, &why) == 0, "-Z file loads");
	unlink(path);
	rng_skip(&r, 12);
	is_int(rng_next(&r), 3, "-Z: skip 12 of 5 numbers, the third comes next");
	rng_skip(&r, 2);
	is_int(rng_next(&r), 1, "-Z: and wraps to the first");
	rng_free(&r);
}

static void test_rng(void)
{
	struct rng a, b;
	int i, same = 1, below = 1;

	rng_seed(&a, 42);
	rng_seed(&b, 42);
	for (i = 0; i < 1000; i++)
		same &= rng_next(&a) == rng_next(&b);
	for (i = 0; i < 1000; i++)
		below &= rng_below(&a, 10) < 10;
	ok(same, "same seed, same numbers");
	ok(below, "rng_below stays below n");
	rng_seed(&b, 43);
	rng_seed(&a, 42);
	ok(rng_next(&a) != rng_next(&b), "another seed, other numbers");

	/* a skip of n lands where n draws would */
	rng_seed(&a, 7);
	rng_seed(&b, 7);
	for (i = 0; i < 777; i++)
		rng_next(&a);
	rng_skip(&b, 777);
	is_int(rng_next(&b), rng_next(&a), "skip 777 = 777 draws");
	test_rng_file_skip();
}

static void test_finalize(void)
{
	static struct result res;
	struct config cfg;

	memset(&cfg, 0, sizeof(cfg));
	strcpy(cfg.machine, "m");
	cfg.file_size_mib = 100;
	cfg.chunk = DEFAULT_CHUNK;
	cfg.files.count_k = 1;
	result_init_run(&res, &cfg);
	/* 100 MiB in 2 s with 1.5 s of CPU */
	res.phase[PH_PUT_BLOCK] = (struct phase_figures){ .ran = true,
	    .ops = 100ULL * MIB, .elapsed_ns = 2000000000, .cpu_ns = 1500000000,
	    .lat = { .count = 1, .max = 2500000 } };
	/* 0.499 s: too fast */
	res.phase[PH_REWRITE] = (struct phase_figures){ .ran = true,
	    .ops = MIB, .elapsed_ns = 499999999, .cpu_ns = 1 };
	/* exactly 0.5 s is measured */
	res.phase[PH_SEEKS] = (struct phase_figures){ .ran = true,
	    .ops = 1000, .elapsed_ns = 500000000, .cpu_ns = 4999999 };
	res.phase[PH_SEQ_CREATE] = (struct phase_figures){ .ran = true,
	    .ops = 1024, .elapsed_ns = 1000000000, .cpu_ns = 2990000000 };
	result_finalize(&res, false);
	is_int(res.cell[PH_PUT_BLOCK].status, CELL_OK, "2 s: measured");
	is_int((int)res.cell[PH_PUT_BLOCK].rate, 51200, "K/s = KiB / s");
	is_int(res.cell[PH_PUT_BLOCK].cpu, 75, "%CPU = cpu / elapsed");
	is_int(res.cell[PH_PUT_BLOCK].latency_us, 2500, "latency in us");
	is_int(res.cell[PH_REWRITE].status, CELL_TOO_FAST, "under 0.5 s: +++++");
	is_int(res.cell[PH_SEEKS].status, CELL_OK, "0.5 s: measured");
	is_int((int)res.cell[PH_SEEKS].rate, 2000, "seeks per second");
	is_int(res.cell[PH_SEEKS].cpu, 0, "%CPU truncated, not rounded");
	is_int(res.cell[PH_SEQ_CREATE].cpu, 299, "%CPU above 100 is kept");
	is_int(res.cell[PH_PUTC].status, CELL_SKIPPED, "not run: skipped");
	result_finalize(&res, true);
	is_int(res.cell[PH_REWRITE].status, CELL_OK, "precise: measured anyway");
}

int main(void)
{
	test_parse();
	test_cells();
	test_latency();
	test_op_clock();
	test_rng();
	test_finalize();
	return tap_done();
}
