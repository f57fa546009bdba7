/*
 * dirs_floor.c: the floor for clyde's --dirs rates: a plain loop of
 * mkdirat(2), fstatat(2) and unlinkat(2) over the same tree (clyde(1),
 * --dirs), by path from the top directory's descriptor as clyde's random
 * phases go, with nothing else on the clock: no latency samples, no
 * progress line, no checks of the names.
 *
 *   dirs_floor DIR N DEPTH FANOUT
 *
 * prints "create RATE", "stat RATE", "delete RATE" (directories per
 * second, the phases of tree order by path) and leaves DIR as it was.
 */
#include <fcntl.h>
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

/* the path of directory i from the top, the names as clyde's */
static void path_of(uint32_t i, char *out)
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
	len = 0;
	while (n > 0)
		len += sprintf(out + len, "%s%010x", len ? "/" : "",
		    (unsigned)chain[--n]);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	char top[4096], path[LEVELS_MAX * 11 + 1];
	uint64_t left, prev = 1;
	unsigned depth, fanout, k = 0;
	int fd;
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
	if (mkdir(top, 0700) != 0 ||
	    (fd = open(top, O_RDONLY | O_DIRECTORY)) < 0) {
		perror(top);
		return 1;
	}
	t = now();
	for (i = 0; i < count; i++) {
		path_of(i, path);
		if (mkdirat(fd, path, 0700) != 0) {
			perror(path);
			return 1;
		}
	}
	sync();
	printf("create %.0f\n", count / (now() - t));
	t = now();
	for (i = 0; i < count; i++) {
		path_of(i, path);
		if (fstatat(fd, path, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			perror(path);
			return 1;
		}
	}
	printf("stat %.0f\n", count / (now() - t));
	t = now();
	for (i = count; i-- > 0;) {
		path_of(i, path);
		if (unlinkat(fd, path, AT_REMOVEDIR) != 0) {
			perror(path);
			return 1;
		}
	}
	sync();
	printf("delete %.0f\n", count / (now() - t));
	close(fd);
	return rmdir(top) != 0;
}
