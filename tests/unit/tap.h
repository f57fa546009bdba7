/*
 * tests/unit/tap.h: the few TAP helpers the unit tests need.  The exit
 * status is the number of failures (a TODO case is none), so prove and
 * make both see them.
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
/*
 * todo(cond, why, name): a case that the code is known to fail, where it
 * departs from what clyde(1) or the standard it cites says (why): "not
 * ok N - name # TODO why" while it fails, "ok N - name # TODO why" once
 * it passes; either way not a failure (TAP's TODO), so that the suite
 * stays green and prove names it.
 */
#define todo(cond, why, ...) \
	tap_todo(!!(cond), (why), __FILE__, __LINE__, __VA_ARGS__)

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

static inline int tap_todo(int pass, const char *why, const char *file,
    int line, const char *name)
{
	tap_n++;
	printf("%sok %d - %s # TODO %s\n", pass ? "" : "not ", tap_n, name, why);
	if (!pass)
		printf("#   known to fail, at %s:%d\n", file, line);
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
