/*
 * result.h: the one result record.
 *
 * A benchmark run fills it through result_from_run(); a CSV reader fills
 * the same fields from a line.  Formatters read only this record, so a
 * table printed by a run and a table printed from its CSV line match.
 */
#ifndef CLYDE_RESULT_H
#define CLYDE_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"

/* Order = bonnie++'s CSV column order. */
enum phase_id {
	PH_PUTC,
	PH_PUT_BLOCK,
	PH_REWRITE,
	PH_GETC,
	PH_GET_BLOCK,
	PH_SEEKS,
	PH_SEQ_CREATE,
	PH_SEQ_STAT,
	PH_SEQ_DEL,
	PH_RAN_CREATE,
	PH_RAN_STAT,
	PH_RAN_DEL,
	/* --dirs: clyde's own, after bonnie++'s twelve (no CSV columns) */
	PH_DIR_CREATE,
	PH_DIR_STAT,
	PH_DIR_DEL,
	PH_RAN_DIR_CREATE,
	PH_RAN_DIR_STAT,
	PH_RAN_DIR_DEL,
	PH_COUNT
};

#define PH_FIRST_FILE PH_SEQ_CREATE
#define PH_FIRST_DIR PH_DIR_CREATE
/* the phases of bonnie++'s table and CSV line */
#define PH_BONNIE_COUNT PH_FIRST_DIR

/* bonnie++'s MinTime: shorter phases print +++++ */
#define MIN_TIME_NS 500000000LL

/* 2 s and 10 s, then the thresholds of --latency-over */
#define LAT_OVER_MAX      (2 + LATENCY_OVER_MAX)
#define LAT_OVER_2S       0     /* over_ns[0]: 2 s, as tiotest counts */
#define LAT_OVER_10S      1     /* over_ns[1]: 10 s */

/* Latency figures of one phase, in nanoseconds. */
struct latency_summary {
	uint64_t count;
	uint64_t mean, p50, p90, p99, p999, max;
	/*
	 * over[i]: the share of the operations, 0 to 1, slower than
	 * over_ns[i]; the first two are 2 s and 10 s, the rest --latency-over's
	 */
	unsigned nover;
	uint64_t over_ns[LAT_OVER_MAX];
	double over[LAT_OVER_MAX];
};

/* Raw measurement of one phase; only a run has it. */
struct phase_figures {
	bool ran;
	uint64_t ops;           /* bytes, seeks or files: what the rate counts */
	uint64_t bytes;         /* data moved */
	int64_t elapsed_ns;
	int64_t cpu_ns;
	struct latency_summary lat;
	/*
	 * The readdir() passes the phase made over one directory, the most
	 * any directory (or copy, or rank) needed: 1 when the first pass
	 * found every name; 0 for a phase that reads no directory.
	 */
	unsigned readdir_passes;
	/*
	 * --stall: the longest time the phase went without progress, once
	 * that was --stall seconds or more (0: never), and the call it
	 * waited in, as the stall line named it.
	 */
	int64_t stall_ns;
	char stall_call[256];
	/*
	 * How long the phase's processes were stopped (SIGSTOP, Ctrl-Z)
	 * during its time, which its rate then counts: 0 never.
	 */
	int64_t stopped_ns;
	/*
	 * One rank's, with several: the work it had done when it learned
	 * that the first rank had finished the phase, and its time until
	 * then (the whole phase for the first); 0 unknown.
	 */
	uint64_t first_done_ops;
	int64_t first_done_ns;
};

enum cell_status {
	CELL_SKIPPED,           /* not run: empty cell */
	CELL_TOO_FAST,          /* under 0.5 s: +++++ / +++ */
	CELL_OK,
	CELL_UNKNOWN,           /* ran, rate not known: %CPU only (a 2.00a
	                           table's file rates are garbage) */
	CELL_ABSENT             /* a section the text table read did not
	                           show: whether it ran is not known */
};

/* One table cell group: rate, %CPU and latency of a phase. */
struct cell {
	enum cell_status status;
	double rate;            /* K/s for the I/O phases, /s for the rest */
	double rate_precision;  /* +- of a rate read from a rounded table
	                           cell (half its last unit); 0: exact */
	int cpu;                /* percent, truncated; -1 unknown */
	int64_t latency_us;     /* slowest operation; -1 unknown */
	bool short_phase;       /* measured, but under the time bonnie++
	                           trusts: CELL_TOO_FAST, or CELL_OK with
	                           --precise (the JSON still says so) */
	bool stopped;           /* measured while its processes were stopped
	                           for part of it: the rate is no measure
	                           (the table and CSV print it as measured;
	                           the JSON says "stopped") */
};

enum run_status {
	RUN_OK,
	RUN_FAILED,             /* an I/O error ended it; later cells empty */
	RUN_INTERRUPTED
};

/*
 * The block device under a run's target (clyde(1), The JSON record,
 * host): "" where a value is unknown.
 */
struct device_info {
	char name[64];                  /* "sda1", as under /sys/class/block */
	char disk[64];                  /* the whole disk: "sda"; or name */
	char model[128];
	char scheduler[32];             /* the one in use */
	int read_only;                  /* 0 or 1; -1 unknown */
};

/* The machine a run ran on: "" where a value is unknown. */
struct host_info {
	char name[256];                 /* uname(2) nodename */
	char kernel[128];               /* uname(2) release */
	char cpu[128];                  /* /proc/cpuinfo model name */
	uint64_t ram_mib;               /* 0 unknown */
	bool has_device;                /* false: none (tmpfs, NFS) */
	struct device_info device;
};

/* the bytes of the command line kept in a record, NULs included */
#define ARGV_MAX 4096

/* Where and how a run ran; only a run has it. */
struct run_info {
	enum compat compat;
	char started[32];               /* UTC, ISO 8601 */
	char target[1024];              /* -d as given */
	char fstype[64];                /* from /proc/self/mountinfo */
	char mount_source[256];
	char mount_options[512];
	bool sync_writes;
	bool direct_io;
	bool precise;                   /* short phases printed with figures */
	unsigned shift;                 /* --shift, or its default */
	uint64_t ram_mib;
	uint64_t per_char_mib;
	/* the command line as given, each argument NUL-terminated; argc 0:
	 * unknown, or longer than ARGV_MAX */
	char argv[ARGV_MAX];
	unsigned argc;
	bool has_host;                  /* false: unknown (an old record) */
	struct host_info host;
};

/* One rank's own figures, in a run spread over several (clyde-mpi). */
struct rank_figures {
	char host[64];
	unsigned read_from;             /* the rank whose data files it read */
	struct phase_figures phase[PH_COUNT];
};

struct result {
	/* what generation of CSV it came from ("1.0x", "1.98", ...) */
	char generation[16];
	bool from_table;                /* read from a text table, not CSV */
	bool from_json;                 /* read from clyde's JSON record */
	char format_version[16];        /* "" for 1.0x */
	char bonnie_version[16];        /* "" for a 1.0x CSV line; a
	                                   table's Version label */

	char name[NAME_MAX_LEN + 1];
	/*
	 * A post's diff of two runs: '-' the old run's side, '+' the new
	 * one's, 0 none; the set labels it (report/set.c)
	 */
	char diff_side;
	int concurrency;                /* 0 unknown */
	char seed[256];                 /* "" unknown; a file name with -Z */

	bool has_io;                    /* false with -s 0 */
	uint64_t file_size_mib;
	unsigned chunk;                 /* 0 unknown */
	unsigned seeks;                 /* 0 unknown */
	unsigned seekers;               /* 0 unknown */

	bool has_files;                 /* false with -n 0 */
	struct files_spec files;

	bool has_dirs;                  /* --dirs given (never in a CSV line) */
	struct dirs_spec dirs;

	struct cell cell[PH_COUNT];

	/* only a run has these */
	bool from_run;
	struct run_info run;
	struct phase_figures phase[PH_COUNT];
	/* --chunks: the sweep's chunk sizes and this record's place in it */
	unsigned sweep_chunks[CHUNKS_MAX];
	unsigned sweep_n;               /* 0: no --chunks */
	/* --sizes: the sweep's file sizes in MiB, in the order given */
	uint64_t sweep_sizes[SIZES_MAX];
	unsigned sweep_nsizes;          /* 0: no --sizes */
	unsigned sweep_point;           /* from 1, in config_points() order */
	unsigned nranks;                /* > 1 only in clyde-mpi, on rank 0 */
	struct rank_figures *ranks;     /* [nranks], or NULL */
	enum run_status status;
	/*
	 * RUN_INTERRUPTED: the phase that a stop cut (or that was to start
	 * when it came) plus 1; 0 none, the stop came between phases.  Its
	 * cell stays empty, as a skipped phase's; the JSON says "interrupted".
	 */
	unsigned cut_phase;
	char error[512];
};

/* Short names as in the CSV header: "putc", "put_block", ... */
extern const char *const phase_csv_name[PH_COUNT];
/* Titles for people: "Per-char write", "Block write", ... */
extern const char *const phase_title[PH_COUNT];

/*
 * Fill the identity part of res from the configuration (what the run
 * was asked to do).
 */
void result_init_run(struct result *res, const struct config *cfg);

/*
 * Make res the record of point i of a sweep (config_points()),
 * the first point that runs when first: later points have no per-char
 * and no small-file phases.
 */
void result_set_point(struct result *res, const struct config *cfg,
    unsigned i, bool first);

/*
 * The record was read from a text table that did not show this section
 * (files: the small-file tests, else the large-file ones): its phases
 * are CELL_ABSENT.  A formatter with a row per result gives it a row of
 * "n/a" where a -s 0 or -n 0 run has none.
 */
bool result_section_absent(const struct result *res, bool files);

/*
 * Derive the cells from the raw figures: rates, %CPU, the +++++ rule,
 * latency.  'precise' keeps rates of short phases instead of +++++.
 */
void result_finalize(struct result *res, bool precise);

/* One rank's rate of phase id (units of its cell), -1 when it did not run. */
double result_rank_rate(enum phase_id id, const struct phase_figures *pf);

/*
 * With several ranks: the slowest rank's elapsed time in phase id over
 * the fastest's, among those that ran it, and which they are; 0 when
 * fewer than two ran it.
 */
double result_skew(const struct result *res, enum phase_id id,
    unsigned *slowest, unsigned *fastest);

/*
 * With several ranks: the first-done rate of phase id (clyde(1), The
 * JSON record): the sum of every rank's rate until the first rank had
 * finished; -1 when not known for every rank.
 */
double result_first_done(const struct result *res, enum phase_id id);

/*
 * The version of the JSON record that out/json.c writes and
 * in/json.c reads (clyde(1), The JSON record, schema_version).
 */
#define JSON_SCHEMA_VERSION 1

#endif
