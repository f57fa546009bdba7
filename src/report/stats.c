/*
 * report/stats.c: summaries and tests of sets of runs, from the textbook
 * formulas (clyde(1), Sets of runs; tests/unit/unit_stats.c checks
 * them against published tables).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/stats.h"

static int by_value(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? -1 : a > b;
}

void stats_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), by_value);
}

double stats_median_sorted(const double *x, size_t n)
{
	if (n == 0)
		return 0;
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2.0;
}

/*
 * A gap test rather than a dip test or a bimodality coefficient: it
 * works from 4 runs, needs no table, and says what it found.  A
 * benchmark's two modes (a cache that held or not, one allocation path
 * or another) are apart by a factor, not by percent, so the upper side
 * must be 1.2 times the lower; each side must be tight beside the gap,
 * so that plain noise or one stray run is no second mode.
 */
bool stats_bimodal_sorted(const double *x, size_t n)
{
	size_t i, at = 0;
	double gap = -1, lo_range, hi_range;

	if (n < 4)
		return false;
	for (i = 1; i + 2 < n; i++)     /* x[i] | x[i + 1], 2 or more a side */
		if (x[i + 1] - x[i] > gap) {
			gap = x[i + 1] - x[i];
			at = i;
		}
	lo_range = x[at] - x[0];
	hi_range = x[n - 1] - x[at + 1];
	return gap > 0 && gap >= 3.0 * fmax(lo_range, hi_range) &&
	    x[at + 1] >= 1.2 * x[at] && x[at] >= 0;
}

/* The two-sided t of the 95 % level; integer df cached (the sets' n - 1). */
static double t_95(double df)
{
	static double cache[128];
	size_t k = (size_t)df;

	if ((double)k != df || k == 0 || k >= sizeof(cache) / sizeof(cache[0]))
		return stats_t_quantile(0.5 + STATS_LEVEL / 2, df);
	if (cache[k] == 0)
		cache[k] = stats_t_quantile(0.5 + STATS_LEVEL / 2, df);
	return cache[k];
}

void stats_summarize(double *x, size_t n, struct stats_summary *s)
{
	double sum = 0, ss = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (n == 0)
		return;
	stats_sort(x, n);
	for (i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / (double)n;
	/* two passes: the deviations, not sums of squares that cancel */
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->median = stats_median_sorted(x, n);
	s->min = x[0];
	s->max = x[n - 1];
	s->ci_low = s->ci_high = s->mean;
	s->bimodal = stats_bimodal_sorted(x, n);
	if (n < 2)
		return;
	s->sd = sqrt(ss / (double)(n - 1));
	if (s->mean > 0)
		s->cv = s->sd / s->mean * 100.0;
	s->ci_low = s->mean - t_95((double)(n - 1)) * s->sd / sqrt((double)n);
	s->ci_high = 2 * s->mean - s->ci_low;
}

double stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/*
 * The continued fraction of the incomplete beta function, by the
 * modified Lentz method (Abramowitz and Stegun 26.5.8).
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, num, del;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_regularized(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x));
	/* the fraction converges fast below (a + 1) / (a + b + 2) */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	double tails = beta_regularized(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tails / 2 : tails / 2;
}

static double t_density(double t, double df)
{
	return exp(lgamma((df + 1) / 2) - lgamma(df / 2) -
	    0.5 * log(df * M_PI) - (df + 1) / 2 * log1p(t * t / df));
}

double stats_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, t;
	int i;

	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	while (stats_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	t = hi / 2;
	/* Newton's steps, kept inside the bracket by halving */
	for (i = 0; i < 200; i++) {
		double f = stats_t_cdf(t, df) - p, next;

		if (f < 0)
			lo = t;
		else
			hi = t;
		next = t - f / t_density(t, df);
		if (!(next > lo && next < hi))
			next = (lo + hi) / 2;
		if (fabs(next - t) <= 1e-13 * fmax(1, t))
			return next;
		t = next;
	}
	return t;
}

bool stats_welch(const struct stats_summary *a, const struct stats_summary *b,
    struct stats_welch *w)
{
	double va, vb, se, half;

	memset(w, 0, sizeof(*w));
	if (a->n < 2 || b->n < 2)
		return false;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se = sqrt(va + vb);
	w->diff = b->mean - a->mean;
	w->diff_low = w->diff_high = w->diff;
	if (!(se > 0)) {
		/* no spread at all: any difference is certain */
		w->p = w->diff == 0 ? 1 : 0;
		w->df = (double)(a->n + b->n - 2);
		return true;
	}
	w->t = w->diff / se;
	/* the Welch-Satterthwaite degrees of freedom */
	w->df = (va + vb) * (va + vb) /
	    (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	w->p = 2 * stats_t_cdf(-fabs(w->t), w->df);
	half = t_95(w->df) * se;
	w->diff_low = w->diff - half;
	w->diff_high = w->diff + half;
	return true;
}

double stats_mann_whitney_cdf(size_t m, size_t n, double u)
{
	size_t width = m * n + 1, i, j, k;
	double *old, *cur, sum = 0, total = 0;

	if (u < 0)
		return 0;
	old = calloc((n + 1) * width, sizeof(*old));
	cur = calloc((n + 1) * width, sizeof(*cur));
	if (old == NULL || cur == NULL) {
		free(old);
		free(cur);
		return -1;
	}
	/*
	 * f(i, j, u): the orders of i values of the first set and j of the
	 * second with U = u.  The largest value is the first set's (it beats
	 * all j) or the second's: f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u).
	 */
	for (j = 0; j <= n; j++)
		old[j * width] = 1;
	for (i = 1; i <= m; i++) {
		for (j = 0; j <= n; j++)
			for (k = 0; k < width; k++) {
				double v = k >= j ? old[j * width + k - j] : 0;

				if (j > 0)
					v += cur[(j - 1) * width + k];
				cur[j * width + k] = v;
			}
		memcpy(old, cur, (n + 1) * width * sizeof(*old));
	}
	for (k = 0; k < width; k++) {
		total += old[n * width + k];
		if ((double)k <= u)
			sum += old[n * width + k];
	}
	free(old);
	free(cur);
	return sum / total;
}

/* A value and which set it came from, for the joint ranks. */
struct tagged {
	double v;
	int from_a;
};

static int by_tagged(const void *pa, const void *pb)
{
	return by_value(&((const struct tagged *)pa)->v,
	    &((const struct tagged *)pb)->v);
}

double stats_mann_whitney(const double *a, size_t na, const double *b,
    size_t nb, double *u)
{
	size_t n = na + nb, i, j;
	struct tagged *all;
	double rank_a = 0, ties = 0, mu, var, z, p;

	if (na == 0 || nb == 0)
		return -1;
	all = malloc(n * sizeof(*all));
	if (all == NULL)
		return -1;
	for (i = 0; i < na; i++)
		all[i] = (struct tagged){ a[i], 1 };
	for (i = 0; i < nb; i++)
		all[na + i] = (struct tagged){ b[i], 0 };
	qsort(all, n, sizeof(*all), by_tagged);
	/* mid-ranks: a run of t equal values shares the mean of its ranks */
	for (i = 0; i < n; i = j) {
		double mid, t;

		for (j = i + 1; j < n && all[j].v == all[i].v; j++)
			;
		t = (double)(j - i);
		mid = (double)(i + 1 + j) / 2.0;
		for (size_t k = i; k < j; k++)
			if (all[k].from_a)
				rank_a += mid;
		ties += t * t * t - t;
	}
	free(all);
	*u = rank_a - (double)na * (double)(na + 1) / 2.0;
	mu = (double)na * (double)nb / 2.0;
	if (ties == 0 && na <= STATS_MW_EXACT_MAX && nb <= STATS_MW_EXACT_MAX) {
		p = stats_mann_whitney_cdf(na, nb, fmin(*u, 2 * mu - *u));
		return p < 0 ? -1 : fmin(1, 2 * p);
	}
	var = (double)na * (double)nb / 12.0 *
	    ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	if (!(var > 0))
		return 1;
	z = (fabs(*u - mu) - 0.5) / sqrt(var);
	return z <= 0 ? 1 : erfc(z / sqrt(2.0));
}

/*
 * P(T <= t) for the noncentral t with df degrees of freedom and
 * noncentrality delta: Lenth's algorithm AS 243 (Applied Statistics 38,
 * 1989), a sum of incomplete beta functions weighted by Poisson terms.
 */
double stats_nct_cdf(double t, double df, double delta)
{
	const double errmax = 1e-12;
	double x, lambda, p, q, s, a, b, rxb, albeta, xodd, godd, xeven;
	double geven, tnc = 0, del = delta, en;
	bool negative = t < 0;

	if (negative) {
		t = -t;
		del = -delta;
	}
	x = t * t / (t * t + df);
	if (x > 0) {
		lambda = del * del;
		p = 0.5 * exp(-0.5 * lambda);
		q = sqrt(2 / M_PI) * p * del;
		s = 0.5 - p;
		a = 0.5;
		b = 0.5 * df;
		rxb = pow(1 - x, b);
		albeta = 0.5 * log(M_PI) + lgamma(b) - lgamma(a + b);
		xodd = beta_regularized(a, b, x);
		godd = 2 * rxb * exp(a * log(x) - albeta);
		xeven = 1 - rxb;
		geven = b * x * rxb;
		tnc = p * xodd + q * xeven;
		for (en = 1; en <= 1000; en++) {
			a += 1;
			xodd -= godd;
			xeven -= geven;
			godd *= x * (a + b - 1) / a;
			geven *= x * (a + b - 0.5) / (a + 0.5);
			p *= lambda / (2 * en);
			q *= lambda / (2 * en + 1);
			s -= p;
			tnc += p * xodd + q * xeven;
			if (2 * s * (xodd - godd) <= errmax)
				break;
		}
	}
	tnc += stats_normal_cdf(-del);
	if (tnc > 1)
		tnc = 1;
	if (tnc < 0)
		tnc = 0;
	return negative ? 1 - tnc : tnc;
}

double stats_t_power(double n, double effect)
{
	double df = 2 * (n - 1);
	double crit = stats_t_quantile(1 - (1 - STATS_LEVEL) / 2, df);

	/* as R's power.t.test with strict = FALSE: the upper tail alone */
	return 1 - stats_nct_cdf(crit, df, sqrt(n / 2) * effect);
}

double stats_t_runs(double effect, double power)
{
	double lo = 2, hi = 4;
	int i;

	if (!(effect > 0) || !(power > 0 && power < 1))
		return -1;
	while (stats_t_power(hi, effect) < power) {
		lo = hi;
		hi *= 2;
		if (hi > 1e9)
			return -1;
	}
	if (stats_t_power(lo, effect) >= power)
		return lo;
	for (i = 0; i < 100 && hi - lo > 1e-9 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_power(mid, effect) < power)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
