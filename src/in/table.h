/*
 * in/table.h: bonnie++'s text tables of every generation (1.0x, 1.9x,
 * 2.00a) into the result record, for the posts that hold no CSV line.
 *
 * It is fed one logical line at a time by csv_input (quote marks,
 * indentation and quoted-printable already undone) and keeps the table
 * it is reading; when a line ends the table, its results are in done[].
 * What a table cannot tell (the seed, the seeker count, 2.00a's file
 * rates) stays unknown: clyde(1), REPORT, Text tables.
 */
#ifndef CLYDE_TABLE_READ_H
#define CLYDE_TABLE_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/*
 * Rows of one table: bon_csv2txt prints one per CSV line it was fed, a
 * --chunks run one per chunk size, up to 32 (config.h's CHUNKS_MAX).
 */
#define TABLE_ROWS_MAX 32
/* A data row and the piece a mail client wrapped off it */
#define TABLE_LINE_MAX 512
/* Why a row does not read (in/csv_line.h's CSV_WHY_MAX) */
#define TABLE_WHY_MAX 160
/*
 * Results handed out at once: a held I/O table's and the next table's
 * (an I/O table waits for a file table of the same names).
 */
#define TABLE_DONE_MAX (2 * TABLE_ROWS_MAX)
/*
 * Lines named at once: the rows, the Latency lines dropped (two a row),
 * the rows past TABLE_ROWS_MAX, a header
 */
#define TABLE_BAD_MAX (3 * TABLE_ROWS_MAX + 2)

struct table_read {
	/* the table being read */
	int state;
	char version[16];               /* of its Version line: "1.03e" */
	bool units;                     /* 2.00a: "Name:Size etc", k/m/g */
	bool latency;                   /* Latency rows: 1.9x or later */
	int concurrency;                /* of 1.9x's Concurrency line */
	char file_name[NAME_MAX_LEN + 1];       /* the file section's name line */
	size_t nrows, nio, nfile;
	bool last_file;                 /* a Latency row goes with a file row */
	struct result *latency_row;     /* of the last Latency row, which a
	                                   wrap may have cut */
	size_t latency_i;               /* its row, */
	bool latency_file;              /* its section */
	unsigned long latency_line;     /* and line */
	unsigned idle;                  /* lines since the last table line */
	bool gap;                       /* a blank or other line since */
	unsigned long first_line;
	bool marked;                    /* a header line only bonnie++ writes */
	bool bare;                      /* rows without any header line */
	bool file_section;              /* its file section's header seen */
	bool files_top;                 /* it began as a -s 0 table does:
	                                   "Version ... Sequential Create" */
	/* data rows past TABLE_ROWS_MAX: not read, named */
	bool last_over;                 /* the last row was one */
	size_t nover;
	unsigned long over_first, over_last;
	struct result rows[TABLE_ROWS_MAX];
	unsigned long row_line[TABLE_ROWS_MAX];
	/* a row with a cell that does not read: no result, named */
	bool row_bad[TABLE_ROWS_MAX];
	unsigned long bad_at[TABLE_ROWS_MAX];
	char bad_at_why[TABLE_ROWS_MAX][TABLE_WHY_MAX];
	/*
	 * a Latency line that does not read, of a row's I/O [0] or file [1]
	 * section: dropped (the row reads without it), named
	 */
	bool lat_dropped[TABLE_ROWS_MAX][2];
	unsigned long lat_at[TABLE_ROWS_MAX][2];
	char lat_why[TABLE_ROWS_MAX][2][TABLE_WHY_MAX];
	/* a data row a mail client wrapped, waiting for its rest */
	char wrapped[TABLE_LINE_MAX];
	size_t wrapped_len;
	unsigned long wrapped_line;
	/*
	 * The results of tables of I/O rows alone, held back: a later file
	 * table may hold their file rows (a post that split the two).
	 */
	struct result held[TABLE_ROWS_MAX];
	unsigned long held_line[TABLE_ROWS_MAX];
	size_t nheld;
	unsigned long held_first;
	/* the results of the table that ended last */
	struct result done[TABLE_DONE_MAX];
	unsigned long done_line[TABLE_DONE_MAX];
	/*
	 * a row with no header line: to be named, not read, unless a CSV
	 * line of the same run is next to it (csv_input drops it then)
	 */
	bool done_bare[TABLE_DONE_MAX];
	size_t ndone;
	unsigned long done_first;       /* its first line */
	/* and its lines that did not read, in order */
	unsigned long bad_line[TABLE_BAD_MAX];
	char bad_why[TABLE_BAD_MAX][TABLE_WHY_MAX];
	size_t nbad;
	/* work space */
	char clean[TABLE_LINE_MAX];
	char joined[TABLE_LINE_MAX];
};

void table_read_init(struct table_read *t);
/*
 * One line.  Returns the number of results (in done[]) and rows that do
 * not read (in bad_line[], bad_why[]) of a table that this line ended, or
 * 0.  The line may start the next table.
 */
size_t table_read_line(struct table_read *t, const char *line,
    unsigned long lineno);
/* The table ends here (a CSV line, the end of the input): as above. */
size_t table_read_end(struct table_read *t);
/*
 * A result read from a table and one read from a CSV line are the same
 * run: the name as far as the table shows it, the sizes, the chunk where
 * the CSV line names one (2.00a leaves it empty whatever the chunk), and
 * every cell within the table's rounding.
 */
bool table_same_run(const struct result *table, const struct result *csv);

#endif
