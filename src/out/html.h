/*
 * out/html.h: one HTML page of a set of results (out/html.c).
 */
#ifndef CLYDE_REPORT_HTML_H
#define CLYDE_REPORT_HTML_H

#include <stdio.h>
#include <time.h>

#include "config.h"
#include "report/set.h"

/* Where the page's results came from, said at its top. */
struct report_html_origin {
	char *const *inputs;    /* the file arguments as given (LABEL=FILE) */
	size_t ninputs;         /* 0: the standard input */
	time_t made;            /* when the page was made */
};

/*
 * The tables, cells shaded by value per column, an SVG bar chart per
 * measurement.  No scripts, nothing external; every string from the
 * input escaped.
 */
void report_html_set(FILE *out, enum compat compat,
    const struct report_set *set, const char *base,
    const struct report_html_origin *origin);

#endif
