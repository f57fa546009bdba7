/*
 * lib/text.h: text as the terminal and the shell see it: UTF-8 lengths and columns,
 * labels fitted to a width, control characters found and masked, a path
 * quoted for a shell command (lib/text.c).  They depend on nothing of clyde's.
 */
#ifndef CLYDE_LIB_TEXT_H
#define CLYDE_LIB_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Length of the well-formed UTF-8 sequence at s (1 for ASCII), or 0 when
 * the bytes there are not UTF-8 (overlong forms and surrogates included).
 */
size_t utf8_len(const char *s);
/*
 * Print s in exactly width terminal columns: cut after the last whole
 * UTF-8 character that fits, then padded with spaces (the table's labels).
 */
void put_fitted(FILE *out, const char *s, int width);
/* The terminal columns s takes, as put_fitted() counts them. */
size_t text_columns(const char *s);

/*
 * The first control character in s (C0, DEL, or C1 as UTF-8), or NULL:
 * in a table it would move the cursor or change the terminal's state,
 * in a CSV line a newline would split it.
 */
const char *find_control(const char *s);

/* Each control character of s (as find_control() finds them) made '?' */
void mask_controls(char *s);

/*
 * s in single quotes for a shell command (' becomes '\\''), cut to fit
 * n bytes with its NUL: the paths that messages tell the user to remove
 */
void shell_quote(char *out, size_t n, const char *s);

#endif
