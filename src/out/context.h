/*
 * out/context.h: where and how the results of a table ran, for the
 * formatters (clyde(1), clyde report, HTML and Markdown): filesystem,
 * mount options, profile, -b and -D, host and block device, one line
 * per distinct context with the rows that share it.  Only a run's
 * record (clyde's JSON) carries a context; bonnie++'s CSV and tables
 * do not.
 */
#ifndef CLYDE_REPORT_CONTEXT_H
#define CLYDE_REPORT_CONTEXT_H

#include <stddef.h>
#include <stdio.h>

#include "result.h"

#define REPORT_CONTEXT_MAX 16

struct report_context {
	char what[1536];                /* "ext4 from /dev/sda1 (rw); ..." */
	char rows[512];                 /* "web01, web02" */
	size_t nrows;
};

struct report_contexts {
	struct report_context c[REPORT_CONTEXT_MAX];
	size_t n;
	size_t rows_left_out;           /* rows of contexts past the last */
};

/* What r's record says of where and how it ran; false: nothing. */
bool report_context_line(char *out, size_t n, const struct result *r);
/*
 * Add r, shown in its table as 'label', to the context it shares with
 * earlier rows, or to a new one.  A result without a context is not
 * counted.
 */
void report_context_add(struct report_contexts *list, const struct result *r,
    const char *label);

/*
 * How a formatter writes the list: its text escaped by put; each item
 * between item[0] and item[1], the rows' names (where more than one row
 * or context) between name[0] and name[1].
 */
struct report_context_markup {
	void (*put)(FILE *out, const char *text);
	const char *list[2];
	const char *item[2];
	const char *name[2];
};

/* Write the list; nothing when no row carried a context. */
void report_context_print(FILE *out, const struct report_contexts *list,
    const struct report_context_markup *m);

#endif
