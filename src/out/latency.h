/*
 * out/latency.h: clyde report --latency (out/latency.c), a table
 * per result in the manner of tiotest's: each phase's mean and largest
 * latency and the share of its operations slower than 2 s, 10 s and the
 * run's --latency-over thresholds.  Only results read from clyde's JSON
 * records have these figures; of a 1.98 CSV line or a 2.00a table, the
 * table has the slowest operation of each phase alone.
 */
#ifndef CLYDE_REPORT_LATENCY_H
#define CLYDE_REPORT_LATENCY_H

#include <stdbool.h>
#include <stdio.h>

#include "report/set.h"

/* Text, or GitHub-flavoured Markdown when markdown. */
void report_latency_text(FILE *out, const struct report_set *set,
    bool markdown);

/*
 * The same tables in HTML, under a heading; nothing when no result has
 * them.  escape writes text into the page (out/html.c's).
 */
void report_latency_html(FILE *out, const struct report_set *set,
    void (*escape)(FILE *out, const char *text));

/*
 * A threshold as people write it: "2s", "50ms", "250us", "100ns";
 * the largest unit it is a whole number of.
 */
void report_latency_threshold(char *out, size_t n, uint64_t ns);

#endif
