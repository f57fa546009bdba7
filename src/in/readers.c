/*
 * in/readers.c: the table of the input formats (in/reader.h).  A new
 * format is the file in/NAME.c that defines reader_NAME, declared
 * here and given its line of the table (tests/layering.sh checks that
 * each has its file).
 */
#include <stdio.h>

#include "in/reader.h"

extern const struct reader reader_json, reader_stream;

/* In the order they are asked; the last takes any input */
static const struct reader *const readers[] = {
	&reader_json,
	&reader_stream,
};

#define NREADERS (sizeof(readers) / sizeof(readers[0]))

enum reader_status reader_read(FILE *in, const struct reader_sink *sink)
{
	static char head[READER_HEAD_MAX];
	size_t len = fread(head, 1, sizeof(head), in);

	for (size_t i = 0; i < NREADERS; i++)
		if (readers[i]->sniff(head, len))
			return readers[i]->read(in, head, len, sink);
	return READER_NONE;
}
