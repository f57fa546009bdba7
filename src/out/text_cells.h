/*
 * out/text_cells.h: the cells and labels of bonnie++'s text table
 * (out/text_cells.c), which the Markdown and HTML tables, the sweep
 * grids, the latency tables and the JSON write as the text table does.
 */
#ifndef CLYDE_TEXT_CELLS_H
#define CLYDE_TEXT_CELLS_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "report/set.h"
#include "result.h"

/*
 * A rate as the table writes it, without its padding: "16268", "318.1",
 * with units (2.00's I/O rates) "278k", "50.6m", "1.1g".
 */
void report_text_rate(char *out, size_t n, double rate, enum phase_id ph,
    bool units);
/* "box 64M: a sweep of 3 chunk sizes, 4k to 1m, 2 runs": sweep s */
void report_text_sweep_heading(char *out, size_t n,
    const struct report_set *set, size_t s);
/*
 * The CSV generations of the set's results read from CSV lines, tables
 * and pages (not from clyde's JSON records), each once, in the order
 * first read ("1.0x, 1.98"), into out; returns how many.  scratch: a
 * zeroed record to read them into.
 */
size_t report_text_generations(char *out, size_t n,
    const struct report_set *set, struct result *scratch);
/* How many of the set's results were read from clyde's JSON records. */
size_t report_text_json_records(const struct report_set *set,
    struct result *scratch);
/*
 * The label of a --dirs row: number:depth:fanout, and :N when N copies
 * (-c) or ranks of clyde-mpi made directories at once, as the 2.00 size
 * label shows the concurrency.
 */
void report_text_dirs_label(char *out, size_t n, const struct result *res);
/*
 * The size label of a row: "64M:4k" (1.03), "64M::2" (2.00).  A row of
 * a sweep shows its chunk even when it is the default ("64M:8k"), so
 * that every row of a sweep says its chunk size.
 */
void report_text_size_label(char *out, size_t n, enum compat compat,
    const struct result *res, bool sweep);

/*
 * A group mean's verdict on phase ph against the base, for a cell: "~"
 * within noise; "+20%" and its 95 % interval "+17..+23" when
 * significant; the plain percentage when too few runs; n bytes each.
 * latency: v is a latency's verdict ("+20%": 1.2 times slower).
 */
void report_text_verdict(char *cell, char *interval, size_t n,
    const struct report_set *set, const struct result *res,
    const struct report_verdict *v, enum phase_id ph, bool latency);
/*
 * The runs a set needs to tell a change of 1, 5 and 10 % from noise, for
 * a cell: "41/3/2" (a count over 999 as "1k+"); "" when not known.
 */
void report_text_runs_needed(char *cell, size_t n,
    const struct report_verdict *v);
#define REPORT_TEXT_RUNS_LABEL "runs for 1/5/10%"
/* Whether any of the six phases from first has its runs needed. */
bool report_text_any_runs_needed(const struct report_verdict *v, int first);
/*
 * "too few runs to see a 5 % change: seq_create 800 a set, ..." into buf,
 * of the six phases from first whose sets have fewer runs than a 5 %
 * change needs; "" when none.
 */
void report_text_short_of_runs(char *buf, size_t n,
    const struct report_verdict *v, int first);
/* Whether v (may be NULL) has a verdict in the six phases from first. */
bool report_text_any_verdict(const struct report_verdict *v, int first);
/* The runs of the first of the six phases from first with too few, or 0. */
unsigned report_text_too_few(const struct report_verdict *v, int first);
#define REPORT_TEXT_TOO_FEW "too few runs (%u): no verdict"
/*
 * "1 stopped phase left out" (n of them) into buf: the runs' phases of
 * the six from first that were stopped for part of their time, left out
 * of group g's mean; "" when none was.
 */
void report_text_stopped(char *buf, size_t n, const struct report_set *set,
    size_t g, int first);
/*
 * "put_block 1 of 5 runs measured, 4 too fast (+++++)" (joined by "; ")
 * into buf: the phases of the six from first whose mean in group g is of
 * some runs only, the others +++++; "" when none is.
 */
void report_text_too_fast(char *buf, size_t n, const struct report_set *set,
    size_t g, int first);

/*
 * --best: a set's cell, "*100" for the best, "~96" within noise of it,
 * "84" beyond noise or with too few runs; "" without a median.
 */
void report_text_best_cell(char *cell, size_t n, const struct report_best *b);
/* The runs of the first of the six phases from first with too few, or 0. */
unsigned report_text_best_few(const struct report_best *b, int first);
/* Whether b (may be NULL) has a median in the six phases from first. */
bool report_text_best_any(const struct report_best *b, int first);
/* Whether any set has, in the section of the six phases from first. */
bool report_text_best_section(const struct report_set *set, int first);
#define REPORT_TEXT_BEST_TITLE "Best case: each set's median in % of the " \
    "best set's (*: the best; ~: not significantly different from it)"

/*
 * What group g's runs differ in from the base's, in one line: "profile
 * 2.00 vs 1.03, file size 2G vs 1G"; "" when alike.
 */
void report_text_unlike(char *out, size_t n, const struct report_set *set,
    long g);

#endif
