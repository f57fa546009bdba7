/*
 * fuzz_json_read: a libFuzzer target for the JSON parser
 * (src/lib/json_read.c) and the reader of clyde's records (src/in/json.c).
 * Any bytes go through json_parse(), whose tree is walked whole (every
 * key looked up again, every string's length taken), through
 * json_parse_deferring() with each deferred array read back one element
 * at a time by json_array_each(), and through json_input_read(), whose
 * records are then dropped (the ranks it hands over freed).  A parse
 * that succeeds must leave a tree that json_get() finds its own keys in;
 * one that fails must say why.
 *
 * Built and run by tests/fuzz/fuzz.sh (make fuzz) with clang's
 * -fsanitize=fuzzer,address,undefined.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "in/json.h"
#include "lib/json_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* every node of v, its strings and keys read; aborts on a broken tree */
static size_t walk(const struct json_value *v)
{
	size_t n = 1, i;

	switch (v->type) {
	case JSON_STRING:
		n += strlen(v->string);
		break;
	case JSON_OBJECT:
		for (i = 0; i < v->n; i++) {
			/* names are unique: json_get() finds each one's own */
			if (json_get(v, v->keys[i]) != &v->items[i])
				abort();
			n += walk(&v->items[i]);
		}
		break;
	case JSON_ARRAY:
		for (i = 0; i < v->n; i++)
			n += walk(&v->items[i]);
		break;
	default:
		break;
	}
	return n;
}

static int each(void *ctx, size_t i, const struct json_value *e)
{
	(void)i;
	*(size_t *)ctx += walk(e);
	return 0;
}

/* the spans that json_parse_deferring() left, read back */
static void spans(const struct json_value *v, size_t *seen)
{
	size_t i;

	if (v->type == JSON_SPAN) {
		if (json_array_each(v, each, seen) != 0)
			abort();
		return;
	}
	for (i = 0; (v->type == JSON_OBJECT || v->type == JSON_ARRAY) &&
	    i < v->n; i++)
		spans(&v->items[i], seen);
}

static int take(void *ctx, struct result *res)
{
	(*(long *)ctx)++;
	/* the reader hands over the ranks it read (in/json.h) */
	if (res->nranks > 0) {
		free(res->ranks);
		res->ranks = NULL;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct json_value v;
	unsigned long line;
	char why[256];
	size_t seen = 0;
	long taken = 0, n;

	why[0] = '\0';
	if (json_parse(text, size, &v, why, sizeof(why), &line) == 0) {
		seen = walk(&v);
		json_free(&v);
	} else if (why[0] == '\0') {
		abort();
	}
	why[0] = '\0';
	if (json_parse_deferring(text, size, "ranks", &v, why, sizeof(why),
	    &line) == 0) {
		spans(&v, &seen);
		json_free(&v);
	} else if (why[0] == '\0') {
		abort();
	}
	n = json_input_read(text, size, take, &taken, why, sizeof(why), &line);
	if (n >= 0 && n != taken)
		abort();
	(void)seen;
	return 0;
}
