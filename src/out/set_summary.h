/*
 * out/set_summary.h: the cells of clyde report --summary (clyde(1)):
 * one row per set and phase with its mean, cv, runs, and against the
 * --compare base its verdict, the 95 % interval of the change and the
 * runs a set needs to see a 5 % change.  out/set_summary.c makes the
 * cells from the set; the text, Markdown and HTML writers lay them out.
 */
#ifndef CLYDE_SET_SUMMARY_H
#define CLYDE_SET_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "report/set.h"

/* The columns, in their order; latency ones only when some set has them */
enum set_summary_col {
	SUMMARY_SET, SUMMARY_PHASE, SUMMARY_MEAN, SUMMARY_CV, SUMMARY_RUNS,
	SUMMARY_VERDICT, SUMMARY_INTERVAL, SUMMARY_RUNS_5,
	SUMMARY_LATENCY, SUMMARY_LATENCY_VERDICT, SUMMARY_COLS
};

/* A column's heading: "set", "mean", "vs ext4" ... into buf. */
void set_summary_heading(char *buf, size_t n, const struct report_set *set,
    enum set_summary_col col);

/* Which columns the set fills: the verdicts' with --compare, latency
 * ones where a set's runs have latencies. */
bool set_summary_has_col(const struct report_set *set,
    enum set_summary_col col);

#define SUMMARY_CELL 300
struct set_summary_row {
	char cell[SUMMARY_COLS][SUMMARY_CELL];
	bool base;                      /* the --compare base's row */
	enum report_verdict_kind kind;  /* of the rate's verdict */
	enum report_verdict_kind latency_kind;
};

/*
 * The row after *at (start at 0): by phase, then set, every phase a set
 * measured or found too fast.  Returns false after the last.
 */
bool set_summary_next(const struct report_set *set, size_t *at,
    struct set_summary_row *row);

/*
 * "Runs: ext4 5, xfs 5" into buf: the one line of how many runs each
 * set had.
 */
void set_summary_runs_line(char *buf, size_t n, const struct report_set *set);

/* What the cells mean (units, ~, the test), in lines of under 80 columns. */
void set_summary_legend(char *buf, size_t n, const struct report_set *set);

#endif
