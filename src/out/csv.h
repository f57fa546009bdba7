/*
 * out/csv.h: clyde report's CSV lines (out/csv.c).
 */
#ifndef CLYDE_OUT_CSV_H
#define CLYDE_OUT_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"
#include "report/set.h"

/*
 * CSV of the compat generation (a result read from a table or a run in
 * its own unless compat_given); a header first for several lines.
 */
void report_csv_set(FILE *out, enum compat compat, bool compat_given,
    const struct report_set *set);

#endif
