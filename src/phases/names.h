/*
 * phases/names.h: what the phases that make many names share
 * (phases/names.c): names that are a counter in hex, the spread of one
 * numbered set over another (files over their directories, directories
 * over their parents), and the names a directory read passes over.
 */
#ifndef CLYDE_PHASE_NAMES_H
#define CLYDE_PHASE_NAMES_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>

#define COUNTER_DIGITS     10   /* lowercase hex */
/* no name of clyde's, or no index */
#define NOT_OURS           UINT32_MAX

/*
 * n items spread evenly over parts (n, parts > 0): the part item i is in,
 * rounded down, and the first item of part p (p == parts: n).  Each part
 * holds a run of consecutive items.
 */
static inline uint32_t spread_part(uint32_t i, uint32_t parts, uint32_t n)
{
	return (uint32_t)((uint64_t)i * parts / n);
}

static inline uint32_t spread_first(uint32_t p, uint32_t parts, uint32_t n)
{
	/* the least i with i * parts / n >= p */
	return (uint32_t)(((uint64_t)p * n + parts - 1) / parts);
}

/*
 * counter as COUNTER_DIGITS hex digits at out (no NUL); inline, as it
 * runs on the clock once a name
 */
static inline void counter_put(char *out, uint32_t counter)
{
	static const char hex_digits[] = "0123456789abcdef";

	for (int d = COUNTER_DIGITS - 1; d >= 0; d--, counter >>= 4)
		out[d] = hex_digits[counter & 0xf];
}

/* The counter of COUNTER_DIGITS lowercase hex digits at s, or NOT_OURS. */
static inline uint32_t counter_parse(const char *s)
{
	uint64_t v = 0;

	for (int d = 0; d < COUNTER_DIGITS; d++) {
		unsigned c = (unsigned char)s[d];

		if (c - '0' < 10)
			v = v << 4 | (c - '0');
		else if (c - 'a' < 6)
			v = v << 4 | (c - 'a' + 10);
		else
			return NOT_OURS;        /* also the end of a short name */
	}
	return v < NOT_OURS ? (uint32_t)v : NOT_OURS;
}

/* "." or ".." */
bool is_dot_entry(const char *name);

/*
 * The name of a small file (phases/files.c): ten lowercase hex digits,
 * the counter, with up to 12 of the name characters after or before it.
 */
bool is_small_file_name(const char *name);

/* A subdirectory of files/ of -n's DIRS: 00000, 00001, ... */
bool is_files_subdir_name(const char *name);

/*
 * A file that was removed while something still held it open: NFS
 * renames it to .nfsXXXX, FUSE to .fuse_hiddenXXXX, until the last
 * close.  It goes by itself.
 */
bool is_silly_rename(const char *name);

/* directory name in parent, to read; NULL when it cannot be opened */
DIR *open_dir(int parent, const char *name);

/*
 * Directory name in parent, held open to name what it holds (a single
 * name each: the kernel follows a symbolic link in any part of a path
 * but the last, so clyde never names a file through a directory by a
 * path): a descriptor, or -1 with errno.  A symbolic link is not
 * followed.  readable: one that can be read and fsync()ed; else only
 * searched, where the system has that (Linux's O_PATH).
 */
int hold_dir(int parent, const char *name, bool readable);

/* why a directory of clyde's is not used, for messages */
#define LINK_WHY        "a symbolic link, not the directory clyde made"
#define OTHER_DIR_WHY   "not the directory clyde made: another was put " \
	"under its name"

/*
 * Whether name in parent is still the directory held open on held: NULL
 * when it is; else LINK_WHY, OTHER_DIR_WHY, or with *err set the error
 * of looking it up (its text is the caller's to give).
 */
const char *dir_swapped(int parent, const char *name, int held, int *err);

/*
 * A call on directory name in parent failed with err: LINK_WHY when
 * name is a symbolic link now, else NULL.
 */
const char *link_why(int parent, const char *name, int err);

void pause_ms(unsigned ms);

#endif
