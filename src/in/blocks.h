/*
 * in/blocks.h: the marks a post puts before every line of a block
 * (in/blocks.c): a comment's ("# ", "// ", "; ", "-- ") and a diff's
 * sides ("-" the old run, "+" the new), which csv_input takes off the
 * lines after the quote marks.  A block is the consecutive lines that
 * share the mark (clyde(1), REPORT, Text tables).
 */
#ifndef CLYDE_BLOCKS_H
#define CLYDE_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>

/* The side of a diff a line is on: its mark, or 0 */
#define SIDE_NONE '\0'
#define SIDE_OLD '-'
#define SIDE_NEW '+'

struct blocks {
	char mark[3];           /* the comment mark of the block, "" none */
	bool diff;              /* the lines are a diff's */
};

void blocks_init(struct blocks *b);
/*
 * The line s[len], a string (quote marks and indentation already off): how many
 * bytes at its start are its block's mark, blanks after it included;
 * *side is the diff's side it is on (SIDE_NONE outside a diff).  A
 * comment block starts at a mark with a blank or nothing after it, a
 * diff at a line that is bonnie++'s behind a '-' or '+' (a table's
 * Version line, a CSV line) or at the --- / +++ / @@ lines of a
 * unified diff; either ends at the first line without the mark.
 */
size_t blocks_strip(struct blocks *b, const char *s, size_t len, char *side);

#endif
