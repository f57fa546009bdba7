/*
 * unit_stats: src/report/stats.c against published values: the quantiles of
 * Student's t and of the normal distribution from their printed tables,
 * Welch's t test from worked examples, the Mann-Whitney U test from the
 * table of its critical values, the noncentral t and the power of the t
 * test against R's power.t.test(), and the bimodality check on the OpenGFS
 * runs posted in 2003 (tests/fixtures/dameth_rrobin.txt has their source).
 */
#include <math.h>
#include <stdio.h>

#include "report/stats.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int near(double got, double want, double tol, const char *name)
{
	if (!ok(fabs(got - want) <= tol, name))
		printf("#   got %.6f\n#  want %.6f (within %g)\n", got, want, tol);
	return fabs(got - want) <= tol;
}

/*
 * The table of Student's t distribution, two-tailed 0.05 (the 0.975
 * quantile), as printed in any statistics text (e.g. Snedecor and
 * Cochran, Statistical Methods, table A 4), to the 3 decimals it gives.
 */
static void test_t_quantiles(void)
{
	static const struct { double df, t; } table[] = {
		{ 1, 12.706 }, { 2, 4.303 }, { 3, 3.182 }, { 4, 2.776 },
		{ 5, 2.571 }, { 6, 2.447 }, { 9, 2.262 }, { 10, 2.228 },
		{ 20, 2.086 }, { 30, 2.042 }, { 120, 1.980 },
	};
	char name[64];
	size_t i;

	for (i = 0; i < N(table); i++) {
		snprintf(name, sizeof(name), "t 0.975 quantile, %g df: %.3f",
		    table[i].df, table[i].t);
		near(stats_t_quantile(0.975, table[i].df), table[i].t, 0.0005,
		    name);
	}
	/* the one-tailed 0.05 column of the same table */
	near(stats_t_quantile(0.95, 5), 2.015, 0.0005, "t 0.95 quantile, 5 df");
	near(stats_t_quantile(0.95, 10), 1.812, 0.0005, "t 0.95 quantile, 10 df");
	near(stats_t_quantile(0.025, 4), -2.776, 0.0005,
	    "t 0.025 quantile, 4 df: the 0.975 one negated");
	near(stats_t_cdf(2.228, 10), 0.975, 0.0001, "t distribution at 2.228, 10 df");
	/* the standard normal table */
	near(stats_normal_cdf(1.96), 0.9750, 0.00005, "normal at 1.96: 0.9750");
	near(stats_normal_cdf(-1.645), 0.0500, 0.00005, "normal at -1.645: 0.0500");
}

static struct stats_summary from_moments(size_t n, double mean, double sd)
{
	struct stats_summary s = { 0 };

	s.n = n;
	s.mean = mean;
	s.sd = sd;
	return s;
}

static void test_welch(void)
{
	/*
	 * Welch's t from summary figures, the worked exercise of textbooks'
	 * chapter on two-sample tests: n 20, mean 100, s 15 against n 20,
	 * mean 95, s 20 gives t 0.895 on 35.2 degrees of freedom, p > 0.05.
	 */
	struct stats_summary a = from_moments(20, 95, 20);
	struct stats_summary b = from_moments(20, 100, 15);
	struct stats_welch w;
	double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9,
	    22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8,
	    20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };

	ok(stats_welch(&a, &b, &w), "Welch: two sets of 20");
	near(w.t, 0.895, 0.001, "Welch: t 0.895");
	near(w.df, 35.2, 0.05, "Welch: 35.2 degrees of freedom");
	ok(w.p > 0.05, "Welch: not significant at 95 %");
	ok(w.diff_low < 0 && w.diff_high > 0, "Welch: the interval holds 0");
	/*
	 * The first example of the encyclopaedia article on Welch's t test
	 * (Wikipedia, "Welch's t-test", Examples): two sets of 15 with
	 * equal variances, t -2.46, about 25 degrees of freedom, p 0.021.
	 */
	stats_summarize(a1, N(a1), &a);
	stats_summarize(a2, N(a2), &b);
	ok(stats_welch(&b, &a, &w), "Welch: the article's A1 against A2");
	near(w.t, -2.46, 0.005, "Welch: t -2.46");
	near(w.df, 24.95, 0.1, "Welch: about 25 degrees of freedom");
	near(w.p, 0.021, 0.0005, "Welch: two-sided p 0.021");
	ok(w.diff_high < 0, "Welch: the 95 % interval excludes 0 as p < 0.05");
	a = from_moments(1, 5, 0);
	ok(!stats_welch(&a, &b, &w), "Welch: no test on one value");
}

/*
 * The table of critical values of the Mann-Whitney U, two-tailed test at
 * 0.05 (e.g. Siegel and Castellan, Nonparametric Statistics for the
 * Behavioral Sciences, table J; Zar, Biostatistical Analysis, table B.11):
 * the largest U that is significant for sets of m and n.
 */
static void test_mann_whitney_table(void)
{
	static const struct { size_t m, n; int u; } table[] = {
		{ 2, 8, 0 }, { 3, 5, 0 }, { 3, 6, 1 }, { 3, 8, 2 },
		{ 4, 4, 0 }, { 4, 5, 1 }, { 4, 6, 2 }, { 4, 8, 4 },
		{ 5, 5, 2 }, { 5, 6, 3 }, { 5, 10, 8 }, { 6, 6, 5 },
		{ 7, 7, 8 }, { 8, 8, 13 }, { 9, 10, 20 }, { 10, 10, 23 },
		{ 15, 15, 64 }, { 20, 20, 127 },
	};
	char name[80];
	size_t i;

	for (i = 0; i < N(table); i++) {
		double at = 2 * stats_mann_whitney_cdf(table[i].m, table[i].n,
		    table[i].u);
		double above = 2 * stats_mann_whitney_cdf(table[i].m,
		    table[i].n, table[i].u + 1);

		snprintf(name, sizeof(name), "Mann-Whitney, %zu and %zu: "
		    "critical U %d", table[i].m, table[i].n, table[i].u);
		ok(at <= 0.05 && above > 0.05, name);
	}
	/* the table's dash: 3 and 3 never reach 0.05 */
	ok(2 * stats_mann_whitney_cdf(3, 3, 0) > 0.05,
	    "Mann-Whitney, 3 and 3: no U is significant");
	/* the exact probabilities: 1 order in 20, 1 in 70 */
	near(stats_mann_whitney_cdf(3, 3, 0), 1.0 / 20, 1e-12,
	    "Mann-Whitney, 3 and 3: P(U = 0) = 1/20");
	near(stats_mann_whitney_cdf(4, 4, 0), 1.0 / 70, 1e-12,
	    "Mann-Whitney, 4 and 4: P(U = 0) = 1/70");
}

static void test_mann_whitney_data(void)
{
	double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 };
	double same[] = { 3, 3, 3 }, tied[] = { 1, 2, 3, 3 };
	double u, p;

	p = stats_mann_whitney(a, 3, b, 3, &u);
	ok(u == 0 && fabs(p - 0.1) < 1e-12, "Mann-Whitney: 3 below 3, U 0, exact p 0.1");
	p = stats_mann_whitney(b, 4, a, 4, &u);
	ok(u == 16 && fabs(p - 2.0 / 70) < 1e-12,
	    "Mann-Whitney: 4 above 4, U 16, exact p 2/70");
	p = stats_mann_whitney(same, 3, same, 3, &u);
	ok(u == 4.5 && p == 1, "Mann-Whitney: all tied, U mn/2, p 1");
	/* ties: the normal approximation; each tie counts half */
	p = stats_mann_whitney(tied, 4, same, 3, &u);
	ok(u == 3.0 && p > 0.05 && p < 1, "Mann-Whitney: ties count half in U");
	ok(stats_mann_whitney(a, 0, b, 3, &u) < 0, "Mann-Whitney: an empty set");
}

static void test_summary(void)
{
	/* a textbook's small sample: mean 5, sd sqrt(32/7), median 4.5 */
	double x[] = { 9, 2, 5, 4, 4, 7, 4, 5 };
	struct stats_summary s;

	stats_summarize(x, N(x), &s);
	ok(s.n == 8 && s.mean == 5 && s.median == 4.5 && s.min == 2 &&
	    s.max == 9, "summary: n, mean, median, min, max");
	near(s.sd, sqrt(32.0 / 7), 1e-12, "summary: sample sd");
	near(s.cv, sqrt(32.0 / 7) / 5 * 100, 1e-9, "summary: CV in %");
	/* mean +- t(0.975, 7 df) = 2.365 (the t table) * sd / sqrt(8) */
	near(s.ci_low, 5 - 2.365 * sqrt(32.0 / 7) / sqrt(8), 0.001,
	    "summary: 95 % interval of the mean, low");
	near(s.ci_high, 5 + 2.365 * sqrt(32.0 / 7) / sqrt(8), 0.001,
	    "summary: 95 % interval of the mean, high");
	stats_summarize(x, 1, &s);
	ok(s.n == 1 && s.sd == 0 && s.ci_low == s.mean && s.ci_high == s.mean,
	    "summary: one value, no spread");
}

/*
 * The OpenGFS runs of 2003 (OpenGFS_Performance, "DAMETH_SINGLE" and
 * "DAMETH_RROBIN", one node, bonnie++ 1.02c): sequential create per
 * second.
 */
static void test_bimodal(void)
{
	double single[] = { 829, 801, 825, 73, 72, 72, 71 };
	double issue[] = { 829, 801, 825, 73, 72, 71 };
	double rrobin[] = { 738, 70, 850, 804, 802, 796, 72 };
	double random_[] = { 776, 848, 72 };
	double putc_rr[] = { 6064, 5785, 5666, 6058, 5668, 5865, 5678 };
	double noise[] = { 100, 101, 99, 102, 98, 100.5 };
	double stray[] = { 100, 101, 99, 102, 98, 300 };
	double twenty[] = { 100, 101, 99, 120, 121, 119 };
	struct stats_summary s;

	stats_summarize(single, N(single), &s);
	ok(s.bimodal, "bimodal: OpenGFS DAMETH_SINGLE seq create, 3 near 820 and 4 near 72");
	stats_summarize(issue, N(issue), &s);
	ok(s.bimodal, "bimodal: 829 801 825 73 72 71");
	stats_summarize(rrobin, N(rrobin), &s);
	ok(s.bimodal, "bimodal: OpenGFS DAMETH_RROBIN seq create, 5 high and 2 low");
	stats_summarize(random_, N(random_), &s);
	ok(!s.bimodal, "bimodal: not from 3 runs");
	stats_summarize(putc_rr, N(putc_rr), &s);
	ok(!s.bimodal, "bimodal: not DAMETH_RROBIN's per-char writes (CV 3 %)");
	stats_summarize(noise, N(noise), &s);
	ok(!s.bimodal, "bimodal: not plain noise");
	stats_summarize(stray, N(stray), &s);
	ok(!s.bimodal, "bimodal: not one stray run");
	stats_summarize(twenty, N(twenty), &s);
	ok(!s.bimodal, "bimodal: not two clusters 20 % apart");
}

/*
 * The noncentral t and the power of the two-sample t test against R's
 * power.t.test() (two-sample, two-sided, alpha 0.05, strict = FALSE),
 * whose help page gives power.t.test(n = 20, delta = 1) = 0.8689528 and
 * power.t.test(power = .90, delta = 1) n = 22.02110; with sd = 0.02,
 * delta = 0.05 needs n = 3.87 and delta = 0.01 n = 63.77 a group at
 * power 0.8.  With no noncentrality it is Student's t.
 */
static void test_power(void)
{
	near(stats_nct_cdf(2.0, 5, 0), stats_t_cdf(2.0, 5), 1e-9,
	    "noncentral t with delta 0 is Student's t (2, 5 df)");
	near(stats_nct_cdf(-1.5, 12, 0), stats_t_cdf(-1.5, 12), 1e-9,
	    "noncentral t with delta 0 is Student's t (-1.5, 12 df)");
	/* many degrees of freedom: T' - delta is nearly normal */
	near(stats_nct_cdf(3.0, 1e6, 2.0), stats_normal_cdf(1.0), 1e-4,
	    "noncentral t, 1e6 df: P(T' <= 3 | delta 2) = Phi(1)");
	near(stats_t_power(20, 1), 0.8689528, 1e-6,
	    "power.t.test(n = 20, delta = 1): power 0.8689528");
	near(stats_t_runs(1, 0.9), 22.02110, 1e-4,
	    "power.t.test(power = .90, delta = 1): n 22.02110");
	/* 3.76 by this sum and by a direct integral over the chi-square:
	 * within the one run that the rounding up leaves */
	near(stats_t_runs(0.05 / 0.02, 0.8), 3.87, 0.15,
	    "power.t.test(delta = .05, sd = .02, power = .8): n 3.87");
	is_int((int)ceil(stats_t_runs(0.05 / 0.02, 0.8)), 4,
	    "delta 5 %, sd 2 %: 4 runs a set");
	near(stats_t_runs(0.01 / 0.02, 0.8), 63.77, 0.005,
	    "power.t.test(delta = .01, sd = .02, power = .8): n 63.77");
	is_int((int)ceil(stats_t_runs(0.01 / 0.02, 0.8)), 64,
	    "delta 1 %, sd 2 %: 64 runs a set");
	ok(stats_t_runs(0, 0.8) < 0, "no effect: no number of runs");
}

int main(void)
{
	test_t_quantiles();
	test_welch();
	test_mann_whitney_table();
	test_mann_whitney_data();
	test_summary();
	test_bimodal();
	test_power();
	return tap_done();
}
