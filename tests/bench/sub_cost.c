/*
 * sub_cost: what naming a file in a subdirectory costs by a path from
 * above it (SUB/NAME from the working directory, as bonnie++'s random
 * phases do) beside by its single name from a descriptor of the
 * subdirectory held open (as clyde's do, safe from a symbolic link put
 * in place of SUB), in the calls
 * of the random small-file phases of -n N:0:0:DIRS; and the same for a
 * directory of --dirs two levels down (PARENT/NAME from dirs/ beside
 * NAME from PARENT's descriptor).  Measured in one process, so that the
 * machine's noise between runs does not drown a cost of a few percent.
 *
 * In a fresh directory, FILES files with bonnie++'s names are spread
 * over DIRS subdirectories; ROUNDS times, a stat() of every file in a
 * random order, then an unlink(); then a tree of PARENTS directories of
 * FANOUT children each, made, stat'ed and removed in a random order.
 * In each pass the calls go in blocks of BLOCK, by path and by
 * descriptor in turn (every other pass starting with the other), so that
 * both ways meet the same noise of a busy machine: a pass's ns per call
 * of each way is its time over its calls, on the thread's CPU clock (time
 * the process waits for a core does not count).  Prints the median over
 * the passes of each, and of the per-pass ratios descriptor / path.
 *
 *   tests/bench/at_cost.sh [DIR]       (DIR on the filesystem to measure)
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FILES   65536
#define DIRS    16
#define PARENTS 512
#define FANOUT  32
#define ROUNDS  15
#define BLOCK   256
#define NAME    40

enum op { STAT, UNLINK, MKDIR, DSTAT, RMDIR, OPS };

static const char *op_name[OPS] = {
	"stat of a file", "unlink of a file", "mkdir", "stat of a directory",
	"rmdir",
};

static char path[FILES][NAME];          /* SUB/NAME */
static const char *leaf[FILES];         /* NAME in it */
static int sub_of[FILES];
static unsigned order[FILES];
static char tpath[PARENTS * FANOUT][NAME];
static const char *tleaf[PARENTS * FANOUT];
static unsigned torder[PARENTS * FANOUT];
static int sub_fd[DIRS], parent_fd[PARENTS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void shuffle(unsigned *o, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		o[i] = i;
	for (unsigned k = n; k > 1; k--) {
		unsigned j = (unsigned)rand() % k, t = o[k - 1];

		o[k - 1] = o[j];
		o[j] = t;
	}
}

/* bonnie++'s names: 10 hex digits, then 0 to 12 random characters */
static void make_names(void)
{
	static const char chars[] = "0123456789abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

	srand(1);
	for (int i = 0; i < FILES; i++) {
		int n, extra = rand() % 13;

		sub_of[i] = (int)((long)i * DIRS / FILES);
		n = sprintf(path[i], "%05d/", sub_of[i]);
		leaf[i] = path[i] + n;
		n += sprintf(path[i] + n, "%010x", (unsigned)i);
		while (extra-- > 0)
			path[i][n++] = chars[rand() % 62];
		path[i][n] = '\0';
	}
	for (int i = 0; i < PARENTS * FANOUT; i++) {
		int n = sprintf(tpath[i], "%010x/", (unsigned)(i / FANOUT));

		tleaf[i] = tpath[i] + n;
		sprintf(tpath[i] + n, "%010x", (unsigned)(PARENTS + i));
	}
}

static void make_files(void)
{
	for (int i = 0; i < FILES; i++) {
		int fd = open(path[i], O_WRONLY | O_CREAT | O_EXCL, 0600);

		if (fd < 0 || close(fd) != 0)
			die("create");
	}
}

/* the call op on file or directory i, by path (by_fd 0) or by name */
static void call(enum op op, unsigned i, int by_fd, int top)
{
	struct stat st;
	int rc;

	switch (op) {
	case STAT:
	case UNLINK:
		rc = op == STAT ? fstatat(by_fd ? sub_fd[sub_of[i]] : AT_FDCWD,
		    by_fd ? leaf[i] : path[i], &st, AT_SYMLINK_NOFOLLOW) :
		    unlinkat(by_fd ? sub_fd[sub_of[i]] : AT_FDCWD,
		    by_fd ? leaf[i] : path[i], 0);
		break;
	default:
		rc = op == MKDIR ? mkdirat(by_fd ? parent_fd[i / FANOUT] : top,
		    by_fd ? tleaf[i] : tpath[i], 0700) : op == DSTAT ?
		    fstatat(by_fd ? parent_fd[i / FANOUT] : top,
		    by_fd ? tleaf[i] : tpath[i], &st, AT_SYMLINK_NOFOLLOW) :
		    unlinkat(by_fd ? parent_fd[i / FANOUT] : top,
		    by_fd ? tleaf[i] : tpath[i], AT_REMOVEDIR);
	}
	if (rc != 0)
		die(op_name[op]);
}

/*
 * One pass of op over n names in a random order, in blocks by path and by
 * descriptor in turn (first: the way of the first block); ns per call of
 * each way in out[0] (path) and out[1] (descriptor).
 */
static void pass(enum op op, unsigned *o, unsigned n, int first, int top,
    double out[2])
{
	double t[2] = { 0, 0 };
	unsigned calls[2] = { 0, 0 };

	shuffle(o, n);
	for (unsigned k = 0; k < n; k += BLOCK) {
		int by_fd = first ^ (int)(k / BLOCK & 1);
		unsigned end = k + BLOCK < n ? k + BLOCK : n;
		double t0 = now();

		for (unsigned j = k; j < end; j++)
			call(op, o[j], by_fd, top);
		t[by_fd] += now() - t0;
		calls[by_fd] += end - k;
	}
	out[0] = t[0] / calls[0];
	out[1] = t[1] / calls[1];
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static double ns[OPS][3][ROUNDS];
	char name[NAME];
	int top;

	if (argc != 2) {
		fprintf(stderr, "usage: sub_cost DIR (an empty directory)\n");
		return 2;
	}
	if (chdir(argv[1]) != 0)
		die(argv[1]);
	make_names();
	for (int d = 0; d < DIRS; d++) {
		sprintf(name, "%05d", d);
		if (mkdir(name, 0700) != 0 ||
		    (sub_fd[d] = open(name, O_RDONLY | O_DIRECTORY)) < 0)
			die(name);
	}
	if (mkdir("dirs", 0700) != 0 ||
	    (top = open("dirs", O_RDONLY | O_DIRECTORY)) < 0)
		die("dirs");
	for (int p = 0; p < PARENTS; p++) {
		sprintf(name, "%010x", (unsigned)p);
		if (mkdirat(top, name, 0700) != 0 ||
		    (parent_fd[p] = openat(top, name, O_RDONLY | O_DIRECTORY)) < 0)
			die(name);
	}
	for (int r = 0; r < ROUNDS; r++) {
		double two[OPS][2];

		make_files();
		for (int o = 0; o < OPS; o++) {
			int tree = o >= MKDIR;

			pass((enum op)o, tree ? torder : order, tree ?
			    PARENTS * FANOUT : FILES, r & 1, top, two[o]);
			ns[o][0][r] = two[o][0];
			ns[o][1][r] = two[o][1];
			ns[o][2][r] = two[o][1] / two[o][0];
		}
	}
	printf("%-20s %8s %8s %8s  (medians of %d passes, ns a call, random "
	    "order)\n", "", "by path", "by fd", "fd/path", ROUNDS);
	for (int o = 0; o < OPS; o++) {
		for (int f = 0; f < 3; f++)
			qsort(ns[o][f], ROUNDS, sizeof(ns[o][f][0]), cmp);
		printf("%-20s %8.0f %8.0f %8.3f\n", op_name[o],
		    ns[o][0][ROUNDS / 2], ns[o][1][ROUNDS / 2],
		    ns[o][2][ROUNDS / 2]);
	}
	for (int d = 0; d < DIRS; d++) {
		sprintf(name, "%05d", d);
		rmdir(name);
	}
	for (int p = 0; p < PARENTS; p++) {
		sprintf(name, "dirs/%010x", (unsigned)p);
		rmdir(name);
	}
	rmdir("dirs");
	return 0;
}
