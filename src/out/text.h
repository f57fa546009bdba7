/*
 * out/text.h: bonnie++'s text table (out/text.c), of one result
 * or of a set with averages and comparisons.  Formatters read struct
 * result and write text; they never measure.
 */
#ifndef CLYDE_REPORT_TEXT_H
#define CLYDE_REPORT_TEXT_H

#include <stdio.h>

#include "config.h"
#include "report/set.h"
#include "result.h"

/* The text table of one result in the layout of 'compat'. */
void report_text(FILE *out, enum compat compat, const struct result *res);
/*
 * Every result of a set in one table (one row each), with the --average
 * rows of its groups and, when base is not NULL, --compare rows.  A set
 * of one result prints as report_text().
 */
void report_text_set(FILE *out, enum compat compat,
    const struct report_set *set, const char *base);

#endif
