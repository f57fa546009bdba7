/*
 * in/blocks.c: the marks before every line of a block of a post.
 *
 * People paste a result into a script's header ("# "), source ("// "),
 * a config file ("; "), SQL ("-- "), and compare two runs as a diff,
 * every line of the old one behind '-' and of the new one behind '+'.
 * The mark is taken off every line of its block, the blanks after it
 * too, as read_logical() takes off indentation: the rest is bonnie++'s
 * line as it printed it, and a diff's line keeps its side, for the two
 * runs to stay apart.  A comment's mark starts a block only with a blank
 * or nothing after it ("#!/bin/sh" is none), a diff only at a line that
 * shows it is one: a lone '-' is as often bonnie++'s own ("-Per Chr-").
 */
#include <ctype.h>
#include <string.h>

#include "in/blocks.h"
#include "in/csv_line.h"

/* the longest first: "--" before a diff's '-' */
static const char *const comment_marks[] = { "//", "--", "#", ";" };

#define NMARKS (sizeof(comment_marks) / sizeof(comment_marks[0]))

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

void blocks_init(struct blocks *b)
{
	b->mark[0] = '\0';
	b->diff = false;
}

static size_t blanks_after(const char *s, size_t len, size_t at)
{
	while (at < len && is_blank(s[at]))
		at++;
	return at;
}

static bool starts(const char *s, size_t len, const char *what)
{
	size_t n = strlen(what);

	return len >= n && memcmp(s, what, n) == 0;
}

/*
 * The line behind a '-' or '+' is bonnie++'s: the Version line that
 * starts every table, or a CSV line that starts with a letter or digit
 * (a 1.0x line would read with the mark too, but no machine is named
 * "-prod": bonnie++ -m takes the name as given, and people do not).
 */
static bool diff_start(const char *s, size_t len)
{
	char line[CSV_LINE_MAX], why[CSV_WHY_MAX];
	struct result res;
	struct csv_line_info info;

	if (len < 2 || (s[0] != SIDE_OLD && s[0] != SIDE_NEW))
		return false;
	/* a unified diff's file and hunk lines */
	if (starts(s, len, "--- ") || starts(s, len, "+++ "))
		return true;
	if (starts(s + 1, len - 1, "Version") &&
	    strstr(s, "Sequential") != NULL)
		return true;
	if (!isalnum((unsigned char)s[1]) || len >= sizeof(line))
		return false;
	memcpy(line, s + 1, len - 1);
	line[len - 1] = '\0';
	return csv_read_line(line, &res, why, sizeof(why), &info) ==
	    CSV_RESULT;
}

size_t blocks_strip(struct blocks *b, const char *s, size_t len, char *side)
{
	size_t i;

	*side = SIDE_NONE;
	if (b->diff && starts(s, len, "@@"))
		return len;
	if ((b->diff || diff_start(s, len)) && len > 0 &&
	    (s[0] == SIDE_OLD || s[0] == SIDE_NEW)) {
		b->diff = true;
		b->mark[0] = '\0';
		*side = s[0];
		/* a unified diff's file lines say nothing of a run */
		if (starts(s, len, "--- ") || starts(s, len, "+++ "))
			return len;
		return blanks_after(s, len, 1);
	}
	b->diff = false;
	if (b->mark[0] != '\0' && starts(s, len, b->mark))
		return blanks_after(s, len, strlen(b->mark));
	b->mark[0] = '\0';
	for (i = 0; i < NMARKS; i++) {
		size_t n = strlen(comment_marks[i]);

		if (!starts(s, len, comment_marks[i]) ||
		    (len > n && !is_blank(s[n])))
			continue;
		memcpy(b->mark, comment_marks[i], n + 1);
		return blanks_after(s, len, n);
	}
	return 0;
}
