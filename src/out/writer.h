/*
 * out/writer.h: the output formats behind one interface (out/writers.c).
 *
 * A format is a struct writer, writer_NAME, that the file of its name
 * defines (out/text.c: writer_text), and an entry of the table in
 * out/writers.c.  clyde report makes its --NAME options and their lines
 * of --help from that table; a run writes its table, its CSV lines and
 * its --json records through the writers it finds there by name.
 */
#ifndef CLYDE_WRITER_H
#define CLYDE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "config.h"

struct report_set;
struct result;

/* The most writers the table may hold (clyde report's options). */
#define WRITERS_MAX 16

/* What clyde report was asked for, beside the format. */
struct writer_opts {
	enum compat compat;             /* --compat, or 1.03 */
	bool compat_given;              /* every CSV line in it, then */
	const char *base;               /* --compare=NAME, or NULL */
	bool latency;                   /* --latency */
	bool summary;                   /* --summary: a row per set and
	                                   phase (out/set_summary.h) */
	char *const *inputs;            /* the files read, as given */
	const char *const *labels;      /* [ninputs]: LABEL of LABEL=FILE,
	                                   or NULL */
	size_t ninputs;                 /* 0: the standard input */
	time_t made;                    /* when the report is made */
};

/* What a run's writer knows of the run, whose records come as it ends. */
struct writer_run {
	enum compat compat;             /* the run's --compat */
	bool several;                   /* records of -x or a sweep: an
	                                   array, a CSV header */
	unsigned records;               /* written by the calls before;
	                                   the caller counts them */
};

struct writer {
	const char *name;               /* as the option says it: --text */
	const char *help;               /* its line of clyde report --help */
	/* clyde report: the whole set */
	void (*set)(FILE *out, const struct report_set *set,
	    const struct writer_opts *o);
	/*
	 * A run: the records that one run made, a record per point of a
	 * sweep.  Returns 0, or -1 (errno) when they could not be written.
	 * NULL: not an output of a run.
	 */
	int (*records)(FILE *out, const struct writer_run *run,
	    const struct result *res, unsigned nres);
	/* After the last run: what ends its records; NULL: nothing. */
	void (*end)(FILE *out, const struct writer_run *run);
};

/* The writer of that name ("text"), or NULL. */
const struct writer *writer_find(const char *name);
/* The writer at place i of the table (--help's order); NULL past the last. */
const struct writer *writer_at(size_t i);

#endif
