/*
 * core/config.c: argv to struct config.  Every value is parsed strictly and
 * checked here, before anything touches the filesystem.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "lib/sys.h"
#include "lib/text.h"
#include "lib/units.h"

#define DEFAULT_FILE_MIB        300     /* bonnie++ DefaultFileSize */
#define DEFAULT_FILES_K         16      /* bonnie++ DefaultDirectorySize */
#define SEEKS_MAX               (1u << 24)
#define RUNS_MAX                100000
#define DIRS_MAX                100000
#define FILE_SIZE_MAX           (1L << 30)      /* largest -n MAX, bytes */
#define RAM_MAX_MIB             (1ULL << 40)
/* memory per file name: name, terminator, directory index, rounded up */
#define BYTES_PER_NAME          32
#define NAMES_MEM_MAX           (1ULL << 30)
#define QUICK_FILE_MIB          512

static const char usage_text[] =
"usage: clyde [-d dir] [-s size[:chunk[:seeks[:seekers]]]]\n"
"             [-n number[:max[:min[:dirs[:chunk]]]]] [-m name] [-r ram]\n"
"             [-x runs] [-u user[:group]] [-g group] [-q] [-f[size]] [-b]\n"
"             [-D] [-c concurrency] [-p processes | -y s|p]\n"
"             [-z seed | -Z file] [--compat=1.03|2.00] [--json=file]\n"
"             [--precise] [--progress=auto|always|never] [--quick]\n"
"             [--stall=seconds] [--cleanup-wait=seconds] [--chunks=list]\n"
"             [--shift=ranks] [--sizes=list] [--latency-over=list]\n"
"             [--dirs=number[:depth[:fanout]]] [--dirs-shared]\n"
"       clyde report [options] [file...]   (see clyde report --help)\n"
"       clyde --help | --version\n"
"\n";

/* apart from usage_text: C99 promises string literals of 4095 bytes */
static const char options_text[] =
"  -d, --directory DIR    target directory; clyde works in a scratch\n"
"                         directory it makes inside (default .)\n"
"  -s, --size SIZE[:CHUNK[:SEEKS[:SEEKERS]]]\n"
"                         test file size in MiB (k/m/g/t suffixes),\n"
"                         0 skips the I/O phases; chunk a power of two\n"
"                         from 256 to 1m bytes\n"
"  -n, --files N[:MAX[:MIN[:DIRS[:CHUNK]]]]\n"
"                         N x 1024 small files, 0 skips them; MAX -1 hard\n"
"                         links, -2 symbolic links\n"
"  -m, --machine NAME     machine name for the reports (default: host name)\n"
"  -r, --ram MIB          RAM size for the sanity rules, 0 turns them off\n"
"  -x, --runs N           run N times, print CSV lines only\n"
"  -u, --user USER[:GROUP], -g, --group GROUP\n"
"                         run as this user/group (required as root)\n"
"  -q, --quiet            CSV alone on stdout, table on stderr, no progress\n"
"  -f, --fast[=SIZE]      skip the per-char phases; 2.00: -fSIZE sets their\n"
"                         size in MiB (k/m/g suffixes; default 3), -f0\n"
"                         skips them; the value is attached: -f20\n"
"  -b, --sync             fsync as bonnie++ -b: after each seek's write and\n"
"                         each small file; the phases end synced anyway\n"
"  -D, --direct           O_DIRECT for the block phases (2.00)\n"
"  -c, --concurrency N    N copies of every phase at once, 1 to 200 (2.00)\n"
"  -p, --semaphore-procs N  make the semaphore for N synchronised runs and\n"
"                         exit; -p -1 removes it\n"
"  -y, --sync-with s|p    wait before each phase: s on the semaphore, p for\n"
"                         Enter on the terminal\n"
"  -z, --seed SEED        random seed; -Z, --random-file FILE: random numbers\n"
"      --compat=1.03|2.00 behave and print like bonnie++ 1.03e (default) or\n"
"                         2.00a (CSV format 1.98)\n"
"      --json=FILE        also write the full result record as JSON (- for\n"
"                         stdout)\n"
"      --precise          measured values instead of +++++ for short phases\n"
"      --progress=WHEN    auto (a redrawn line on a terminal), always, never\n"
"      --quick            a small run of every phase (512 MiB, 16k files, RAM\n"
"                         rules off, --precise): it measures the page cache,\n"
"                         not the disk\n"
"      --stall=SECONDS    say which call has not returned after this long\n"
"                         without progress (default 30; 0: never)\n"
"      --cleanup-wait=SECONDS  retry a cleanup that a network filesystem\n"
"                         refused for this long (default 60; 0: never)\n"
"      --dirs=N[:DEPTH[:FANOUT]]  N x 1024 directories in a tree DEPTH\n"
"                         levels deep (default 1: flat), FANOUT children a\n"
"                         directory above the last level (default 10): made,\n"
"                         stat'ed and removed in tree order, then at random\n"
"      --dirs-shared      clyde-mpi: the ranks make their directories in one\n"
"                         tree, its upper levels rank 0's (mdtest without -u)\n"
"      --chunks=LIST      a sweep: the block phases and the seeks once per\n"
"                         chunk size, 4k,64k,1m or 4k..16m (powers of two,\n"
"                         256 to 16m, each once: at most 17); one result\n"
"                         per size\n"
"      --shift=N          clyde-mpi: rank r reads back what rank r+N wrote\n"
"                         (default 1 across hosts, 0 on one host)\n"
"      --sizes=LIST       a sweep: the block phases and the seeks once per\n"
"                         file size, 1m,4m,16m or 1m..1g (as -s takes them,\n"
"                         32 sizes or fewer); with --chunks every size by\n"
"                         every chunk; one result per point\n"
"      --latency-over=LIST  beside 2 s and 10 s, the share of operations\n"
"                         slower than these in the JSON, 50ms,500ms (ns, us,\n"
"                         ms or s; at most 8)\n"
"      --help, --version\n";

enum long_only {
	OPT_COMPAT = 256,
	OPT_JSON,
	OPT_PRECISE,
	OPT_PROGRESS,
	OPT_QUICK,
	OPT_STALL,
	OPT_CLEANUP_WAIT,
	OPT_CHUNKS,
	OPT_SHIFT,
	OPT_SIZES,
	OPT_LATENCY_OVER,
	OPT_DIRS,
	OPT_DIRS_SHARED,
	OPT_HELP,
	OPT_VERSION
};

static const struct option long_options[] = {
	{ "directory", required_argument, NULL, 'd' },
	{ "size", required_argument, NULL, 's' },
	{ "files", required_argument, NULL, 'n' },
	{ "machine", required_argument, NULL, 'm' },
	{ "ram", required_argument, NULL, 'r' },
	{ "runs", required_argument, NULL, 'x' },
	{ "user", required_argument, NULL, 'u' },
	{ "group", required_argument, NULL, 'g' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "fast", optional_argument, NULL, 'f' },
	{ "sync", no_argument, NULL, 'b' },
	{ "direct", no_argument, NULL, 'D' },
	{ "concurrency", required_argument, NULL, 'c' },
	{ "semaphore-procs", required_argument, NULL, 'p' },
	{ "sync-with", required_argument, NULL, 'y' },
	{ "seed", required_argument, NULL, 'z' },
	{ "random-file", required_argument, NULL, 'Z' },
	{ "compat", required_argument, NULL, OPT_COMPAT },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "precise", no_argument, NULL, OPT_PRECISE },
	{ "progress", required_argument, NULL, OPT_PROGRESS },
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "stall", required_argument, NULL, OPT_STALL },
	{ "cleanup-wait", required_argument, NULL, OPT_CLEANUP_WAIT },
	{ "chunks", required_argument, NULL, OPT_CHUNKS },
	{ "shift", required_argument, NULL, OPT_SHIFT },
	{ "sizes", required_argument, NULL, OPT_SIZES },
	{ "latency-over", required_argument, NULL, OPT_LATENCY_OVER },
	{ "dirs", required_argument, NULL, OPT_DIRS },
	{ "dirs-shared", no_argument, NULL, OPT_DIRS_SHARED },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

/* What the command line said, before defaults and cross-checks. */
struct given {
	const char *size;
	const char *files;
	const char *ram;
	const char *user;
	const char *group;
	const char *fast_arg;
	const char *only_200;   /* first 2.00-only option seen, for the message */
	const char *only_200_value;
	const char *chunks;     /* --chunks as given */
	const char *sizes;      /* --sizes as given */
	const char *dirs;       /* --dirs as given */
	bool fast;
	bool seeks;             /* -s gave seeks / seekers */
	bool seekers;
	bool size_chunk;        /* -s gave a chunk */
	bool size_empty;        /* -s :CHUNK...: no size, for --sizes */
};

/* One line naming the option and the value, then the hint; exit 1. */
static int bad(const char *opt, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(const char *opt, const char *value, const char *fmt, ...)
{
	va_list ap;

	if (value != NULL)
		fprintf(stderr, "clyde: %s %s: ", opt, value);
	else
		fprintf(stderr, "clyde: %s: ", opt);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'clyde --help'.\n", stderr);
	return EXIT_USAGE;
}

static bool is_power_of_two(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* Split s at ':' into at most max fields; returns the count or -1. */
static int split_colons(char *s, char **field, int max)
{
	int n = 0;

	field[n++] = s;
	for (; *s != '\0'; s++) {
		if (*s != ':')
			continue;
		if (n == max)
			return -1;
		*s = '\0';
		field[n++] = s + 1;
	}
	return n;
}

/*
 * The -s that goes with --sizes and --chunks as given: the user's own -s
 * without the fields that they give (the size with --sizes, the chunk with
 * --chunks), so that a refusal names a form that is taken: "-s ::500"
 * with both, "-s :4k:500" with --sizes, "-s 16::500" with --chunks.
 */
static void size_hint(char *out, size_t n, const struct given *g)
{
	char buf[256], *f[4], form[256] = "";
	int nf, i, last;

	snprintf(buf, sizeof(buf), "%s", g->size);
	nf = split_colons(buf, f, 4);
	if (g->sizes != NULL)
		f[0] = (char *)"";
	if (g->chunks != NULL && nf > 1)
		f[1] = (char *)"";
	for (last = nf - 1; last >= 0 && f[last][0] == '\0'; last--)
		;
	for (i = 0; i <= last; i++)
		snprintf(form + strlen(form), sizeof(form) - strlen(form),
		    "%s%s", i > 0 ? ":" : "", f[i]);
	if (form[0] != '\0')
		snprintf(out, n, "give -s %s", form);
	else if (g->chunks != NULL && g->sizes != NULL)
		snprintf(out, n, "leave -s out, or give it the seeks alone "
		    "(-s ::500)");
	else if (g->sizes != NULL)
		snprintf(out, n, "leave -s out, or leave its size empty "
		    "(-s :4k:500)");
	else
		snprintf(out, n, "give -s its size alone (-s 16, -s 16::500)");
}

/* A chunk size: a power of two from MIN_CHUNK to max bytes.  False if not. */
static bool chunk_size(const char *s, uint64_t max, unsigned *out)
{
	uint64_t v;

	if (parse_size(s, "km", 1, 1, UINT32_MAX, &v) != NULL ||
	    !is_power_of_two(v) || v < MIN_CHUNK || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

static int parse_chunk(const char *opt, const char *arg, const char *s,
    unsigned *out)
{
	if (!chunk_size(s, MAX_CHUNK, out))
		return bad(opt, arg,
		    "chunk size must be a power of two from 256 to 1M");
	return EXIT_OK;
}

static int parse_size_opt(struct config *cfg, struct given *g, const char *arg)
{
	char buf[256], *f[4];
	uint64_t v;
	const char *why;
	int n, rc;

	if (strlen(arg) >= sizeof(buf))
		return bad("-s", arg, "too long");
	strcpy(buf, arg);
	n = split_colons(buf, f, 4);
	if (n < 0)
		return bad("-s", arg, "at most size:chunk:seeks:seekers");
	/* -s :CHUNK:SEEKS: the sizes come from --sizes (check_sizes()) */
	g->size_empty = f[0][0] == '\0' && n > 1;
	why = g->size_empty ? NULL : parse_size(f[0], "kmgt", 1024 * 1024, 0,
	    (uint64_t)IO_FILE_MAX_MIB * IO_FILES_MAX, &v);
	if (why != NULL)
		return bad("-s", arg, "size %s (MiB, 0 to %uG)", why,
		    IO_FILE_MAX_MIB * IO_FILES_MAX / 1024);
	if (!g->size_empty)
		cfg->file_size_mib = v;
	/*
	 * An empty chunk before seeks keeps the default, so that seeks go
	 * with --chunks (64::1000); a bare 64: is a value left out.
	 */
	g->size_chunk = n > 2 ? f[1][0] != '\0' : n > 1;
	if (g->size_chunk &&
	    (rc = parse_chunk("-s", arg, f[1], &cfg->chunk)) != EXIT_OK)
		return rc;
	if (n > 2) {
		/* bonnie++ 2.00a takes a k there too: 64:4k:2k is 2048 seeks */
		if ((why = parse_size(f[2], "k", 1, 1, SEEKS_MAX, &v)) != NULL)
			return bad("-s", arg, "seeks %s (1 to %u, k for 1024)", why,
			    SEEKS_MAX);
		cfg->seeks = (unsigned)v;
		g->seeks = true;
	}
	if (n > 3) {
		if ((why = parse_u64(f[3], 1, SEEKERS_MAX, &v)) != NULL)
			return bad("-s", arg, "seekers %s (1 to %u)", why,
			    SEEKERS_MAX);
		cfg->seekers = (unsigned)v;
		g->seekers = true;
	}
	return EXIT_OK;
}

/*
 * A list option: --chunks, --sizes, --latency-over.  Its values go
 * between commas, in the order given; where ranges are taken, A..B is
 * A and its doublings up to B (the powers of two from 4k to 16m).
 */
struct list_kind {
	const char *opt;                /* "--chunks" */
	const char *what;               /* "chunk size", for the messages */
	const char *range;              /* an example range; NULL: none taken */
	unsigned max;                   /* values at most */
	/* one value into *out; NULL or why it is not one */
	const char *(*one)(const char *s, uint64_t *out);
	/* where in struct config the values and their count are */
	size_t values, count;
	bool narrow;                    /* values are unsigned, not uint64_t */
};

static unsigned *list_count(struct config *cfg, const struct list_kind *k)
{
	return (unsigned *)(void *)((char *)cfg + k->count);
}

static uint64_t list_at(struct config *cfg, const struct list_kind *k,
    unsigned i)
{
	char *v = (char *)cfg + k->values;

	return k->narrow ? ((unsigned *)(void *)v)[i] :
	    ((uint64_t *)(void *)v)[i];
}

static void list_put(struct config *cfg, const struct list_kind *k,
    unsigned i, uint64_t value)
{
	char *v = (char *)cfg + k->values;

	if (k->narrow)
		((unsigned *)(void *)v)[i] = (unsigned)value;
	else
		((uint64_t *)(void *)v)[i] = value;
}

/* Append one value to the list; NULL or why not. */
static const char *list_add(struct config *cfg, const struct list_kind *k,
    uint64_t v, char *why, size_t n)
{
	unsigned *count = list_count(cfg, k), i;

	for (i = 0; i < *count; i++)
		if (list_at(cfg, k, i) == v) {
			snprintf(why, n, "a %s is given twice", k->what);
			return why;
		}
	if (*count == k->max) {
		snprintf(why, n, "more than %u %ss", k->max, k->what);
		return why;
	}
	list_put(cfg, k, (*count)++, v);
	return NULL;
}

static int parse_list(struct config *cfg, const struct list_kind *k,
    const char *arg)
{
	char buf[512], msg[128], *item, *next, *dots;
	uint64_t lo, hi;
	const char *why = NULL;

	if (arg[0] == '\0')
		return bad(k->opt, NULL, "an empty list of %ss", k->what);
	if (strlen(arg) >= sizeof(buf))
		return bad(k->opt, arg, "too long");
	strcpy(buf, arg);
	*list_count(cfg, k) = 0;
	for (item = buf; item != NULL && why == NULL; item = next) {
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		if (item[0] == '\0') {
			snprintf(msg, sizeof(msg), "an empty %s (%ss go between "
			    "commas)", k->what, k->what);
			why = msg;
			break;
		}
		if (k->range == NULL || (dots = strstr(item, "..")) == NULL) {
			if ((why = k->one(item, &lo)) == NULL)
				why = list_add(cfg, k, lo, msg, sizeof(msg));
			continue;
		}
		*dots = '\0';
		if ((why = k->one(item, &lo)) != NULL ||
		    (why = k->one(dots + 2, &hi)) != NULL)
			break;
		if (lo > hi) {
			snprintf(msg, sizeof(msg), "a range goes from the smaller "
			    "size up (%s)", k->range);
			why = msg;
			break;
		}
		for (; lo <= hi && why == NULL; lo *= 2)
			why = list_add(cfg, k, lo, msg, sizeof(msg));
	}
	if (why != NULL)
		return bad(k->opt, arg, "%s", why);
	return EXIT_OK;
}

/* One size of --chunks into *out; NULL or why it is not one. */
static const char *sweep_chunk(const char *s, uint64_t *out)
{
	unsigned v;

	if (!chunk_size(s, SWEEP_MAX_CHUNK, &v))
		return "a chunk size must be a power of two from 256 to 16m";
	*out = v;
	return NULL;
}

static const struct list_kind chunks_list = {
	"--chunks", "chunk size", "4k..16m", CHUNKS_MAX, sweep_chunk,
	offsetof(struct config, chunks), offsetof(struct config, nchunks), true
};

/* One size of --sizes, as -s takes it (MiB unless k, g, t say else). */
static const char *sweep_size(const char *s, uint64_t *out)
{
	if (parse_size(s, "kmgt", 1024 * 1024, 1,
	    (uint64_t)IO_FILE_MAX_MIB * IO_FILES_MAX, out) != NULL)
		return "a file size must be whole MiB from 1m to 1000g";
	return NULL;
}

static const struct list_kind sizes_list = {
	"--sizes", "file size", "1m..1g", SIZES_MAX, sweep_size,
	offsetof(struct config, sizes_mib), offsetof(struct config, nsizes),
	false
};

/* One threshold of --latency-over, in ns: 1us to a day. */
static const char *latency_threshold(const char *s, uint64_t *out)
{
	if (parse_duration(s, 1000, 86400ULL * 1000000000, out) != NULL)
		return "a threshold is a whole number of ns, us, ms or s "
		    "(s when none) from 1us to 1 day";
	return NULL;
}

static const struct list_kind latency_list = {
	"--latency-over", "threshold", NULL, LATENCY_OVER_MAX,
	latency_threshold, offsetof(struct config, latency_over_ns),
	offsetof(struct config, nlatency_over), false
};

/* MAX of -n: bytes with k/m/g, or -1 (hard links), -2 (symbolic links) */
static int parse_files_max(const char *arg, const char *s, long *out)
{
	uint64_t v;
	const char *why;

	if (strcmp(s, "-1") == 0 || strcmp(s, "-2") == 0) {
		*out = strtol(s, NULL, 10);
		return EXIT_OK;
	}
	why = parse_size(s, "kmg", 1, 0, FILE_SIZE_MAX, &v);
	if (why != NULL)
		return bad("-n", arg, "max size %s (bytes up to 1g, or -1, -2)",
		    why);
	*out = (long)v;
	return EXIT_OK;
}

/*
 * An empty field keeps its default: 1:-2::4 is symbolic links in four
 * directories.  bonnie++ 2.00a's strtok() skips an empty field instead,
 * so that there the 4 becomes the min, ignored with links, and the run
 * has one directory: not what the field's place says.
 */
/*
 * The value of -n or --dirs (opt) split at ':' into f[max] (*n fields,
 * in buf), and its first field, a count in units of 1024 of what (the
 * fields' names in fields), into *count_k; EXIT_OK or the exit code.
 */
static int split_counted(const char *opt, const char *arg, char *buf,
    size_t size, char **f, int max, int *n, const char *fields,
    const char *what, unsigned *count_k)
{
	uint64_t v;
	const char *why;

	if (strlen(arg) >= size)
		return bad(opt, arg, "too long");
	strcpy(buf, arg);
	*n = split_colons(buf, f, max);
	if (*n < 0)
		return bad(opt, arg, "at most %s", fields);
	/* the number counts units of 1024; 'm' multiplies it by 1024 */
	why = parse_size(f[0], "m", 1, 0, UINT32_MAX / FILE_UNIT, &v);
	if (why != NULL)
		return bad(opt, arg, "number of %s %s (it counts units of 1024 "
		    "%s: %s 16 makes 16384)", what, why, what, opt);
	*count_k = (unsigned)v;
	return EXIT_OK;
}

static int parse_files_opt(struct config *cfg, const char *arg)
{
	char buf[256], *f[5];
	struct files_spec *fs = &cfg->files;
	uint64_t v;
	const char *why;
	int n, rc;

	/* a later -n replaces an earlier one whole: its empty fields take the
	 * defaults, never the earlier -n's (a min above the new max) */
	fs->max_size = 0;
	fs->min_size = 0;
	fs->dirs = 1;
	fs->chunk = DEFAULT_CHUNK;
	rc = split_counted("-n", arg, buf, sizeof(buf), f, 5, &n,
	    "number:max:min:dirs:chunk", "files", &fs->count_k);
	if (rc != EXIT_OK)
		return rc;
	if (n > 1 && f[1][0] != '\0' &&
	    (rc = parse_files_max(arg, f[1], &fs->max_size)) != EXIT_OK)
		return rc;
	if (n > 2 && f[2][0] != '\0') {
		if ((why = parse_size(f[2], "kmg", 1, 0, FILE_SIZE_MAX, &v)) != NULL)
			return bad("-n", arg, "min size %s", why);
		/* links have no size: bonnie++ takes a min with them and ignores it */
		if (fs->max_size >= 0 && (long)v > fs->max_size)
			return bad("-n", arg, "min size is larger than max size");
		if (fs->max_size >= 0)
			fs->min_size = (long)v;
	}
	if (n > 3 && f[3][0] != '\0') {
		if ((why = parse_u64(f[3], 1, DIRS_MAX, &v)) != NULL)
			return bad("-n", arg, "directories %s (1 to %u)", why,
			    DIRS_MAX);
		fs->dirs = (unsigned)v;
	}
	if (n > 4 && (rc = parse_chunk("-n", arg, f[4], &fs->chunk)) != EXIT_OK)
		return rc;
	return EXIT_OK;
}

/* --dirs=N[:DEPTH[:FANOUT]]; an empty field keeps its default, as in -n */
static int parse_dirs_opt(struct config *cfg, const char *arg)
{
	static const struct {
		const char *name;
		unsigned max;
	} field[2] = { { "depth", DIRS_DEPTH_MAX }, { "fanout", DIRS_FANOUT_MAX } };
	unsigned *value[2] = { &cfg->dirs.depth, &cfg->dirs.fanout };
	char buf[64], *f[3];
	int n, rc;

	/* as with -n, a later --dirs replaces an earlier one whole */
	cfg->dirs.depth = DIRS_DEPTH_DEFAULT;
	cfg->dirs.fanout = DIRS_FANOUT_DEFAULT;
	rc = split_counted("--dirs", arg, buf, sizeof(buf), f, 3, &n,
	    "number:depth:fanout", "directories", &cfg->dirs.count_k);
	for (int i = 1; rc == EXIT_OK && i < n; i++) {
		uint64_t v;
		const char *why;

		if (f[i][0] == '\0')
			continue;
		if ((why = parse_u64(f[i], 1, field[i - 1].max, &v)) != NULL)
			return bad("--dirs", arg, "%s %s (1 to %u)",
			    field[i - 1].name, why, field[i - 1].max);
		*value[i - 1] = (unsigned)v;
	}
	return rc;
}

static int parse_machine(struct config *cfg, const char *arg)
{
	const char *ctl;

	if (strlen(arg) > NAME_MAX_LEN)
		return bad("-m", NULL, "name longer than %d bytes", NAME_MAX_LEN);
	if (strpbrk(arg, ",\n\r") != NULL)
		return bad("-m", NULL,
		    "a comma or line break in the name would break the CSV line");
	if ((ctl = find_control(arg)) != NULL)
		return bad("-m", NULL, "a control character (0x%02x) in the name "
		    "would garble the table", (unsigned char)ctl[0] == 0xc2 ?
		    (unsigned char)ctl[1] : (unsigned char)ctl[0]);
	strcpy(cfg->machine, arg);
	return EXIT_OK;
}

/* name, a group; given is the option's whole value, for the message */
static int resolve_group(const char *opt, const char *given, const char *name,
    gid_t *gid)
{
	struct group *gr;
	uint64_t v;

	if (parse_u64(name, 0, UINT32_MAX - 1, &v) == NULL) {
		*gid = (gid_t)v;
		return EXIT_OK;
	}
	errno = 0;
	gr = getgrnam(name);
	if (gr == NULL && given != name)
		return bad(opt, given, "no such group: %s", name);
	if (gr == NULL)
		return bad(opt, given, "no such group");
	*gid = gr->gr_gid;
	return EXIT_OK;
}

/* -u USER[:GROUP] and -g GROUP: names or numbers; the user's group by default */
static int resolve_ids(struct config *cfg, struct given *g)
{
	char user[256];
	const char *group = g->group;
	struct passwd *pw;
	uint64_t v;
	char *colon;

	if (g->user == NULL)
		return group ? resolve_group("-g", group, group, &cfg->gid) :
		    EXIT_OK;
	if (strlen(g->user) >= sizeof(user))
		return bad("-u", g->user, "too long");
	strcpy(user, g->user);
	colon = strchr(user, ':');
	if (colon != NULL) {
		if (group != NULL)
			return bad("-u", g->user, "the group is given twice (-g too)");
		*colon = '\0';
		group = g->user + (colon - user) + 1;
		if (group[0] == '\0')
			return bad("-u", g->user, "no group after the colon "
			    "(-u USER or -u USER:GROUP)");
		if (strchr(group, ':') != NULL)
			return bad("-u", g->user, "more than one colon "
			    "(-u USER or -u USER:GROUP)");
	}
	if (user[0] == '\0')
		return bad("-u", g->user, "no user name");
	if (parse_u64(user, 0, UINT32_MAX - 1, &v) == NULL) {
		pw = getpwuid((uid_t)v);
		if (pw == NULL && group == NULL)
			return bad("-u", g->user, "no password entry for this "
			    "number: give the group too (-u N:GROUP)");
		cfg->uid = (uid_t)v;
	} else {
		pw = getpwnam(user);
		if (pw == NULL)
			return bad("-u", g->user, "no such user");
		cfg->uid = pw->pw_uid;
	}
	if (pw != NULL)
		cfg->gid = pw->pw_gid;
	cfg->user_name = g->user;
	if (group != NULL && colon != NULL)
		return resolve_group("-u", g->user, group, &cfg->gid);
	if (group != NULL)
		return resolve_group("-g", group, group, &cfg->gid);
	return EXIT_OK;
}

/*
 * The array of argv's pointers, as it is before getopt_long(); or NULL.
 * Kept for the whole process, here, where the leak checker sees it.
 */
static char *const *copy_argv(int argc, char **argv)
{
	static char **copy;

	free(copy);
	copy = malloc(((size_t)argc + 1) * sizeof(*copy));
	if (copy != NULL)
		memcpy(copy, argv, ((size_t)argc + 1) * sizeof(*copy));
	return copy;
}

static void set_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->compat = COMPAT_103;
	cfg->dir = ".";
	cfg->chunk = DEFAULT_CHUNK;
	cfg->seeks = SEEKS_103;
	cfg->seekers = SEEKERS_103;
	cfg->per_char = true;
	cfg->per_char_mib = PER_CHAR_MIB_200;
	cfg->per_char_asked_mib = PER_CHAR_MIB_200;
	cfg->concurrency = 1;
	cfg->stall_s = STALL_S_DEFAULT;
	cfg->cleanup_wait_s = CLEANUP_WAIT_S_DEFAULT;
	cfg->files.count_k = DEFAULT_FILES_K;
	cfg->files.dirs = 1;
	cfg->files.chunk = DEFAULT_CHUNK;
	cfg->dirs.depth = DIRS_DEPTH_DEFAULT;
	cfg->dirs.fanout = DIRS_FANOUT_DEFAULT;
	cfg->ram_mib = phys_ram_mib();
	cfg->uid = getuid();
	cfg->gid = getgid();
}

static void note_only_200(struct given *g, const char *opt, const char *value)
{
	if (g->only_200 != NULL)
		return;
	g->only_200 = opt;
	g->only_200_value = value;
}

/* -p N: make the semaphore for N processes; -p -1: remove it */
static int parse_sync_procs(struct config *cfg, const char *arg)
{
	uint64_t v;
	const char *why;

	if (cfg->sync == SYNC_SEMAPHORE || cfg->sync == SYNC_PROMPT)
		return bad("-p", arg, "give -p or -y, not both");
	if (strcmp(arg, "-1") == 0) {
		cfg->sync = SYNC_REMOVE;
		return EXIT_OK;
	}
	if ((why = parse_u64(arg, 1, 1000, &v)) != NULL)
		return bad("-p", arg, "processes %s (1 to 1000, or -1)", why);
	cfg->sync = SYNC_CREATE;
	cfg->sync_procs = (unsigned)v;
	return EXIT_OK;
}

static int parse_one(struct config *cfg, struct given *g, int c,
    const char *arg)
{
	uint64_t v;
	const char *why;
	int rc;

	switch (c) {
	case 'd':
		if (arg[0] == '\0')
			return bad("-d", NULL, "empty directory name");
		cfg->dir = arg;
		return EXIT_OK;
	case 's':
		g->size = arg;
		return parse_size_opt(cfg, g, arg);
	case 'n':
		g->files = arg;
		return parse_files_opt(cfg, arg);
	case 'm':
		return parse_machine(cfg, arg);
	case 'r':
		if ((why = parse_u64(arg, 0, RAM_MAX_MIB, &v)) != NULL)
			return bad("-r", arg, "RAM in MiB %s", why);
		cfg->ram_mib = v;
		g->ram = arg;
		return EXIT_OK;
	case 'x':
		if ((why = parse_u64(arg, 1, RUNS_MAX, &v)) != NULL)
			return bad("-x", arg, "number of runs %s (1 to %u)", why,
			    RUNS_MAX);
		cfg->runs = (unsigned)v;
		return EXIT_OK;
	case 'u':
		if (g->user != NULL)
			return bad("-u", arg, "given twice");
		g->user = arg;
		return EXIT_OK;
	case 'g':
		if (g->group != NULL)
			return bad("-g", arg, "given twice");
		g->group = arg;
		return EXIT_OK;
	case 'q':
		cfg->quiet = true;
		return EXIT_OK;
	case 'f':
		g->fast = true;
		g->fast_arg = arg;
		return EXIT_OK;
	case 'b':
		cfg->sync_writes = true;
		return EXIT_OK;
	case 'z':
		if ((why = parse_u64(arg, 0, UINT32_MAX, &v)) != NULL)
			return bad("-z", arg, "seed %s (0 to %u)", why, UINT32_MAX);
		cfg->seed = (uint32_t)v;
		cfg->seed_given = true;
		return EXIT_OK;
	case 'Z':
		if (arg[0] == '\0')
			return bad("-Z", NULL, "empty file name");
		cfg->seed_file = arg;
		return EXIT_OK;
	case 'c':
		if ((why = parse_u64(arg, 1, CONCURRENCY_MAX, &v)) != NULL)
			return bad("-c", arg, "concurrency %s (1 to %u)", why,
			    CONCURRENCY_MAX);
		cfg->concurrency = (unsigned)v;
		note_only_200(g, "-c", arg);
		return EXIT_OK;
	case 'D':
		cfg->direct_io = true;
		note_only_200(g, "-D", NULL);
		return EXIT_OK;
	case 'p':
		return parse_sync_procs(cfg, arg);
	case 'y':
		if (cfg->sync == SYNC_CREATE || cfg->sync == SYNC_REMOVE)
			return bad("-y", arg, "give -p or -y, not both");
		if (strcmp(arg, "s") == 0)
			cfg->sync = SYNC_SEMAPHORE;
		else if (strcmp(arg, "p") == 0)
			cfg->sync = SYNC_PROMPT;
		else
			return bad("-y", arg, "must be s (semaphore) or p (prompt)");
		return EXIT_OK;
	case OPT_COMPAT:
		if (strcmp(arg, "1.03") == 0)
			cfg->compat = COMPAT_103;
		else if (strcmp(arg, "2.00") == 0)
			cfg->compat = COMPAT_200;
		else
			return bad("--compat", arg, "must be 1.03 or 2.00");
		return EXIT_OK;
	case OPT_JSON:
		if (arg[0] == '\0')
			return bad("--json", NULL, "empty file name");
		cfg->json_path = arg;
		return EXIT_OK;
	case OPT_PRECISE:
		cfg->precise = true;
		return EXIT_OK;
	case OPT_PROGRESS:
		if (strcmp(arg, "auto") == 0)
			cfg->progress = PROGRESS_AUTO;
		else if (strcmp(arg, "always") == 0)
			cfg->progress = PROGRESS_ALWAYS;
		else if (strcmp(arg, "never") == 0)
			cfg->progress = PROGRESS_NEVER;
		else
			return bad("--progress", arg, "must be auto, always or never");
		return EXIT_OK;
	case OPT_QUICK:
		cfg->quick = true;
		return EXIT_OK;
	case OPT_CHUNKS:
		g->chunks = arg;
		if ((rc = parse_list(cfg, &chunks_list, arg)) == EXIT_OK)
			cfg->chunk = cfg->chunks[0];
		return rc;
	case OPT_SIZES:
		g->sizes = arg;
		return parse_list(cfg, &sizes_list, arg);
	case OPT_LATENCY_OVER:
		return parse_list(cfg, &latency_list, arg);
	case OPT_DIRS:
		g->dirs = arg;
		return parse_dirs_opt(cfg, arg);
	case OPT_DIRS_SHARED:
		cfg->dirs.shared = true;
		return EXIT_OK;
	case OPT_STALL:
	case OPT_CLEANUP_WAIT:
		why = parse_u64(arg, 0, WAIT_S_MAX, &v);
		if (why != NULL)
			return bad(c == OPT_STALL ? "--stall" : "--cleanup-wait",
			    arg, "%s (seconds, 0 to %u)", why, WAIT_S_MAX);
		*(c == OPT_STALL ? &cfg->stall_s : &cfg->cleanup_wait_s) =
		    (unsigned)v;
		return EXIT_OK;
	case OPT_SHIFT:
		why = parse_u64(arg, 0, SHIFT_MAX, &v);
		if (why != NULL)
			return bad("--shift", arg, "%s (ranks, 0 to %u)", why,
			    SHIFT_MAX);
		cfg->shift = (unsigned)v;
		cfg->shift_given = true;
		return EXIT_OK;
	default:
		/* getopt_long has printed what was wrong */
		fputs("Try 'clyde --help'.\n", stderr);
		return EXIT_USAGE;
	}
}

static int check_sizes(struct config *cfg, const struct given *g);

/* The RAM and size rules of bonnie++, and the other cross-checks. */
static int check_config(struct config *cfg, struct given *g)
{
	uint64_t names;
	int rc;

	if (cfg->compat == COMPAT_103 && g->only_200 != NULL)
		return bad(g->only_200, g->only_200_value,
		    "only with --compat=2.00");
	if (cfg->compat == COMPAT_103 && g->fast_arg != NULL)
		return bad("-f", g->fast_arg,
		    "a per-char size is only for --compat=2.00");
	if (cfg->compat == COMPAT_200) {
		if (!g->seeks)
			cfg->seeks = SEEKS_200;
		if (!g->seekers)
			cfg->seekers = SEEKERS_200;
	}
	cfg->per_char = !g->fast;
	if (g->fast_arg != NULL) {
		uint64_t v;
		const char *why = parse_size(g->fast_arg, "kmg", 1024 * 1024, 0,
		    1024 * 1024, &v);

		if (why != NULL)
			return bad("-f", g->fast_arg, "per-char size %s (MiB)", why);
		cfg->per_char = v > 0;
		cfg->per_char_mib = v;
		cfg->per_char_asked_mib = v;
	}
	/* the semaphores count down once: a second run would wait for ever */
	if (cfg->sync == SYNC_SEMAPHORE && cfg->runs > 1)
		return bad("-y", "s", "serves one run; not with -x %u", cfg->runs);
	/* the semaphore set has one semaphore for each of bonnie++'s phases */
	if (cfg->sync == SYNC_SEMAPHORE && cfg->dirs.count_k > 0)
		return bad("-y", "s", "waits before bonnie++'s phases alone; not "
		    "with --dirs %s", g->dirs);
	if (cfg->sync == SYNC_SEMAPHORE && config_points(cfg) > 1)
		return bad("-y", "s", "serves one pass of each phase; not with "
		    "%s %s", g->chunks ? "--chunks" : "--sizes",
		    g->chunks ? g->chunks : g->sizes);
	if (cfg->seed_given && cfg->seed_file != NULL)
		return bad("-z", NULL, "give a seed or a random file (-Z), not both");
	if (cfg->quick && g->ram == NULL)
		cfg->ram_mib = 0;
	/* a table of +++++ would show a first-time user nothing */
	if (cfg->quick)
		cfg->precise = true;
	if (g->size_empty && g->sizes == NULL)
		return bad("-s", g->size, "an empty size goes with --sizes only");
	if (g->chunks != NULL && g->size_chunk) {
		char hint[320];

		size_hint(hint, sizeof(hint), g);
		return bad("--chunks", g->chunks, "the chunk is given twice "
		    "(-s %s gives one): %s", g->size, hint);
	}
	if (g->sizes != NULL && (rc = check_sizes(cfg, g)) != EXIT_OK)
		return rc;
	if (g->size == NULL && g->sizes == NULL) {
		uint64_t size = cfg->quick ? QUICK_FILE_MIB : DEFAULT_FILE_MIB;

		if (!cfg->quick && cfg->ram_mib * 2 > size)
			size = cfg->ram_mib * 2;
		if (size % 1024 > 512)
			size += 1024 - size % 1024;
		/* the limit of -s holds for the size chosen for it too */
		if (size > (uint64_t)IO_FILE_MAX_MIB * IO_FILES_MAX)
			return bad("-r", g->ram, "twice the RAM of %lluM is more "
			    "than the largest size, %uG: give -s, or a smaller -r",
			    (unsigned long long)cfg->ram_mib,
			    IO_FILE_MAX_MIB * IO_FILES_MAX / 1024);
		cfg->file_size_mib = size;
	}
	if (cfg->dirs.shared && cfg->dirs.count_k == 0)
		return bad("--dirs-shared", NULL, "shares the tree of --dirs "
		    "between the ranks of clyde-mpi: give --dirs too");
	if (cfg->file_size_mib == 0 && cfg->files.count_k == 0 &&
	    cfg->dirs.count_k == 0)
		return bad(g->dirs != NULL ? "-s 0, -n 0 and --dirs" :
		    "-s 0 and -n 0", g->dirs, "nothing to do");
	if (g->chunks != NULL && cfg->file_size_mib == 0)
		return bad("--chunks", g->chunks, "-s 0 skips the phases "
		    "the sweep runs");
	for (unsigned i = 0; i < cfg->nchunks; i++)
		if (cfg->chunks[i] / (1024 * 1024) > cfg->file_size_mib)
			return bad("--chunks", g->chunks, "a chunk size is larger "
			    "than the file (%lluM)",
			    (unsigned long long)cfg->file_size_mib);
	/* -c N copies each use the size: together they must exceed the cache */
	if (cfg->file_size_mib != 0 && cfg->ram_mib != 0 &&
	    cfg->file_size_mib * cfg->concurrency < cfg->ram_mib * 2)
		return bad("-s", g->size,
		    "file size should be double RAM for good results, "
		    "RAM is %lluM (-r says less, -r 0 turns this off)",
		    (unsigned long long)cfg->ram_mib);
	names = (uint64_t)cfg->files.count_k * FILE_UNIT * BYTES_PER_NAME;
	if (names > NAMES_MEM_MAX)
		return bad("-n", g->files,
		    "the file names alone would take more than 1 GiB");
	if (cfg->ram_mib != 0 && names * 2 > cfg->ram_mib * 1024 * 1024)
		return bad("-n", g->files,
		    "the file names would take more than half of the %lluM of RAM "
		    "(-r says more, -r 0 turns this off)",
		    (unsigned long long)cfg->ram_mib);
	/* the directory table: an order and a bit a directory */
	if ((uint64_t)cfg->dirs.count_k * FILE_UNIT * sizeof(uint32_t) >
	    NAMES_MEM_MAX)
		return bad("--dirs", g->dirs,
		    "the directory table alone would take more than 1 GiB");
	cfg->size_given = g->size != NULL || g->sizes != NULL;
	config_take_size(cfg, cfg->file_size_mib);
	return resolve_ids(cfg, g);
}

/*
 * --sizes: -s's size is the largest (the space the run needs), and each
 * size keeps the RAM rule, -c copies together; a chunk fits the smallest.
 */
static int check_sizes(struct config *cfg, const struct given *g)
{
	uint64_t small = UINT64_MAX, large = 0;

	char hint[320];

	if (g->size != NULL && !g->size_empty) {
		size_hint(hint, sizeof(hint), g);
		return bad("--sizes", g->sizes, "the file size is given twice "
		    "(-s %s gives one): %s", g->size, hint);
	}
	for (unsigned i = 0; i < cfg->nsizes; i++) {
		if (cfg->sizes_mib[i] < small)
			small = cfg->sizes_mib[i];
		if (cfg->sizes_mib[i] > large)
			large = cfg->sizes_mib[i];
	}
	if (config_points(cfg) > POINTS_MAX)
		return bad("--sizes", g->sizes, "%u file sizes by %u chunk sizes "
		    "are more than %u points", cfg->nsizes, cfg->nchunks,
		    POINTS_MAX);
	if (cfg->ram_mib != 0 && small * cfg->concurrency < cfg->ram_mib * 2)
		return bad("--sizes", g->sizes, "file size %lluM should be double "
		    "RAM for good results, RAM is %lluM (-r says less, -r 0 "
		    "turns this off)", (unsigned long long)small,
		    (unsigned long long)cfg->ram_mib);
	for (unsigned i = 0; i < cfg->nchunks; i++)
		if (cfg->chunks[i] / (1024 * 1024) > small)
			return bad("--chunks", g->chunks, "a chunk size is larger "
			    "than the smallest file of --sizes (%lluM)",
			    (unsigned long long)small);
	cfg->file_size_mib = large;
	return EXIT_OK;
}

void config_at_point(const struct config *cfg, unsigned i,
    struct config *out)
{
	*out = *cfg;
	config_take_size(out, config_point_size(cfg, i));
}

void config_take_size(struct config *cfg, uint64_t size_mib)
{
	cfg->file_size_mib = size_mib;
	/* 1.03: the whole file; 2.00: -f N or 3, at most the file */
	cfg->per_char_mib = cfg->compat == COMPAT_103 ||
	    cfg->per_char_asked_mib > size_mib ? size_mib :
	    cfg->per_char_asked_mib;
}

/* "\nNAME=V,V..." or "\nno NAME" at buf + *k, while it fits */
static void describe_list(char *buf, size_t len, int *k, const char *name,
    const uint64_t *v, unsigned n)
{
	for (unsigned i = 0; i <= n && *k >= 0 && (size_t)*k < len; i++) {
		if (i == 0)
			*k += snprintf(buf + *k, len - (size_t)*k, n ? "\n%s=" :
			    "\nno %s", name);
		else
			*k += snprintf(buf + *k, len - (size_t)*k, "%s%llu",
			    i > 1 ? "," : "", (unsigned long long)v[i - 1]);
	}
}

bool config_describe(const struct config *cfg, char *buf, size_t len)
{
	static const char *const sync_name[] = {
		[SYNC_NONE] = "no -y", [SYNC_CREATE] = "-p", [SYNC_REMOVE] = "-p",
		[SYNC_SEMAPHORE] = "-y s", [SYNC_PROMPT] = "-y p"
	};
	const struct files_spec *f = &cfg->files;
	char fast[40] = "-f";
	size_t n;
	int k;

	/* --chunks first: its first size is also -s's chunk */
	k = snprintf(buf, len, "--compat=%s\n%s",
	    cfg->compat == COMPAT_200 ? "2.00" : "1.03",
	    cfg->nchunks ? "--chunks=" : "no --chunks");
	for (unsigned i = 0; k >= 0 && (size_t)k < len && i < cfg->nchunks; i++)
		k += snprintf(buf + k, len - (size_t)k, "%s%u", i ? "," : "",
		    cfg->chunks[i]);
	describe_list(buf, len, &k, "--sizes", cfg->sizes_mib, cfg->nsizes);
	/* the ranks' own latency records tell the same shares */
	describe_list(buf, len, &k, "--latency-over", cfg->latency_over_ns,
	    cfg->nlatency_over);
	if (k < 0 || (size_t)k >= len)
		return false;
	n = (size_t)k;
	if (cfg->per_char)
		snprintf(fast, sizeof(fast), "per-char %lluM",
		    (unsigned long long)cfg->per_char_mib);
	k = snprintf(buf + n, len - n, "\n-s %lluM:%u:%u:%u\n%s\n"
	    "-n %u:%ld:%ld:%u:%u\n--dirs=%u:%u:%u\n%s\n-x %u\n%s\n%s\n-c %u\n"
	    "--stall=%u\n%s\n--shift=%u\n",
	    (unsigned long long)cfg->file_size_mib, cfg->chunk, cfg->seeks,
	    cfg->seekers, fast, f->count_k,
	    f->max_size, f->min_size, f->dirs, f->chunk, cfg->dirs.count_k,
	    cfg->dirs.depth, cfg->dirs.fanout,
	    cfg->dirs.shared ? "--dirs-shared" : "no --dirs-shared",
	    cfg->runs ? cfg->runs : 1, cfg->sync_writes ? "-b" : "no -b",
	    cfg->direct_io ? "-D" : "no -D", cfg->concurrency, cfg->stall_s,
	    sync_name[cfg->sync], cfg->shift);
	return k >= 0 && (size_t)k < len - n;
}

void config_take_shift(struct config *cfg, bool one_host)
{
	if (!cfg->shift_given)
		cfg->shift = one_host ? 0 : 1;
}

uint64_t config_described_size(const char *text)
{
	const char *s = strstr(text, "\n-s ");
	unsigned long long mib;

	return s != NULL && sscanf(s + 4, "%lluM", &mib) == 1 ? mib : 0;
}

/*
 * Edits (insert, delete, change, swap two neighbours) from a[0..na) to
 * b, both option names: --quite is one from --quiet.
 */
static size_t edit_distance(const char *a, size_t na, const char *b)
{
	size_t nb = strlen(b), d[32][32], i, j;

	if (na >= 32 || nb >= 32)
		return SIZE_MAX;
	for (i = 0; i <= na; i++)
		d[i][0] = i;
	for (j = 0; j <= nb; j++)
		d[0][j] = j;
	for (i = 1; i <= na; i++)
		for (j = 1; j <= nb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[na][nb];
}

/*
 * For an unknown --word: the one long option nearest to it, within two
 * edits (--jsno: --json), or NULL when there is none or a tie.
 */
static const char *closest_option(const char *arg)
{
	const char *name = arg + 2, *found = NULL;
	size_t len = strcspn(name, "="), best = 3;
	bool tie = false;

	for (const struct option *o = long_options; o->name != NULL; o++) {
		size_t d = edit_distance(name, len, o->name);

		/* known, or short for one: its value or its prefix was wrong */
		if (strncmp(o->name, name, len) == 0)
			return NULL;

		if (d < best) {
			best = d;
			found = o->name;
			tie = false;
		} else if (d == best) {
			tie = true;
		}
	}
	return tie ? NULL : found;
}

static void default_machine(struct config *cfg)
{
	char host[HOST_NAME_MAX + 1];
	size_t i;

	if (gethostname(host, sizeof(host)) != 0)
		strcpy(host, "localhost");
	host[HOST_NAME_MAX] = '\0';
	/* a host name never has a comma, but keep the CSV safe regardless */
	for (i = 0; host[i] != '\0'; i++)
		if (host[i] == ',')
			host[i] = '_';
	snprintf(cfg->machine, sizeof(cfg->machine), "%s", host);
}

int config_parse(struct config *cfg, int argc, char **argv)
{
	static char prog[] = "clyde";
	struct given g = { 0 };
	bool machine_given = false;
	char *argv0;
	int c, rc;

	set_defaults(cfg);
	/* before getopt_long() reorders it; the strings stay as they are */
	cfg->argv = copy_argv(argc, argv);
	cfg->argc = cfg->argv != NULL ? argc : 0;
	opterr = 1;
	/* getopt_long's messages start with argv[0]: "clyde", as ours do */
	argv0 = argv[0];
	argv[0] = prog;
	rc = EXIT_OK;
	while (rc == EXIT_OK && (c = getopt_long(argc, argv,
	    "d:s:n:m:r:x:u:g:qf::bDc:p:y:z:Z:", long_options, NULL)) != -1) {
		if (c == OPT_HELP || c == OPT_VERSION) {
			if (c == OPT_HELP) {
				fputs(usage_text, stdout);
				fputs(options_text, stdout);
				rc = CONFIG_HELP;
			} else {
				printf("clyde %s\n", clyde_version);
				rc = CONFIG_VERSION;
			}
			break;
		}
		machine_given |= c == 'm';
		if (c == '?') {
			/* getopt_long has said what was wrong; the hint goes with "Try" */
			const char *near = optind > 1 &&
			    strncmp(argv[optind - 1], "--", 2) == 0 ?
			    closest_option(argv[optind - 1]) : NULL;

			if (near != NULL)
				fprintf(stderr, "Did you mean --%s? ", near);
			fputs("Try 'clyde --help'.\n", stderr);
			rc = EXIT_USAGE;
			break;
		}
		rc = parse_one(cfg, &g, c, optarg);
	}
	argv[0] = argv0;
	if (rc != EXIT_OK)
		return rc;
	/* getopt_long has moved the stray arguments to the end */
	if (optind < argc)
		return bad(argv[optind], NULL, "unexpected argument%s",
		    g.fast && g.fast_arg == NULL ?
		    " (a value for -f must be attached: -f20, --fast=20)" : "");
	if (!machine_given)
		default_machine(cfg);
	rc = check_config(cfg, &g);
	if (rc != EXIT_OK)
		return rc;
	cfg->drop_privileges = g.user != NULL || g.group != NULL;
	if (!cfg->seed_given)
		cfg->seed = (uint32_t)getpid() ^ (uint32_t)time(NULL);
	return EXIT_OK;
}
