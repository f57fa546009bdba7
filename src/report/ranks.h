/*
 * report/ranks.h: clyde report's view of a clyde-mpi record read from
 * JSON (report/ranks.c): every rank's own rate per phase, beside the
 * whole run's (the last done), the first-done rate and the skew.
 */
#ifndef CLYDE_REPORT_RANKS_H
#define CLYDE_REPORT_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/set.h"
#include "result.h"

/*
 * The first result of set from item i on that has several ranks, into
 * res (a zeroed record to reuse, as report_set_get()'s); set->n when
 * none is left.
 */
size_t report_ranks_next(const struct report_set *set, size_t i,
    struct result *res);

/*
 * The per-rank table of res: one row per rank (its host, the rank it
 * read from, its rate in each phase that ran), then the whole run's
 * rate, the first-done rate and the skew; the figures of a phase that
 * the table prints as +++++ in parentheses.  markdown: one Markdown
 * table; else a text table per section (large files, small files,
 * directories) of columns as wide as their figures.  put writes text
 * from the input (host names).
 */
void report_ranks_table(FILE *out, const struct result *res, bool markdown,
    void (*put)(FILE *, const char *));

/* Its heading: name, ranks and --shift, and the units; put as above. */
void report_ranks_heading(FILE *out, const struct result *res,
    void (*put)(FILE *, const char *));

/* clyde report's text: each record of several ranks, its heading and table */
void report_ranks_text(FILE *out, const struct report_set *set);

#endif
