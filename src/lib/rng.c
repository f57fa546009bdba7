/*
 * lib/rng.c: the seeded random source (with -Z, numbers from a file, as bonnie++
 * does) and the random part of the names of new files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/rng.h"
#include "lib/fdio.h"

static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

void random_name_chars(char *out, size_t n, uint64_t *state)
{
	for (size_t i = 0; i < n; i++) {
		*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
		out[i] = name_chars[(*state >> 33) % (sizeof(name_chars) - 1)];
	}
}

bool is_random_name(const char *s, size_t n)
{
	return strlen(s) == n && strspn(s, name_chars) == n;
}

/* -Z files larger than this are refused: the numbers are held in memory. */
#define RNG_FILE_MAX (64u * 1024 * 1024)

#define SPLITMIX_GAMMA 0x9e3779b97f4a7c15ULL

/*
 * splitmix64: small, fast, and the same sequence everywhere for one seed.
 * Its state only counts up by a constant, so any draw can be reached
 * without making the ones before it (rng_skip()).
 */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += SPLITMIX_GAMMA);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint32_t seed)
{
	r->state = seed;
	r->file_vals = NULL;
	r->file_count = 0;
	r->file_pos = 0;
}

/* why a -Z file of this type and size cannot serve; NULL when it can */
static const char *rng_file_unfit(const struct stat *st)
{
	if (S_ISFIFO(st->st_mode))
		return "a FIFO, not a regular file";
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return "a device, not a regular file";
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	if (st->st_size < 4)
		return "shorter than one 32-bit number (4 bytes)";
	if ((uint64_t)st->st_size > RNG_FILE_MAX)
		return "larger than 64 MiB";
	if (st->st_size % 4 != 0)
		return "its size is not a multiple of 4 bytes (32-bit numbers)";
	return NULL;
}

int rng_load_file(struct rng *r, const char *path, const char **why)
{
	struct stat st;
	unsigned char *raw;
	size_t i, n;
	ssize_t got;
	int fd;

	*why = NULL;
	/*
	 * Never block: a FIFO's open() waits for a writer, a device's may do
	 * anything.  The type is checked before the open and again after.
	 */
	if (stat(path, &st) != 0)
		return -1;
	if ((*why = rng_file_unfit(&st)) != NULL)
		return -1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -1;
	}
	if ((*why = rng_file_unfit(&st)) != NULL) {
		close(fd);
		return -1;
	}
	n = (size_t)st.st_size / 4;
	raw = malloc(n * 4);
	r->file_vals = malloc(n * sizeof(*r->file_vals));
	if (raw == NULL || r->file_vals == NULL) {
		free(raw);
		free(r->file_vals);
		r->file_vals = NULL;
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	got = read_all(fd, raw, n * 4);
	close(fd);
	if (got != (ssize_t)(n * 4)) {
		free(raw);
		rng_free(r);
		if (got >= 0)
			*why = "it ended before its size";
		return -1;
	}
	for (i = 0; i < n; i++)
		r->file_vals[i] = (uint32_t)raw[4 * i] << 24 |
		    (uint32_t)raw[4 * i + 1] << 16 |
		    (uint32_t)raw[4 * i + 2] << 8 | raw[4 * i + 3];
	free(raw);
	r->file_count = n;
	r->file_pos = 0;
	return 0;
}

void rng_free(struct rng *r)
{
	free(r->file_vals);
	r->file_vals = NULL;
	r->file_count = 0;
}

uint32_t rng_next(struct rng *r)
{
	uint32_t v;

	if (r->file_vals == NULL)
		return (uint32_t)(splitmix64(&r->state) >> 32);
	v = r->file_vals[r->file_pos++];
	if (r->file_pos == r->file_count)
		r->file_pos = 0;
	return v;
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
	/* multiply-shift: no modulo bias worth measuring, no loop */
	return (uint32_t)(((uint64_t)rng_next(r) * n) >> 32);
}

void rng_skip(struct rng *r, uint64_t n)
{
	if (r->file_vals == NULL)
		r->state += n * SPLITMIX_GAMMA;         /* modulo 2^64, as the draws */
	else
		r->file_pos = (size_t)((r->file_pos + n % r->file_count) %
		    r->file_count);
}
