/*
 * lib/units.c: numbers as options give them and as tables print them: strict parsing
 * with k/m/g suffixes and durations, chunk and file sizes.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

const char *parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return parse_size(s, "", 1, min, max, out);
}

static uint64_t suffix_factor(char c, const char *suffixes)
{
	const char *p;
	uint64_t f = 1;

	for (p = suffixes; *p != '\0'; p++) {
		f *= 1024;
		if (tolower((unsigned char)c) == *p)
			return f;
	}
	return 0;
}

const char *parse_size(const char *s, const char *suffixes, uint64_t unit_bytes,
    uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v = 0, factor = 1;
	const char *p = s;

	if (*p == '\0')
		return "empty value";
	if (*p == '-')
		return "must not be negative";
	if (!isdigit((unsigned char)*p))
		return "not a number";
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return "out of range";
		v = v * 10 + d;
	}
	if (*p != '\0') {
		factor = suffix_factor(*p, suffixes);
		if (factor == 0 || p[1] != '\0')
			return "not a number";
	}
	/* the suffix multiplies bytes, the result is in units of unit_bytes */
	if (factor > 1) {
		if (v > UINT64_MAX / factor)
			return "out of range";
		if (v * factor % unit_bytes != 0)
			return "not a whole number of units";
		v = v * factor / unit_bytes;
	}
	if (v < min || v > max)
		return "out of range";
	*out = v;
	return NULL;
}

const char *parse_duration(const char *s, uint64_t min_ns, uint64_t max_ns,
    uint64_t *out)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "", 1000000000 }, { "s", 1000000000 }, { "ms", 1000000 },
		{ "us", 1000 }, { "ns", 1 }
	};
	char digits[24];
	size_t len = strspn(s, "0123456789");
	const char *why;
	uint64_t v;

	if (len == 0 || len >= sizeof(digits))
		return len == 0 ? "not a number" : "out of range";
	memcpy(digits, s, len);
	digits[len] = '\0';
	if ((why = parse_u64(digits, 0, UINT64_MAX, &v)) != NULL)
		return why;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s + len, units[i].name) != 0)
			continue;
		if (v > max_ns / units[i].ns || v * units[i].ns < min_ns)
			return "out of range";
		*out = v * units[i].ns;
		return NULL;
	}
	return "not a duration";
}

void fmt_file_size(char *out, size_t n, uint64_t mib)
{
	if (mib != 0 && mib % 1024 == 0)
		snprintf(out, n, "%" PRIu64 "G", mib / 1024);
	else
		snprintf(out, n, "%" PRIu64 "M", mib);
}

void fmt_chunk(char *out, size_t n, unsigned bytes)
{
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
		snprintf(out, n, "%um", bytes / (1024 * 1024));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(out, n, "%uk", bytes / 1024);
	else
		snprintf(out, n, "%u", bytes);
}

void fmt_kib_rate(char *out, size_t n, double kib)
{
	double mib = kib / 1024.0;

	if (kib < 10000.0)
		snprintf(out, n, "%dk", (int)kib);
	else if (mib < 100.0)
		snprintf(out, n, "%.1fm", mib);
	else if (mib < 1000.0)
		snprintf(out, n, "%.0fm", mib);
	else
		snprintf(out, n, "%.1fg", mib / 1024.0);
}
