/*
 * in/stream.h: bonnie++ results out of a whole stream as people keep
 * them (in/stream.c): mail and web text around the lines, quoted-
 * printable, '>' quotes, indentation, trailing blanks, and lines a mail
 * client wrapped; CSV lines (in/csv_line.h), text tables (in/table.h)
 * and web pages (in/html.h) in any mix.  It gives one result at a time.
 */
#ifndef CLYDE_STREAM_H
#define CLYDE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "in/blocks.h"
#include "in/csv_line.h"
#include "in/html.h"
#include "in/table.h"
#include "result.h"

enum csv_input_status {
	CSV_IN_END,             /* end of input */
	CSV_IN_RESULT,          /* a result in res */
	CSV_IN_BAD,             /* a result-like line that cannot be read */
	CSV_IN_ERROR            /* reading failed: errno */
};

/*
 * The stream reader.  It holds its buffers; no allocation.  Text tables
 * are read too (in/table.h); a table next to the CSV line of the same
 * run gives one result, the CSV line's.
 */
struct csv_input {
	FILE *in;
	/* physical lines */
	char io[65536];
	size_t io_pos, io_len;
	bool eof;
	unsigned long lineno;           /* of the last physical line read */
	bool qp;                        /* quoted-printable seen */
	/* the marks before each line of a block: comments, a diff's sides */
	struct blocks blocks;
	char side;                      /* of the lines read last */
	/* one logical line looked at and given back */
	bool have_back;
	char back[CSV_LINE_MAX];
	size_t back_len;
	unsigned long back_lineno;
	bool back_cut;                  /* overlong */
	bool back_nul;                  /* with a NUL byte */
	bool back_hard_break;           /* ended in '\\' */
	char back_side;
	/* work space */
	char line[CSV_LINE_MAX];
	char next[CSV_LINE_MAX];
	char join[CSV_LINE_MAX];
	char phys[CSV_LINE_MAX];
	char plain[CSV_LINE_MAX];       /* a line without inline markup */
	/* bon_csv2html pages, and the lines their rows stand for */
	struct html_read html;
	/* text tables, and the results of one that ended */
	struct table_read table;
	size_t table_next;              /* of table.done[] handed out */
	size_t table_bad_next;          /* of table.bad_line[] handed out */
	/* the CSV result that ended a table, handed out after its rows */
	bool have_held;
	enum csv_input_status held_status;
	struct result held;
	unsigned long held_line;
	char held_why[CSV_WHY_MAX];
	/*
	 * The CSV lines right after that one, each the run of a row of
	 * the same table (a --chunks run prints a row per chunk size, then
	 * a line per chunk size), handed out after it.
	 */
	struct result follow[TABLE_ROWS_MAX];
	unsigned long follow_line[TABLE_ROWS_MAX];
	size_t nfollow, follow_next;
	/*
	 * The last CSV results, one after the other, which a table right
	 * after may repeat (bonnie++ -q puts the table on stderr).
	 */
	struct result last[TABLE_ROWS_MAX];
	size_t nlast;
	unsigned long last_line;        /* of the last one */
};

void csv_input_init(struct csv_input *ci, FILE *in);

/*
 * The next result.  *lineno is the first line of it (or of the bad
 * line), 'why' the reason for CSV_IN_BAD.
 */
enum csv_input_status csv_input_next(struct csv_input *ci, struct result *res,
    unsigned long *lineno, char *why, size_t why_len);

#endif
