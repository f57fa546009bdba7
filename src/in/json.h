/*
 * in/json.h: clyde's own JSON records (--json of a run, of a -x or
 * --chunks array, or of clyde report --json) read back into result
 * records (in/json.c), with what a run knows beside its rates: the
 * filesystem, its mount options, the phases' raw figures and latency
 * percentiles.
 */
#ifndef CLYDE_JSON_INPUT_H
#define CLYDE_JSON_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/*
 * Whether text[len], the start of an input, is JSON: '{' then '"' or
 * '}', or '[' then '{' or ']', blanks around them.  A bonnie++ table
 * pasted with BBCode ("[b]") or prose is not.
 */
bool json_input_looks(const char *text, size_t len);

/*
 * Takes each record read; returns 0, or -1 to stop (errno).  It may keep
 * res->ranks (malloc'd, res->nranks of them, to be freed by it) by
 * setting res->ranks to NULL: a record of 10,000 ranks is then held once.
 */
typedef int json_input_add(void *ctx, struct result *res);

/*
 * Read every record of text[len], one object or an array of them, into
 * a result handed to add(); the records of group means (clyde report
 * --average) are left out, as they are made again from the runs.
 * Returns the number handed over, or -1 with why (and *line) for text
 * that is no JSON, a value that is no record, or when add() failed.
 */
long json_input_read(const char *text, size_t len, json_input_add *add,
    void *ctx, char *why, size_t why_len, unsigned long *line);

#endif
