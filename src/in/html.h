/*
 * in/html.h: bonnie++ results in web pages (in/html.c).
 *
 * Three things people post from the web: a text table with inline
 * markup around its figures (<b>, <font>, [color=red]); the page that
 * bon_csv2html wrote, or its source, a <TABLE> with one <TD> per field
 * (1.0x, 1.9x and 2.00a layouts); and a page whose line breaks were all
 * lost, where the CSV line runs into the table before it and the text
 * after it.  csv_input feeds it logical lines and reads what it gives
 * back as lines of its own: a bon_csv2html row as the CSV line it was
 * made from, a text line piped through bon_csv2html as that line.
 * clyde(1), REPORT, Web pages.
 */
#ifndef CLYDE_HTML_READ_H
#define CLYDE_HTML_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* cells of a row: a 2.00a page's data row has 32 at most */
#define HTML_CELLS_MAX 64
/* a cell may hold a whole CSV line (a wiki's table) */
#define HTML_CELL_MAX 1024
#define HTML_FIELD_MAX 256
/* fields of the CSV line a row stands for (1.98: 50) */
#define HTML_FIELDS_MAX 50
/* lines one input line may give (a page on one line gives several) */
#define HTML_ITEMS_MAX 16
#define HTML_ITEM_MAX 2048
#define HTML_WHY_MAX 160

struct html_item {
	unsigned long lineno;
	bool bad;                       /* why holds the reason */
	bool result;                    /* text is a row's CSV line */
	bool mib;                       /* 2.00a: block rates in MiB/s */
	char text[HTML_ITEM_MAX];
	char why[HTML_WHY_MAX];
};

struct html_read {
	/* the table being read */
	bool in_table;
	char version[16];               /* of its "Version 1.97" cell */
	bool mib;                       /* M/sec: 2.00a */
	bool conc, chunk, max, min, dirs, fchunk;      /* optional columns */
	bool latency;                   /* a Latency row follows each row */
	/* the row being read */
	bool in_row, in_cell;
	bool rowspan;                   /* its first cell spans two rows */
	unsigned long row_line;
	char cell[HTML_CELLS_MAX][HTML_CELL_MAX];
	size_t ncells, cell_len;
	bool too_many;
	/* a data row waiting for its Latency row: its CSV fields */
	bool pending;
	unsigned long pending_line;
	size_t nfields;
	char field[HTML_FIELDS_MAX][HTML_FIELD_MAX];
	/* what the lines gave, handed out in order */
	struct html_item item[HTML_ITEMS_MAX];
	size_t nitems, next;
	bool overflow;                  /* the queue was full: said */
};

void html_read_init(struct html_read *h);
/*
 * Take a line that holds table markup (<table>, <tr>, <td>, <th> and
 * their ends): true when taken, its rows queued.  Other lines are left
 * for the CSV and text-table readers.
 */
bool html_read_line(struct html_read *h, const char *line,
    unsigned long lineno);
/* The end of the input: a row still waiting is queued. */
void html_read_end(struct html_read *h);
/* Anything queued? */
bool html_read_pending(const struct html_read *h);
/* The next thing queued, or NULL. */
const struct html_item *html_read_next(struct html_read *h);
/* A result read from an item's CSV line: what the page's cells meant. */
void html_item_result(const struct html_item *it, struct result *res);

/*
 * The line without inline markup, for the table readers: HTML tags b, i, u, s, font, span,
 * strong, em, a, tt, code, pre, small, big, br, p and their ends, BBCode
 * of the same kind ([b], [color=red], [font=Courier], [code]), and the
 * entities &nbsp; &amp; &lt; &gt; &quot; &#NN;.  In place; returns the
 * new length.
 */
size_t html_strip_inline(char *s, size_t len);

/*
 * A line that runs a bonnie++ table, its CSV line and other text
 * together (a page whose line breaks were lost): the CSV line cut out
 * of it into out, true when one reads.
 */
bool html_runon_csv(const char *line, char *out, size_t cap);

#endif
