/*
 * report_html.h: one HTML page of a set of results (report_html.c).
 */
#ifndef CLYDE_REPORT_HTML_H
#define CLYDE_REPORT_HTML_H

#include <stdio.h>

#include "config.h"
#include "report_set.h"

/*
 * The tables, cells shaded by value per column, an SVG bar chart per
 * measurement.  No scripts, nothing external; every string from the
 * input escaped.
 */
void report_html_set(FILE *out, enum compat compat,
    const struct report_set *set, const char *base);

#endif
