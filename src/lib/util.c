/*
 * lib/util.c: random source, strict number parsing, whole-buffer I/O, UTF-8.
 */
/* O_PATH is Linux's: glibc shows it with _GNU_SOURCE */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#include "lib/util.h"

int dir_search_only(void)
{
#if defined(O_PATH)
	return O_PATH;
#elif defined(O_SEARCH)
	return O_SEARCH;
#else
	return O_RDONLY;
#endif
}

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

ssize_t write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)done;
}

int fd_blocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

ssize_t read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t done = 0;

	while (done < n) {
		ssize_t r = read(fd, p + done, n - done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

uint64_t phys_ram_mib(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page_size = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page_size <= 0)
		return 0;
	return (uint64_t)pages / 1024 * (uint64_t)page_size / 1024;
}

ssize_t read_small_file(const char *path, char *buf, size_t n)
{
	ssize_t got = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		got = read_all(fd, buf, n - 1);
		close(fd);
	}
	buf[got > 0 ? got : 0] = '\0';
	return got;
}

void fmt_file_size(char *out, size_t n, uint64_t mib)
{
	if (mib != 0 && mib % 1024 == 0)
		snprintf(out, n, "%" PRIu64 "G", mib / 1024);
	else
		snprintf(out, n, "%" PRIu64 "M", mib);
}

/* utf8_len(), and the code point in *cp when the length is not 0 */
void fmt_chunk(char *out, size_t n, unsigned bytes)
{
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
		snprintf(out, n, "%um", bytes / (1024 * 1024));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(out, n, "%uk", bytes / 1024);
	else
		snprintf(out, n, "%u", bytes);
}

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

int close_checked(FILE *f)
{
	int failed = fflush(f) != 0 || ferror(f);

	if (fclose(f) != 0)
		failed = 1;
	return failed ? -1 : 0;
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
