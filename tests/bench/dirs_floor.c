/*
 * dirs_floor.c: the floor for clyde's --dirs rates: a plain loop of
 * mkdir(2), stat(2) and rmdir(2) over the same tree (clyde(1), --dirs),
 * by path from the top, with nothing else on the clock: no latency
 * samples, no progress line, no checks of the names.
 *
 *   dirs_floor DIR N DEPTH FANOUT
 *
 * prints "create RATE", "stat RATE", "delete RATE" (directories per
 * second, the phases of tree order by path) and leaves DIR as it was.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LEVELS_MAX 64

static uint32_t start[LEVELS_MAX + 2];
static unsigned levels;

static uint32_t size_of(unsigned k)
{
	return k == 0 ? 1 : start[k + 1] - start[k];
}

/* the path of directory i under top, the names as clyde's */
static void path_of(const char *top, uint32_t i, char *out)
{
	uint32_t chain[LEVELS_MAX];
	unsigned k = 1, n = 0;
	int len;

	while (i >= start[k + 1])
		k++;
	for (;;) {
		chain[n++] = i;
		if (k == 1)
			break;
		i = start[k - 1] + (uint32_t)((uint64_t)(i - start[k]) *
		    size_of(k - 1) / size_of(k));
		k--;
	}
	len = sprintf(out, "%s", top);
	while (n > 0)
		len += sprintf(out + len, "/%010x", (unsigned)chain[--n]);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	char top[4096], path[4096 + LEVELS_MAX * 11];
	uint64_t left, prev = 1;
	unsigned depth, fanout, k = 0;
	uint32_t count, i;
	struct stat st;
	double t;

	if (argc != 5) {
		fprintf(stderr, "usage: dirs_floor DIR N DEPTH FANOUT\n");
		return 1;
	}
	count = (uint32_t)strtoul(argv[2], NULL, 10) * 1024;
	depth = (unsigned)strtoul(argv[3], NULL, 10);
	fanout = (unsigned)strtoul(argv[4], NULL, 10);
	if (count == 0 || depth < 1 || depth > LEVELS_MAX || fanout < 1)
		return 1;
	left = count;
	while (left > 0) {
		uint64_t size = ++k < depth ? prev * fanout : left;

		if (size > left)
			size = left;
		start[k + 1] = start[k] + (uint32_t)size;
		left -= size;
		prev = size;
	}
	levels = k;
	snprintf(top, sizeof(top), "%s/dirs_floor.%ld", argv[1], (long)getpid());
	if (mkdir(top, 0700) != 0) {
		perror(top);
		return 1;
	}
	t = now();
	for (i = 0; i < count; i++) {
		path_of(top, i, path);
		if (mkdir(path, 0700) != 0) {
			perror(path);
			return 1;
		}
	}
	sync();
	printf("create %.0f\n", count / (now() - t));
	t = now();
	for (i = 0; i < count; i++) {
		path_of(top, i, path);
		if (stat(path, &st) != 0) {
			perror(path);
			return 1;
		}
	}
	printf("stat %.0f\n", count / (now() - t));
	t = now();
	for (i = count; i-- > 0;) {
		path_of(top, i, path);
		if (rmdir(path) != 0) {
			perror(path);
			return 1;
		}
	}
	sync();
	printf("delete %.0f\n", count / (now() - t));
	return rmdir(top) != 0;
}
