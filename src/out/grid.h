/*
 * out/grid.h: the sweeps over file sizes (out/grid.c) as iozone -a
 * shows its results: per phase a table with the file sizes down and the
 * chunk sizes across, and in HTML a chart of one line per chunk size
 * over the file size, on log axes, where the end of the page cache shows
 * as a cliff.  Sweeps of one file size (chunk sweeps) are not theirs.
 */
#ifndef CLYDE_REPORT_GRID_H
#define CLYDE_REPORT_GRID_H

#include <stdbool.h>
#include <stdio.h>

#include "report/set.h"

/* Every sweep of several file sizes: text tables, or Markdown ones. */
void report_grid_text(FILE *out, const struct report_set *set, bool markdown);

/*
 * The same as charts, under a heading; nothing without such a sweep.
 * escape writes text into the page (out/html.c's).
 */
void report_grid_html(FILE *out, const struct report_set *set,
    void (*escape)(FILE *out, const char *text));

#endif
