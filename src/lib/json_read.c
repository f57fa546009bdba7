/*
 * lib/json_read.c: see lib/json_read.h.  A recursive descent over the text, one
 * value at a time, with a bound on the depth so that no input can
 * exhaust the stack.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_read.h"

struct parser {
	const char *s, *end;
	unsigned long line;
	char *why;
	size_t why_len;
	bool failed;
	const char *defer;              /* json_parse_deferring()'s, or NULL */
};

static int fail(struct parser *p, const char *what)
{
	if (!p->failed)
		snprintf(p->why, p->why_len, "%s", what);
	p->failed = true;
	return -1;
}

static void blanks(struct parser *p)
{
	while (p->s < p->end && strchr(" \t\r\n", *p->s) != NULL && *p->s) {
		if (*p->s == '\n')
			p->line++;
		p->s++;
	}
}

static bool word(struct parser *p, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, w, n) != 0)
		return false;
	p->s += n;
	return true;
}

static int hex4(struct parser *p, unsigned long *cp)
{
	int i;

	*cp = 0;
	if (p->end - p->s < 4)
		return fail(p, "a \\u escape cut short");
	for (i = 0; i < 4; i++) {
		char c = *p->s++;

		*cp <<= 4;
		if (c >= '0' && c <= '9')
			*cp |= (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*cp |= (unsigned long)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*cp |= (unsigned long)(c - 'A' + 10);
		else
			return fail(p, "a \\u escape that is not hexadecimal");
	}
	return 0;
}

/* Append code point cp: a byte below U+0100 (lib/json_read.h), else UTF-8. */
static size_t put_code(char *out, unsigned long cp)
{
	if (cp < 0x100) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * A string after its opening quote; the decoded text is never longer.
 * out NULL: checked only, nothing kept.
 */
static int string(struct parser *p, char **out)
{
	const char *start = p->s;
	char *buf = NULL, *o, sink[4];

	while (p->s < p->end && *p->s != '"')
		p->s += *p->s == '\\' && p->s + 1 < p->end ? 2 : 1;
	if (p->s >= p->end)
		return fail(p, "a string without its closing quote");
	if (out != NULL && (buf = malloc((size_t)(p->s - start) + 1)) == NULL) {
		p->failed = true;
		snprintf(p->why, p->why_len, "%s", strerror(ENOMEM));
		return -1;
	}
	o = buf;
	for (p->s = start; *p->s != '"'; ) {
		unsigned long cp, lo;
		char c;

		/* checked only: each character decoded where it is dropped */
		if (buf == NULL)
			o = sink;
		c = *p->s++;

		if ((unsigned char)c < 0x20) {
			free(buf);
			return fail(p, "a control character in a string");
		}
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		c = *p->s++;
		switch (c) {
		case '"': case '\\': case '/':
			*o++ = c;
			break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (hex4(p, &cp) != 0) {
				free(buf);
				return -1;
			}
			/* a surrogate pair: its two halves */
			if (cp >= 0xd800 && cp < 0xdc00 && word(p, "\\u")) {
				if (hex4(p, &lo) != 0) {
					free(buf);
					return -1;
				}
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					    (lo - 0xdc00);
			}
			if (cp == 0) {
				free(buf);
				return fail(p, "a NUL character in a string");
			}
			o += put_code(o, cp);
			break;
		default:
			free(buf);
			return fail(p, "an unknown escape in a string");
		}
	}
	p->s++;
	if (out == NULL)
		return 0;
	*o = '\0';
	*out = buf;
	return 0;
}

/* The digits at s[0..n), counted */
static size_t digits(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/*
 * Whether s[0..n) is a number of RFC 8259's grammar:
 * -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
 * strtod() also takes a leading zero (01), a plus sign, .5, 1., hex.
 */
static bool json_number(const char *s, size_t n)
{
	size_t i = s[0] == '-', d = digits(s + i, n - i);

	if (d == 0 || (d > 1 && s[i] == '0'))
		return false;
	i += d;
	if (i < n && s[i] == '.') {
		if ((d = digits(s + i + 1, n - i - 1)) == 0)
			return false;
		i += 1 + d;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if ((d = digits(s + i, n - i)) == 0)
			return false;
		i += d;
	}
	return i == n;
}

static int number(struct parser *p, double *v)
{
	char tmp[64], why[96];
	size_t n = 0;

	if (strchr("+-.0123456789", *p->s) == NULL || *p->s == '\0')
		return fail(p, "not a JSON value");
	/* the whole word, so that 0x1f or 1.e5 is named as it is */
	while (p->s + n < p->end && n < sizeof(tmp) - 1 && p->s[n] != '\0' &&
	    (strchr("+-.", p->s[n]) != NULL ||
	    (p->s[n] >= '0' && p->s[n] <= '9') ||
	    ((p->s[n] | 0x20) >= 'a' && (p->s[n] | 0x20) <= 'z')))
		n++;
	memcpy(tmp, p->s, n);
	tmp[n] = '\0';
	if (!json_number(tmp, n)) {
		snprintf(why, sizeof(why), "'%.24s' is not a JSON number", tmp);
		return fail(p, why);
	}
	*v = strtod(tmp, NULL);
	p->s += n;
	return 0;
}

static int value(struct parser *p, struct json_value *v, int depth);
static int members(struct parser *p, struct json_value *v, int depth,
    bool object);

/*
 * The names of an object's members as read, to find one named twice:
 * two figures for one thing, of which json_get() would give the first.
 */
struct name_seen {
	const char *key;
	unsigned long line;             /* where it was read */
	size_t order;
};

struct names {
	struct name_seen *seen;
	size_t n, cap;
	bool own;                       /* the keys are ours to free */
};

static int add_name(struct parser *p, struct names *nm, const char *key)
{
	if (nm->n == nm->cap) {
		size_t ncap = nm->cap ? nm->cap * 2 : 16;
		struct name_seen *more = realloc(nm->seen, ncap * sizeof(*more));

		if (more == NULL) {
			p->failed = true;
			snprintf(p->why, p->why_len, "%s", strerror(ENOMEM));
			return -1;
		}
		nm->seen = more;
		nm->cap = ncap;
	}
	nm->seen[nm->n].key = key;
	nm->seen[nm->n].line = p->line;
	nm->seen[nm->n].order = nm->n;
	nm->n++;
	return 0;
}

static void free_names(struct names *nm)
{
	for (size_t i = 0; nm->own && i < nm->n; i++)
		free((char *)nm->seen[i].key);
	free(nm->seen);
	memset(nm, 0, sizeof(*nm));
}

static int by_name(const void *a, const void *b)
{
	const struct name_seen *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c != 0 ? c : x->order < y->order ? -1 : x->order > y->order;
}

/* -1 when a name is there twice: the first one read again is named */
static int names_once(struct parser *p, struct names *nm)
{
	const struct name_seen *again = NULL;
	char why[96];
	size_t i;

	if (nm->n < 2)
		return 0;
	qsort(nm->seen, nm->n, sizeof(*nm->seen), by_name);
	for (i = 1; i < nm->n; i++)
		if (strcmp(nm->seen[i - 1].key, nm->seen[i].key) == 0 &&
		    (again == NULL || nm->seen[i].order < again->order))
			again = &nm->seen[i];
	if (again == NULL)
		return 0;
	snprintf(why, sizeof(why), "two members named \"%.40s\" in one object",
	    again->key);
	p->line = again->line;
	return fail(p, why);
}

/*
 * After a member or an element: 1 at a ',' (another follows), 0 at the
 * close (the names checked), else -1.
 */
static int after_member(struct parser *p, char close, struct names *nm)
{
	blanks(p);
	if (word(p, ","))
		return 1;
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return names_once(p, nm);
	}
	return fail(p, close == '}' ? "an object without ',' or '}'" :
	    "an array without ',' or ']'");
}

/*
 * The members or elements after a { or [, checked and counted into
 * skipped->n, none kept.
 */
static int skip_members(struct parser *p, struct json_value *skipped,
    int depth, bool object)
{
	char close = object ? '}' : ']', *key;
	struct names nm = { NULL, 0, 0, true };
	int rc = -1;

	blanks(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return 0;
	}
	for (;; skipped->n++) {
		blanks(p);
		if (object && (!word(p, "\"") || string(p, &key) != 0)) {
			fail(p, "an object's member without its name");
			break;
		}
		if (object && add_name(p, &nm, key) != 0) {
			free(key);
			break;
		}
		blanks(p);
		if (object && !word(p, ":")) {
			fail(p, "a member's name without ':'");
			break;
		}
		if (value(p, NULL, depth + 1) != 0)
			break;
		if ((rc = after_member(p, close, &nm)) > 0)
			continue;
		skipped->n += rc == 0;
		break;
	}
	free_names(&nm);
	/* a failure after a ',' left rc 1 */
	return rc == 0 ? 0 : -1;
}

/* A member named p->defer whose value is an array: left as its text */
static int defer_array(struct parser *p, struct json_value *v, int depth)
{
	struct json_value counted = { .type = JSON_SPAN };

	blanks(p);
	if (p->s >= p->end || *p->s != '[' || depth + 1 > JSON_MAX_DEPTH)
		return value(p, v, depth + 1);
	counted.span = p->s++;
	if (skip_members(p, &counted, depth + 1, false) != 0)
		return -1;
	counted.span_len = (size_t)(p->s - counted.span);
	*v = counted;
	return 0;
}

/* The members of an object or the elements of an array, after its [ or {. */
static int members(struct parser *p, struct json_value *v, int depth,
    bool object)
{
	size_t cap = 0;
	char close = object ? '}' : ']';
	struct names nm = { NULL, 0, 0, false };
	int rc = -1;

	blanks(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return 0;
	}
	for (;;) {
		bool defer;

		if (v->n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct json_value *items = realloc(v->items,
			    ncap * sizeof(*items));
			char **keys = object ? realloc(v->keys,
			    ncap * sizeof(*keys)) : NULL;

			if (items != NULL)
				v->items = items;
			if (keys != NULL)
				v->keys = keys;
			if (items == NULL || (object && keys == NULL)) {
				p->failed = true;
				snprintf(p->why, p->why_len, "%s", strerror(ENOMEM));
				break;
			}
			cap = ncap;
		}
		blanks(p);
		if (object) {
			if (!word(p, "\"") || string(p, &v->keys[v->n]) != 0) {
				fail(p, "an object's member without its name");
				break;
			}
			if (add_name(p, &nm, v->keys[v->n]) != 0) {
				free(v->keys[v->n]);
				break;
			}
			blanks(p);
			if (!word(p, ":")) {
				free(v->keys[v->n]);
				fail(p, "a member's name without ':'");
				break;
			}
		}
		memset(&v->items[v->n], 0, sizeof(v->items[v->n]));
		defer = object && p->defer != NULL &&
		    strcmp(v->keys[v->n], p->defer) == 0;
		if ((defer ? defer_array(p, &v->items[v->n], depth) :
		    value(p, &v->items[v->n], depth + 1)) != 0) {
			json_free(&v->items[v->n]);
			if (object)
				free(v->keys[v->n]);
			break;
		}
		v->n++;
		if ((rc = after_member(p, close, &nm)) > 0)
			continue;
		break;
	}
	free_names(&nm);
	/* a failure after a ',' left rc 1 */
	return rc == 0 ? 0 : -1;
}

/* One value into *v; v NULL: checked only (skip_members()). */
static int value(struct parser *p, struct json_value *v, int depth)
{
	struct json_value skipped;

	if (v == NULL)
		v = &skipped;
	memset(v, 0, sizeof(*v));
	if (depth > JSON_MAX_DEPTH)
		return fail(p, "nested too deep");
	blanks(p);
	if (p->s >= p->end)
		return fail(p, "the text ends before a value");
	switch (*p->s) {
	case '{':
	case '[':
		v->type = *p->s++ == '{' ? JSON_OBJECT : JSON_ARRAY;
		return v == &skipped ? skip_members(p, v, depth,
		    v->type == JSON_OBJECT) : members(p, v, depth,
		    v->type == JSON_OBJECT);
	case '"':
		p->s++;
		v->type = JSON_STRING;
		return string(p, v == &skipped ? NULL : &v->string);
	default:
		break;
	}
	if (word(p, "null"))
		v->type = JSON_NULL;
	else if (word(p, "true"))
		v->type = JSON_TRUE;
	else if (word(p, "false"))
		v->type = JSON_FALSE;
	else {
		v->type = JSON_NUMBER;
		return number(p, &v->number);
	}
	return 0;
}

int json_parse(const char *text, size_t len, struct json_value *out,
    char *why, size_t why_len, unsigned long *line)
{
	return json_parse_deferring(text, len, NULL, out, why, why_len, line);
}

int json_parse_deferring(const char *text, size_t len, const char *defer,
    struct json_value *out, char *why, size_t why_len, unsigned long *line)
{
	struct parser p = { text, text + len, 1, why, why_len, false, defer };
	int rc = value(&p, out, 0);

	if (rc == 0) {
		blanks(&p);
		if (p.s != p.end)
			rc = fail(&p, "more text after the JSON value");
	}
	*line = p.line;
	if (rc != 0) {
		json_free(out);
		errno = strstr(why, strerror(ENOMEM)) != NULL ? ENOMEM : EINVAL;
	}
	return rc;
}

void json_free(struct json_value *v)
{
	size_t i;

	/* a span's text is the caller's, and it has no items */
	for (i = 0; v->type != JSON_SPAN && i < v->n; i++) {
		json_free(&v->items[i]);
		if (v->keys != NULL)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	memset(v, 0, sizeof(*v));
}

const struct json_value *json_get(const struct json_value *v, const char *key)
{
	size_t i;

	if (v == NULL || v->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (strcmp(v->keys[i], key) == 0)
			return &v->items[i];
	return NULL;
}

int json_array_each(const struct json_value *a,
    int (*fn)(void *ctx, size_t i, const struct json_value *element),
    void *ctx)
{
	char why[64];
	struct parser p = { NULL, NULL, 1, why, sizeof(why), false, NULL };
	struct json_value e;
	size_t i;
	int rc = 0;

	for (i = 0; a->type == JSON_ARRAY && i < a->n && rc == 0; i++)
		rc = fn(ctx, i, &a->items[i]);
	if (a->type != JSON_SPAN)
		return rc;
	/* checked when it was parsed: only memory can fail here */
	p.s = a->span + 1;
	p.end = a->span + a->span_len;
	for (i = 0; i < a->n && rc == 0; i++) {
		if (value(&p, &e, 1) != 0) {
			json_free(&e);
			errno = ENOMEM;
			return -1;
		}
		rc = fn(ctx, i, &e);
		json_free(&e);
		blanks(&p);
		word(&p, ",");
	}
	return rc;
}
