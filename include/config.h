/*
 * config.h: the command line turned into one read-only configuration.
 *
 * config_parse() is the only writer, but for config_take_size() and
 * config_take_shift() in clyde-mpi's agreement of the ranks, before the
 * run (cli/main.c).
 * Everything after it takes a const struct config *.
 */
#ifndef CLYDE_CONFIG_H
#define CLYDE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * clyde's version, as --version prints it and the records carry it: made
 * by make from `git describe` (build/version.c; Makefile, VERSION_CMD)
 */
extern const char clyde_version[];

#define NAME_MAX_LEN      255   /* longest -m name */
#define DEFAULT_CHUNK     8192  /* bonnie++ DefaultChunkSize */
#define MIN_CHUNK         256
#define MAX_CHUNK         (1024 * 1024)
/* --chunks: past -s's 1 MiB, as far as the record sizes iozone -a tries */
#define SWEEP_MAX_CHUNK   (16 * 1024 * 1024)
#define CHUNKS_MAX        32    /* points of one --chunks sweep */
#define SIZES_MAX         32    /* file sizes of one --sizes sweep */
#define POINTS_MAX        64    /* points of a sweep: --sizes by --chunks */
#define LATENCY_OVER_MAX  8     /* thresholds of --latency-over */
#define FILE_UNIT         1024  /* -n counts in units of 1024 files */
#define IO_FILE_MAX_MIB   1024  /* 1.03 splits the test data in 1 GiB files */
#define IO_FILES_MAX      1000  /* name, name.001 ... name.999 */
#define SEEKS_103         8000  /* bonnie++ 1.03e Seeks */
#define SEEKERS_103       3     /* bonnie++ 1.03e SeekProcCount */
#define SEEKS_200         8192  /* bonnie++ 2.00a Seeks */
#define SEEKERS_200       5     /* bonnie++ 2.00a SeekProcCount */
#define SEEKERS_MAX       256   /* -s ...:seekers */
#define PER_CHAR_MIB_200  3     /* bonnie++ 2.00a DefaultByteIO */

enum compat {
	COMPAT_103,             /* bonnie++ 1.03e, the default */
	COMPAT_200              /* bonnie++ 2.00a, CSV format 1.98 */
};

/* -n max of -1 and -2 (bonnie++'s encoding, kept in the record) */
#define FILES_HARDLINK  (-1L)
#define FILES_SYMLINK   (-2L)

/* Exit codes, documented in clyde(1), EXIT STATUS, and the README. */
enum exit_code {
	EXIT_OK = 0,
	EXIT_USAGE = 1,
	EXIT_CANNOT_START = 2,
	EXIT_IO_ERROR = 3,
	EXIT_INTERRUPTED = 5
};

enum progress_mode {
	PROGRESS_AUTO,          /* redrawn line on a terminal, else bonnie++'s */
	PROGRESS_ALWAYS,        /* the redrawn line even off a terminal */
	PROGRESS_NEVER          /* bonnie++'s lines only */
};

/* -p / -y: bonnie++'s SysV-semaphore synchronisation of several runs */
enum sync_mode {
	SYNC_NONE,
	SYNC_CREATE,            /* -p N: make the semaphore for N processes, exit */
	SYNC_REMOVE,            /* -p -1: remove it, exit */
	SYNC_SEMAPHORE,         /* -y s: wait on it before each phase */
	SYNC_PROMPT             /* -y p: wait for Enter before each phase */
};

#define CONCURRENCY_MAX 200
/* --stall and --cleanup-wait: defaults and the largest value, seconds */
#define STALL_S_DEFAULT 30
#define CLEANUP_WAIT_S_DEFAULT 60
#define WAIT_S_MAX 86400
/* --shift: the largest, in ranks (taken modulo their number) */
#define SHIFT_MAX 1000000

struct files_spec {
	unsigned count_k;       /* files / 1024; 0 skips the small-file phases */
	long max_size;          /* bytes; FILES_HARDLINK, FILES_SYMLINK */
	long min_size;          /* bytes */
	unsigned dirs;          /* 1: no subdirectories */
	unsigned chunk;         /* write/read size for file data */
};

/*
 * --dirs=N:DEPTH:FANOUT (clyde(1), Directories): N x 1024 directories
 * in a tree DEPTH levels deep, FANOUT children to each directory above
 * the last level, which holds the rest.
 */
#define DIRS_DEPTH_DEFAULT  1       /* flat: every directory in one */
#define DIRS_FANOUT_DEFAULT 10
#define DIRS_DEPTH_MAX      64
#define DIRS_FANOUT_MAX     65536
struct dirs_spec {
	unsigned count_k;       /* directories / 1024; 0: no directory phases */
	unsigned depth;         /* levels, >= 1 */
	unsigned fanout;        /* children of a directory above the last level */
	/* --dirs-shared (clyde-mpi): the ranks' directories in one tree,
	 * whose levels above the last are rank 0's */
	bool shared;
};

struct config {
	enum compat compat;
	const char *dir;                /* target directory */
	char machine[NAME_MAX_LEN + 1]; /* -m, or the host name */

	/* the file I/O phases */
	uint64_t file_size_mib;         /* 0 skips them (-s 0) */
	bool size_given;                /* -s given; else from -r or the RAM */
	unsigned chunk;                 /* bytes, a power of two; --chunks: the first */
	/* --chunks: the sweep's chunk sizes in the order given; 0: no sweep */
	unsigned chunks[CHUNKS_MAX];
	unsigned nchunks;
	/* --sizes: the sweep's file sizes in the order given; 0: no sweep
	 * (file_size_mib is then the largest) */
	uint64_t sizes_mib[SIZES_MAX];
	unsigned nsizes;
	unsigned seeks;                 /* seek positions */
	unsigned seekers;               /* seeker processes */
	bool per_char;                  /* false with -f */
	uint64_t per_char_mib;          /* 1.03: the file size; 2.00: -f N or 3, at most that */
	uint64_t per_char_asked_mib;    /* 2.00: -f N or 3, before the size caps it */

	struct files_spec files;
	struct dirs_spec dirs;          /* --dirs */

	unsigned runs;                  /* -x; 0 when not given (table printed) */
	uint64_t ram_mib;               /* 0 turns the RAM rules off */

	bool drop_privileges;           /* -u or -g given */
	uid_t uid;
	gid_t gid;
	const char *user_name;          /* for the message, may be NULL */

	bool quiet;                     /* -q */
	bool sync_writes;               /* -b */
	bool direct_io;                 /* -D, 2.00 */
	unsigned concurrency;           /* -c, 2.00; 1 otherwise */
	bool quick;                     /* --quick preset */
	bool precise;                   /* --precise: no +++++ */
	enum progress_mode progress;
	const char *json_path;          /* --json; "-" is stdout */
	unsigned stall_s;               /* --stall: no progress for this long is said; 0 off */
	unsigned cleanup_wait_s;        /* --cleanup-wait: retry a cleanup the filesystem refused */
	/* --latency-over: thresholds in ns, told beside 2 s and 10 s */
	uint64_t latency_over_ns[LATENCY_OVER_MAX];
	unsigned nlatency_over;

	enum sync_mode sync;
	unsigned sync_procs;            /* -p N */

	/* --shift: rank r reads back what rank (r + shift) mod size wrote;
	 * not given: 1 across hosts, 0 on one (config_take_shift()) */
	unsigned shift;
	bool shift_given;

	bool seed_given;
	uint32_t seed;                  /* -z, or pid ^ time */
	const char *seed_file;          /* -Z */

	/* the command line as given, argv[0] first, for the record; NULL
	 * when it could not be kept */
	int argc;
	char *const *argv;
};

/*
 * The points of a run: one per --sizes size by --chunks size, one
 * without them.  The order is fixed: file size by file size as --sizes
 * gives them, and within one every chunk size as --chunks gives them.
 */
static inline unsigned config_points(const struct config *cfg)
{
	return (cfg->nsizes > 0 ? cfg->nsizes : 1) *
	    (cfg->nchunks > 0 ? cfg->nchunks : 1);
}

/* The I/O chunk of point i (0-based, in the order above). */
static inline unsigned config_point_chunk(const struct config *cfg, unsigned i)
{
	return cfg->nchunks > 0 ? cfg->chunks[i % cfg->nchunks] : cfg->chunk;
}

/* The file size of point i in MiB. */
static inline uint64_t config_point_size(const struct config *cfg, unsigned i)
{
	return cfg->nsizes > 0 ?
	    cfg->sizes_mib[i / (cfg->nchunks > 0 ? cfg->nchunks : 1)] :
	    cfg->file_size_mib;
}

/* A sweep of several points: --chunks, --sizes or both. */
static inline bool config_sweeps(const struct config *cfg)
{
	return cfg->nchunks > 0 || cfg->nsizes > 0;
}

/*
 * The configuration that the phases of point i see: cfg with that
 * point's file size (and per-char size, as config_take_size() makes it).
 */
void config_at_point(const struct config *cfg, unsigned i,
    struct config *out);

/*
 * Parse argv into cfg.  Returns EXIT_OK, or an exit code after printing
 * one line naming the option (and 'Try clyde --help').  --help and
 * --version print and return CONFIG_HELP or CONFIG_VERSION (below 0):
 * the caller exits 0 once they are written.
 */
#define CONFIG_HELP (-1)
#define CONFIG_VERSION (-2)
int config_parse(struct config *cfg, int argc, char **argv);

/*
 * The options that every rank of clyde-mpi must share (what is measured,
 * how often, how the ranks meet), one line each, as the options are
 * written (-s SIZE:CHUNK:SEEKS:SEEKERS, --compat=2.00, no -b); the others (-d, -m,
 * -u, -r, -z, -q, --json, ...) may differ from host to host.  Returns
 * false when buf was too short.
 */
bool config_describe(const struct config *cfg, char *buf, size_t len);

/* The file size that config_describe() wrote into text, 0 when none. */
uint64_t config_described_size(const char *text);

/*
 * A size not given (-s) becomes size_mib, and the per-char size with it
 * (clyde-mpi: every rank takes rank 0's).
 */
void config_take_size(struct config *cfg, uint64_t size_mib);

/*
 * --shift not given becomes 1 when the ranks run on more than one host,
 * else 0 (clyde-mpi, before the ranks agree; the same on every rank).
 */
void config_take_shift(struct config *cfg, bool one_host);

#endif
