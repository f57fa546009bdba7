/*
 * lib/rng.h: the seeded random source (with -Z, numbers from a file, as bonnie++
 * does) and the random part of the names of new files (lib/rng.c).  They depend on nothing of clyde's.
 */
#ifndef CLYDE_LIB_RNG_H
#define CLYDE_LIB_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * n letters and digits at out (no NUL), drawn from *state (seeded by the
 * caller, moved on here): the random part of a new file's name, not a
 * secret (the name is made with O_EXCL or mkdir(), and tried again).
 */
void random_name_chars(char *out, size_t n, uint64_t *state);
/* Whether s is n characters that random_name_chars() draws, and no more */
bool is_random_name(const char *s, size_t n);

#endif
