/*
 * out/summary.h: what clyde -x N (3 or more) says on stderr after its
 * runs (out/summary.c): per phase the median and the half-width of
 * the 95 % interval of the mean, and the phases whose runs vary by more
 * than REPORT_SUMMARY_CV_MAX.  It formats the set's groups; it measures
 * nothing and computes nothing.
 */
#ifndef CLYDE_REPORT_SUMMARY_H
#define CLYDE_REPORT_SUMMARY_H

#include <stdio.h>

#include "report/set.h"

/* A coefficient of variation above this, in %, is named. */
#define REPORT_SUMMARY_CV_MAX 10.0

/*
 * Each group of the set (report_set_average(): the runs of one chunk
 * size, or all of them) as a block of lines on out.
 */
void report_summary(FILE *out, const struct report_set *set);

#endif
