/*
 * tap.h: the few TAP helpers the unit tests need.  The exit status is
 * the number of failures, so prove and make both see them.
 */
#ifndef CLYDE_TAP_H
#define CLYDE_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, want, ...) \
	tap_is_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) \
	tap_is_int((long long)(got), (long long)(want), __FILE__, __LINE__, \
	    __VA_ARGS__)

static int tap_ok(int pass, const char *file, int line, const char *name)
{
	tap_n++;
	printf("%sok %d - %s\n", pass ? "" : "not ", tap_n, name);
	if (!pass) {
		printf("#   failed at %s:%d\n", file, line);
		tap_failed++;
	}
	return pass;
}

static inline int tap_is_str(const char *got, const char *want,
    const char *file, int line, const char *name)
{
	int pass = got != NULL && strcmp(got, want) == 0;

	if (!tap_ok(pass, file, line, name))
		printf("#   got '%s'\n#  want '%s'\n", got ? got : "(null)", want);
	return pass;
}

static inline int tap_is_int(long long got, long long want,
    const char *file, int line, const char *name)
{
	if (!tap_ok(got == want, file, line, name))
		printf("#   got %lld\n#  want %lld\n", got, want);
	return got == want;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed;
}

#endif
