/*
 * out/markdown.h: a set of results as GitHub-flavoured Markdown
 * tables (out/markdown.c), for issue trackers and forums.
 */
#ifndef CLYDE_REPORT_MARKDOWN_H
#define CLYDE_REPORT_MARKDOWN_H

#include <stdio.h>

#include "config.h"
#include "report/set.h"

/*
 * One table per section in the layout of 'compat', with the --average
 * rows of the set's groups and, when base is not NULL, --compare rows;
 * then the line of the results' CSV generations.
 */
void report_markdown_set(FILE *out, enum compat compat,
    const struct report_set *set, const char *base);

#endif
