/*
 * report/stats.h: the statistics of clyde report's sets of runs: summary of one
 * set (median, mean, 95 % interval of the mean, CV, min, max, a
 * bimodality check), Welch's t test and the Mann-Whitney U test of two
 * sets, the power of the two-sample t test and the runs it needs.  Plain numbers in, plain numbers out: this file knows nothing of
 * results or phases (clyde(1), Sets of runs, explains the method).
 */
#ifndef CLYDE_STATS_H
#define CLYDE_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* The confidence of every interval and test: 95 %. */
#define STATS_LEVEL 0.95

struct stats_summary {
	size_t n;
	double mean, median, min, max;
	double sd;              /* sample standard deviation (n - 1) */
	double cv;              /* sd over the mean, in %; 0 when n < 2 */
	double ci_low, ci_high; /* 95 % interval of the mean (Student's t);
	                           the mean itself when n < 2 */
	bool bimodal;           /* see stats_bimodal_sorted() */
};

/* Sorts x[n] ascending. */
void stats_sort(double *x, size_t n);
/* Summarizes x[n]; sorts x.  n may be 0 (all zero). */
void stats_summarize(double *x, size_t n, struct stats_summary *s);
double stats_median_sorted(const double *x, size_t n);
/*
 * Two clusters: at least 4 values, and a gap between neighbours that
 * leaves at least 2 on each side, is at least 3 times the wider side's
 * range, and puts the upper side at least 1.2 times the lower.
 */
bool stats_bimodal_sorted(const double *x, size_t n);

/* The standard normal distribution function. */
double stats_normal_cdf(double z);
/* P(T <= t) for Student's t with df degrees of freedom (df > 0). */
double stats_t_cdf(double t, double df);
/* The t with P(T <= t) = p, 0 < p < 1. */
double stats_t_quantile(double p, double df);

/* Welch's t test of b against a, from each set's mean, sd and n. */
struct stats_welch {
	double diff;            /* mean b - mean a */
	double t, df;
	double p;               /* two-sided */
	double diff_low, diff_high;     /* 95 % interval of diff */
};
/* Returns false when either set has fewer than 2 values. */
bool stats_welch(const struct stats_summary *a, const struct stats_summary *b,
    struct stats_welch *w);

/*
 * P(T' <= t) for the noncentral t with df degrees of freedom (df > 0)
 * and noncentrality delta, to about 1e-12 (AS 243).
 */
double stats_nct_cdf(double t, double df, double delta);
/*
 * The power of the two-sample t test (two-sided, at the 95 % level,
 * equal variances) with n values a set, of a true difference of effect
 * standard deviations: R's power.t.test() with strict = FALSE.
 */
double stats_t_power(double n, double effect);
/*
 * The n a set (2 or more, not rounded) at which that test reaches the
 * power; round it up for runs.  -1 when effect is not above 0 or the n
 * would pass 1e9.
 */
double stats_t_runs(double effect, double power);

/*
 * The Mann-Whitney U test of a[na] against b[nb]: u is the U of a (the
 * pairs where a's value is larger, ties counting half); returns the
 * two-sided p, exact when there are no ties and both sets have at most
 * STATS_MW_EXACT_MAX values, else by the normal approximation with the
 * tie correction and a continuity correction.  Returns -1 when either
 * set is empty or out of memory.
 */
#define STATS_MW_EXACT_MAX 30
double stats_mann_whitney(const double *a, size_t na, const double *b,
    size_t nb, double *u);
/* The exact P(U <= u) for sets of m and n values without ties; -1 when
 * out of memory. */
double stats_mann_whitney_cdf(size_t m, size_t n, double u);

#endif
