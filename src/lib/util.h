/*
 * lib/util.h: small helpers that depend on no other module.
 */
#ifndef CLYDE_UTIL_H
#define CLYDE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Seeded random source.  With -Z the numbers come from a file of 32-bit
 * big-endian integers, read in a cycle, as bonnie++ does.
 */
struct rng {
	uint64_t state;
	uint32_t *file_vals;    /* NULL unless -Z */
	size_t file_count;
	size_t file_pos;
};

void rng_seed(struct rng *r, uint32_t seed);
/*
 * Load -Z FILE, a regular file of whole 32-bit numbers; never blocks.
 * Returns 0, or -1 with *why saying what is wrong with the file, or
 * *why NULL and errno set.
 */
int rng_load_file(struct rng *r, const char *path, const char **why);
void rng_free(struct rng *r);
uint32_t rng_next(struct rng *r);
/* uniform in [0, n) for n > 0 */
uint32_t rng_below(struct rng *r, uint32_t n);
/* Move on n draws at once, as n calls of rng_next() would. */
void rng_skip(struct rng *r, uint64_t n);

/*
 * Strict number parsing: the whole string is a decimal number with an
 * optional suffix from 'suffixes' ("kmgt" for k = 1024 of the base unit,
 * and so on).  Returns NULL, or a short reason ("not a number",
 * "out of range").
 */
const char *parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
const char *parse_size(const char *s, const char *suffixes, uint64_t unit_bytes,
    uint64_t min, uint64_t max, uint64_t *out);
/* A whole number of ns, us, ms or s (s when none), into ns; as above. */
const char *parse_duration(const char *s, uint64_t min_ns, uint64_t max_ns,
    uint64_t *out);

/*
 * write()/read() the whole buffer, retrying EINTR and short transfers
 * without counting any byte twice.  Return the bytes moved, or -1 with
 * errno set; a read shorter than n means end of file.
 */
ssize_t write_all(int fd, const void *buf, size_t n);

/*
 * Clear O_NONBLOCK on fd: a file of the run's is opened again with it, so
 * that a FIFO put under its name cannot hold the open(), and read as
 * usual once fstat() shows it is the file made.  0, or -1 with errno.
 */
int fd_blocking(int fd);

/*
 * The open() flag of a directory opened only to name what is in it:
 * Linux's O_PATH, POSIX's O_SEARCH, else O_RDONLY.
 */
int dir_search_only(void);

/*
 * n letters and digits at out (no NUL), drawn from *state (seeded by the
 * caller, moved on here): the random part of a new file's name, not a
 * secret (the name is made with O_EXCL or mkdir(), and tried again).
 */
void random_name_chars(char *out, size_t n, uint64_t *state);
/* Whether s is n characters that random_name_chars() draws, and no more */
bool is_random_name(const char *s, size_t n);

/*
 * Length of the well-formed UTF-8 sequence at s (1 for ASCII), or 0 when
 * the bytes there are not UTF-8 (overlong forms and surrogates included).
 */
size_t utf8_len(const char *s);
ssize_t read_all(int fd, void *buf, size_t n);

/*
 * The start of a small file (/proc, /sys) as a string: at most n - 1
 * bytes and a NUL in buf.  Returns the bytes read; 0 or -1 when there
 * are none (buf is then "").
 */
ssize_t read_small_file(const char *path, char *buf, size_t n);

/* The physical memory in MiB, from sysconf(3); 0 unknown. */
uint64_t phys_ram_mib(void);

/* A chunk size as -s and --chunks take it: "512", "64k", "16m". */
void fmt_chunk(char *out, size_t n, unsigned bytes);
/* A file size as bonnie++ prints it: "64M", "4G". */
void fmt_file_size(char *out, size_t n, uint64_t mib);

/*
 * Print s in exactly width terminal columns: cut after the last whole
 * UTF-8 character that fits, then padded with spaces (the table's labels).
 */
void put_fitted(FILE *out, const char *s, int width);
/* The terminal columns s takes, as put_fitted() counts them. */
size_t text_columns(const char *s);

/*
 * Flush and close a stream that results were written to.  Returns 0, or
 * -1 when anything written was lost (a full disk under a redirect, a
 * closed pipe); errno then still holds the cause of the failed write.
 */
int close_checked(FILE *f);

/*
 * The first control character in s (C0, DEL, or C1 as UTF-8), or NULL:
 * in a table it would move the cursor or change the terminal's state,
 * in a CSV line a newline would split it.
 */
const char *find_control(const char *s);

/* Each control character of s (as find_control() finds them) made '?' */
void mask_controls(char *s);

#endif
