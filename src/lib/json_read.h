/*
 * lib/json_read.h: a small JSON parser (lib/json_read.c), enough to read back
 * the records that clyde writes with --json (in/json.h).  RFC 8259
 * text into a tree; numbers as doubles.
 */
#ifndef CLYDE_JSON_READ_H
#define CLYDE_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

/* JSON_SPAN: an array left as its text (json_parse_deferring()) */
enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING,
    JSON_ARRAY, JSON_OBJECT, JSON_SPAN };

struct json_value {
	enum json_type type;
	double number;
	char *string;                   /* JSON_STRING, NUL-terminated */
	size_t n;                       /* members or elements */
	char **keys;                    /* JSON_OBJECT: [n] */
	struct json_value *items;       /* [n]; none in a JSON_SPAN */
	const char *span;               /* JSON_SPAN: in the text parsed */
	size_t span_len;
};

/* Nesting deeper than this is refused (clyde's records nest 5 deep). */
#define JSON_MAX_DEPTH 32

/*
 * Parse text[len], one value with only blanks around it, into *out.
 * Returns 0, or -1 with why (and *line, from 1, where it went wrong);
 * errno ENOMEM when out of memory.  Free *out with json_free().
 *
 * A \u escape below U+0100 becomes that byte: clyde writes a byte that
 * is not UTF-8 as \u00XX, so a name reads back as it was.
 */
int json_parse(const char *text, size_t len, struct json_value *out,
    char *why, size_t why_len, unsigned long *line);
void json_free(struct json_value *v);

/*
 * The same, but each array that is the value of a member named defer
 * (at any depth) is checked and its elements counted, and left as its
 * text, a JSON_SPAN that points into text: json_array_each() reads its
 * elements one at a time.  An array of thousands of objects (clyde-mpi's
 * ranks) is never held as a tree, which takes several times its text.
 */
int json_parse_deferring(const char *text, size_t len, const char *defer,
    struct json_value *out, char *why, size_t why_len, unsigned long *line);

/*
 * fn(ctx, i, element) for each element of a (a JSON_ARRAY, or a JSON_SPAN
 * whose text is still there: each parsed then, and freed after fn), in
 * order; the first fn that returns non-zero ends it with that.  Returns
 * 0, or -1 with errno ENOMEM.
 */
int json_array_each(const struct json_value *a,
    int (*fn)(void *ctx, size_t i, const struct json_value *element),
    void *ctx);

/* The member key of an object, or NULL (also when v is no object). */
const struct json_value *json_get(const struct json_value *v, const char *key);

#endif
