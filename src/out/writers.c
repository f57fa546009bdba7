/*
 * out/writers.c: the table of the output formats (out/writer.h).  A new
 * format is the file out/NAME.c that defines writer_NAME, declared
 * here and given its line of the table (tests/layering.sh checks that
 * each has its file).
 */
#include <string.h>

#include "out/writer.h"

extern const struct writer writer_text, writer_csv, writer_html,
    writer_json, writer_markdown;

/* In the order of clyde report --help */
static const struct writer *const writers[] = {
	&writer_text,
	&writer_csv,
	&writer_html,
	&writer_json,
	&writer_markdown,
};

#define NWRITERS (sizeof(writers) / sizeof(writers[0]))

_Static_assert(NWRITERS <= WRITERS_MAX, "more writers than WRITERS_MAX");

const struct writer *writer_find(const char *name)
{
	for (size_t i = 0; i < NWRITERS; i++)
		if (strcmp(writers[i]->name, name) == 0)
			return writers[i];
	return NULL;
}

const struct writer *writer_at(size_t i)
{
	return i < NWRITERS ? writers[i] : NULL;
}
