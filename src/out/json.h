/*
 * out/json.h: the result record as JSON (out/json.c), described
 * key by key in clyde(1), OUTPUT, The JSON record.
 */
#ifndef CLYDE_REPORT_JSON_H
#define CLYDE_REPORT_JSON_H

#include <stdio.h>

#include "report/set.h"
#include "result.h"

/*
 * How every record begins, the value of schema_version next: a --json
 * file holds it from the start (out/output_file.c), so that one left by a run
 * killed at once is known as clyde's.
 */
#define REPORT_JSON_START "{\n  \"schema_version\": "

/*
 * The JSON record of one result, with the run-only keys filled when
 * res->from_run (null otherwise).  Strings are escaped for JSON; bytes
 * that are not UTF-8 become \u00XX (read as Latin-1).
 */
void report_json_record(FILE *out, const struct result *res);
/* A JSON array of the set's records, then one per --average group. */
void report_json_set(FILE *out, const struct report_set *set,
    const char *base);

#endif
