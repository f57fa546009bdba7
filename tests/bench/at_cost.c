/*
 * at_cost: what naming a file from a directory descriptor costs beside
 * naming it from the working directory, in the calls of clyde's small-
 * file phases, measured in one process so that the machine's noise
 * between runs does not drown a cost of a few percent.
 *
 * In a fresh directory, FILES files with bonnie++'s names are made, and
 * in turn, ROUNDS times each, interleaved (every other round in the
 * other order): a readdir() pass that stat()s every name from the
 * working directory (AT_FDCWD, as bonnie++ does after chdir()), the same
 * pass from a descriptor of the directory, then the files made again and
 * removed in a readdir() pass, from the working directory and from the
 * descriptor.  Prints the median ns per call of each and the ratio
 * descriptor / working directory.
 *
 *   tests/bench/at_cost.sh [DIR]      (DIR on the filesystem to measure)
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FILES  131072
#define ROUNDS 9
#define NAME   24

enum { STAT_CWD, STAT_FD, UNLINK_CWD, UNLINK_FD, KINDS };

static const char *kind_name[KINDS] = {
	"stat from the working directory", "stat from a descriptor",
	"unlink from the working directory", "unlink from a descriptor",
};

static char names[FILES][NAME];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* bonnie++'s names: 10 hex digits, then 0 to 12 random characters */
static void make_names(void)
{
	static const char chars[] = "0123456789abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

	srand(1);
	for (int i = 0; i < FILES; i++) {
		int n = sprintf(names[i], "%010x", (unsigned)i);
		int extra = rand() % 13;

		while (extra-- > 0)
			names[i][n++] = chars[rand() % 62];
		names[i][n] = '\0';
	}
}

static void make_files(void)
{
	for (int i = 0; i < FILES; i++) {
		int fd = open(names[i], O_WRONLY | O_CREAT | O_EXCL, 0600);

		if (fd < 0 || close(fd) != 0)
			die("create");
	}
}

/* one readdir() pass: stat or unlink each name from at; ns per call */
static double pass(int at, int remove)
{
	DIR *d = opendir(".");
	struct dirent *e;
	struct stat st;
	double t0;
	int n = 0;

	if (d == NULL)
		die("opendir");
	t0 = now();
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if ((remove ? unlinkat(at, e->d_name, 0)
		    : fstatat(at, e->d_name, &st, AT_SYMLINK_NOFOLLOW)) != 0)
			die(remove ? "unlink" : "stat");
		n++;
	}
	t0 = now() - t0;
	closedir(d);
	if (n != FILES) {
		fprintf(stderr, "at_cost: a pass met %d names of %d\n", n, FILES);
		exit(1);
	}
	return t0 / n;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static double ns[KINDS][ROUNDS];
	double med[KINDS];
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: at_cost DIR (an empty directory)\n");
		return 2;
	}
	if (chdir(argv[1]) != 0 || (fd = open(".", O_RDONLY | O_DIRECTORY)) < 0)
		die(argv[1]);
	make_names();
	for (int r = 0; r < ROUNDS; r++) {
		for (int j = 0; j < 2; j++) {
			int from_fd = (r & 1) ? !j : j;
			int at = from_fd ? fd : AT_FDCWD;

			make_files();
			ns[STAT_CWD + from_fd][r] = pass(at, 0);
			ns[UNLINK_CWD + from_fd][r] = pass(at, 1);
		}
	}
	for (int k = 0; k < KINDS; k++) {
		qsort(ns[k], ROUNDS, sizeof(ns[k][0]), cmp);
		med[k] = ns[k][ROUNDS / 2];
		printf("%-34s %8.0f ns (median of %d passes of %d files)\n",
		    kind_name[k], med[k], ROUNDS, FILES);
	}
	printf("descriptor / working directory: stat %.3f, unlink %.3f\n",
	    med[STAT_FD] / med[STAT_CWD], med[UNLINK_FD] / med[UNLINK_CWD]);
	return 0;
}
