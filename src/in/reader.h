/*
 * in/reader.h: clyde report's input formats behind one interface
 * (in/readers.c).
 *
 * A format is a struct reader, reader_NAME, that the file of its name
 * defines (in/json.c: reader_json), and an entry of the table in
 * in/readers.c.  reader_read() looks at the start of an input and hands
 * it to the first reader that takes it; the reader turns it into result
 * records, which it hands to a sink with what it says of the input.
 */
#ifndef CLYDE_READER_H
#define CLYDE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct result;

/* The start of an input that the readers look at: 64 KiB at most. */
#define READER_HEAD_MAX 65536
/* A reason a reader gives, at most (in/csv_line.h's CSV_WHY_MAX) */
#define READER_WHY_MAX 160

/* Where a reader hands what it read, and what it says of the input. */
struct reader_sink {
	void *ctx;
	/*
	 * A result, from line (0: a record of clyde's JSON, which keeps no
	 * lines).  It may keep res->ranks (malloc'd) by setting res->ranks
	 * to NULL.  Returns 0, or -1 (errno) when it did not keep it: the
	 * JSON reader then stops and says why; a reader of lines goes on
	 * (the sink says why, as it knows why).
	 */
	int (*take)(void *ctx, struct result *res, unsigned long line);
	/* What the reader says of line (0: of the input as a whole): why. */
	void (*say)(void *ctx, unsigned long line, const char *why);
};

/* How the reading of an input ended */
enum reader_status {
	READER_OK,              /* results read, nothing bad */
	READER_BAD,             /* something could not be read: said */
	READER_NONE,            /* no result, and nothing bad */
	READER_ERROR            /* reading failed: errno */
};

struct reader {
	const char *name;               /* "json", "stream" */
	/* Whether head[len], the start of an input, is this reader's. */
	bool (*sniff)(const char *head, size_t len);
	/*
	 * The whole input: head[len], already taken from in, then the rest
	 * of in.
	 */
	enum reader_status (*read)(FILE *in, const char *head, size_t len,
	    const struct reader_sink *sink);
};

/* Read in through the first reader of the table that takes its start. */
enum reader_status reader_read(FILE *in, const struct reader_sink *sink);

#endif
