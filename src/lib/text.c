/*
 * lib/text.c: text as the terminal and the shell see it: UTF-8 lengths and columns,
 * labels fitted to a width, control characters found and masked, a path
 * quoted for a shell command.
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "lib/text.h"

/* utf8_len(), and the code point in *cp when the length is not 0 */
static size_t utf8_decode(const char *str, unsigned long *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n, i;

	*cp = s[0];
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		*cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		*cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		*cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && *cp < 0x800) || (n == 4 && *cp < 0x10000) ||
	    (*cp >= 0xd800 && *cp <= 0xdfff) || *cp > 0x10ffff)
		return 0;
	return n;
}

size_t utf8_len(const char *str)
{
	unsigned long cp;

	return utf8_decode(str, &cp);
}

/*
 * Columns a code point takes on a terminal: wcwidth() in a UTF-8 locale
 * of the C library's (made once, used only here, so the process's own
 * locale and its number formats stay "C"); one a code point without one.
 */
static int columns_of(unsigned long cp)
{
	static const char *const names[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8" };
	static locale_t utf8 = (locale_t)0;
	static bool tried;
	locale_t before;
	int w;
	size_t i;

	if (cp < 0x80)
		return 1;
	if (!tried) {
		tried = true;
		for (i = 0; i < sizeof(names) / sizeof(names[0]) && !utf8; i++)
			utf8 = newlocale(LC_CTYPE_MASK, names[i], (locale_t)0);
	}
	if (utf8 == (locale_t)0)
		return 1;
	before = uselocale(utf8);
	w = wcwidth((wchar_t)cp);
	uselocale(before);
	return w < 0 ? 1 : w;
}

size_t text_columns(const char *s)
{
	unsigned long cp;
	size_t n, used = 0;

	for (; *s != '\0'; s += n) {
		n = utf8_decode(s, &cp);
		used += n == 0 ? 1 : (size_t)columns_of(cp);
		if (n == 0)
			n = 1;
	}
	return used;
}

void put_fitted(FILE *out, const char *s, int width)
{
	unsigned long cp;
	size_t n;
	int used = 0, w;

	for (; *s != '\0'; s += n) {
		n = utf8_decode(s, &cp);
		/* a byte that is not UTF-8 is one column, as a terminal shows it */
		w = n == 0 ? 1 : columns_of(cp);
		if (n == 0)
			n = 1;
		if (used + w > width)
			break;
		fwrite(s, 1, n, out);
		used += w;
	}
	for (; used < width; used++)
		fputc(' ', out);
}

const char *find_control(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f ||
		    (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return (const char *)p;
	return NULL;
}

void mask_controls(char *s)
{
	char *p;

	while ((p = (char *)find_control(s)) != NULL) {
		/* C1 as UTF-8 is two bytes: one '?' for both */
		if ((unsigned char)p[0] == 0xc2)
			memmove(p + 1, p + 2, strlen(p + 2) + 1);
		*p = '?';
		s = p + 1;
	}
}

void shell_quote(char *out, size_t n, const char *s)
{
	size_t k = 0;

	if (n < 3) {
		if (n > 0)
			out[0] = '\0';
		return;
	}
	out[k++] = '\'';
	for (; *s != '\0' && k + 5 < n; s++) {
		if (*s == '\'') {
			memcpy(out + k, "'\\''", 4);
			k += 4;
		} else {
			out[k++] = *s;
		}
	}
	out[k++] = '\'';
	out[k] = '\0';
}
