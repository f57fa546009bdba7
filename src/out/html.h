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
	char *const *inputs;    /* the files read, as given */
	const char *const *labels;      /* [ninputs]: each one's LABEL, or
	                                   NULL */
	size_t ninputs;         /* 0: the standard input */
	time_t made;            /* when the page was made */
};

/*
 * The tables, cells shaded by value per column, an SVG bar chart per
 * measurement.  No scripts, nothing external; every string from the
 * input escaped.  summary (--summary): the origin and a row per set and
 * phase alone (out/set_summary.h).
 */
void report_html_set(FILE *out, enum compat compat,
    const struct report_set *set, const char *base,
    const struct report_html_origin *origin, bool summary);

#endif
