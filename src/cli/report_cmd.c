/*
 * cli/report_cmd.c: clyde report.
 *
 * input (files, stdin) -> a reader (in/readers.c) -> struct result ->
 * report_set (--average, chunk sweeps, --compare) -> a writer
 * (out/writers.c).  Unreadable result lines are
 * named on stderr as FILE:LINE: why, and the exit status is 1 after
 * everything readable has been printed.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "in/reader.h"
#include "out/writer.h"
#include "cli/report_cmd.h"
#include "report/set.h"
#include "lib/fdio.h"
#include "lib/text.h"

struct report_opts {
	const struct writer *writer;    /* --text, --csv, ... */
	enum compat compat;
	bool compat_given;
	bool average;
	bool best;
	bool latency;
	bool summary;
	const char *compare;
};

/*
 * The usage, around the writers' options and their lines (out/writers.c):
 * "usage: clyde report [--text | ... | --markdown]" first.
 */
static const char usage_options[] =
"                    [--compat=1.03|2.00] [--average] [--compare=NAME]\n"
"                    [--best] [--latency] [--summary]\n"
"                    [[LABEL=]FILE...]\n"
"       clyde report --help\n"
"\n"
"Read bonnie++ CSV lines and text tables of every version (1.00 to 2.00a,\n"
"and clyde's), also pasted in mail or web pages, and clyde's --json\n"
"records, from the FILEs or standard input (-), and print them:\n";
static const char usage_rest[] =
"  --compat=1.03|2.00  the layout of bonnie++ 1.03e or 2.00a (default:\n"
"                    the input's; --csv: 1.03)\n"
"  --average         add the mean, min, max and coefficient of variation\n"
"                    of the results with the same name and options\n"
"  --compare=NAME    show every rate as a percentage of the result NAME;\n"
"                    with --average, each mean's change, its 95 % interval\n"
"                    and whether it is beyond noise (~: it is not)\n"
"  --best            with --average, each set's median in % of the best\n"
"                    set's, per phase (* the best; ~ not significantly\n"
"                    different from it)\n"
"  --latency         after the text or Markdown, per result of a JSON\n"
"                    record its latency table: mean, maximum, and the\n"
"                    share of operations slower than 2 s, 10 s and the\n"
"                    run's own thresholds; of a 1.98 CSV line or 2.00a\n"
"                    table, the maximum it carries\n"
"  --summary         with --average, a row per set and phase alone (mean,\n"
"                    cv, runs; with --compare the verdict, its interval\n"
"                    and the runs for 5 %), for --text, --markdown, --html\n"
"  --help            print this and exit\n"
"Results that differ only in their chunk size are a sweep: a table of its\n"
"own by chunk size, line charts in --html, --compare per chunk size.\n"
"Results that differ in their file size too are one as well, shown as\n"
"iozone shows its sweeps: per phase a table of file size by chunk size,\n"
"in --html a line per chunk size over the file size.\n"
"LABEL=FILE makes all the results of FILE one set named LABEL, whatever\n"
"their machine names: clyde report --average --compare=old old=a new=b\n";

/* OPT_WRITER + i: --NAME of the writer at place i */
enum { OPT_COMPAT = 256, OPT_AVERAGE, OPT_COMPARE, OPT_BEST, OPT_LATENCY,
    OPT_SUMMARY, OPT_HELP, OPT_WRITER };

/* The options after the writers' */
static const struct option other_options[] = {
	{ "compat", required_argument, NULL, OPT_COMPAT },
	{ "average", no_argument, NULL, OPT_AVERAGE },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "best", no_argument, NULL, OPT_BEST },
	{ "latency", no_argument, NULL, OPT_LATENCY },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "help", no_argument, NULL, OPT_HELP },
};

#define NOTHER (sizeof(other_options) / sizeof(other_options[0]))

/* --NAME for each writer, in the table's order, then the others */
static void make_options(struct option *opts)
{
	const struct writer *w;
	size_t n = 0, i;

	for (i = 0; (w = writer_at(i)) != NULL; i++)
		opts[n++] = (struct option){ w->name, no_argument, NULL,
		    OPT_WRITER + (int)i };
	for (i = 0; i < NOTHER; i++)
		opts[n++] = other_options[i];
	opts[n] = (struct option){ NULL, 0, NULL, 0 };
}

static void usage(FILE *out)
{
	const struct writer *w;
	size_t i;

	fputs("usage: clyde report [", out);
	for (i = 0; (w = writer_at(i)) != NULL; i++)
		fprintf(out, "%s--%s", i > 0 ? " | " : "", w->name);
	fputs("]\n", out);
	fputs(usage_options, out);
	for (i = 0; (w = writer_at(i)) != NULL; i++)
		fprintf(out, "  --%-16s%s\n", w->name, w->help);
	fputs(usage_rest, out);
}

/*
 * One message on stderr, a line.  The file names, labels and names in
 * it come from the command line or the input: their control characters
 * are '?' (mask_controls()), so that a newline cannot forge a line of
 * its own nor an escape reach the terminal.
 */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	char line[PATH_MAX + READER_WHY_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	mask_controls(line);
	fprintf(stderr, "%s\n", line);
}

static int usage_error(const char *what, const char *why)
{
	say("clyde report: %s: %s", what, why);
	fputs("Try 'clyde report --help'.\n", stderr);
	return EXIT_USAGE;
}

/*
 * --summary is a table of sets in its own place of every option: what it
 * leaves out cannot be asked for beside it.  Returns -1 to go on, or an
 * exit status.
 */
static int summary_usage(const struct report_opts *o)
{
	if (!o->summary)
		return -1;
	if (!o->average)
		return usage_error("--summary", "needs --average (sets of runs)");
	if (strcmp(o->writer->name, "csv") == 0)
		return usage_error("--summary",
		    "not with --csv (--text, --markdown, --html or --json)");
	if (o->best)
		return usage_error("--summary", "not with --best (its own "
		    "table: one or the other)");
	if (o->latency)
		return usage_error("--summary", "not with --latency (the "
		    "summary has each set's mean latency)");
	return -1;
}

/* Returns -1 to go on, or an exit status. */
static int parse_options(struct report_opts *o, int argc, char **argv)
{
	struct option long_options[WRITERS_MAX + NOTHER + 1];
	int c;

	make_options(long_options);
	memset(o, 0, sizeof(*o));
	o->writer = writer_find("text");
	o->compat = COMPAT_103;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", long_options, NULL)) != -1) {
		if (c >= OPT_WRITER) {
			o->writer = writer_at((size_t)(c - OPT_WRITER));
			continue;
		}
		switch (c) {
		case OPT_COMPAT:
			o->compat_given = true;
			if (strcmp(optarg, "1.03") == 0)
				o->compat = COMPAT_103;
			else if (strcmp(optarg, "2.00") == 0)
				o->compat = COMPAT_200;
			else
				return usage_error(argv[optind - 1],
				    "must be 1.03 or 2.00");
			break;
		case OPT_AVERAGE:
			o->average = true;
			break;
		case OPT_COMPARE:
			if (optarg[0] == '\0')
				return usage_error("--compare", "needs a name");
			o->compare = optarg;
			break;
		case OPT_LATENCY:
			o->latency = true;
			break;
		case OPT_BEST:
			o->best = true;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case OPT_HELP:
			usage(stdout);
			return EXIT_OK;
		case ':':
			return usage_error(argv[optind - 1], "needs a value");
		default:
			return usage_error(argv[optind - 1], "unknown option");
		}
	}
	/* the best of sets: without them there is nothing to rank */
	if (o->best && !o->average)
		return usage_error("--best", "needs --average (sets of runs)");
	return summary_usage(o);
}

/* One input being read into the set */
struct input {
	struct report_set *set;
	const char *name;               /* as messages name it; "-": stdin */
	const char *label;              /* of LABEL=FILE, or NULL */
	bool *full;                     /* the set takes no more: said */
	bool ok;                        /* every result read was kept */
};

/*
 * A result read, into the set (in/reader.h).  Once the set is full the
 * results of lines are passed over, as that was said; a JSON record not
 * kept ends its reader, which says why.
 */
static int take(void *ctx, struct result *res, unsigned long line)
{
	struct input *in = ctx;

	if (line > 0 && *in->full)
		return -1;
	if (report_set_take_labelled(in->set, res, in->label) == 0)
		return 0;
	if (line == 0)
		return -1;
	say("clyde report: %s:%lu: %s", in->name, line, errno == EFBIG ?
	    "more than 1000000 results; the rest is not read" :
	    strerror(errno));
	*in->full = true;
	in->ok = false;
	return -1;
}

/* What a reader says of a line of the input, or of all of it */
static void say_of(void *ctx, unsigned long line, const char *why)
{
	const struct input *in = ctx;

	if (line > 0)
		say("%s:%lu: %s", in->name, line, why);
	else
		say("%s: %s", in->name, why);
}

/*
 * Read every result of one input into the set, under label when not NULL;
 * false when any was bad.
 */
static bool read_input(struct report_set *set, FILE *f, const char *name,
    const char *label, bool *full)
{
	struct input in = { set, name, label, full, true };
	const struct reader_sink sink = { &in, take, say_of };

	switch (reader_read(f, &sink)) {
	case READER_OK:
		return in.ok;
	case READER_BAD:
		break;
	case READER_NONE:
		/* a file of something else says so (clyde(1), EXIT STATUS) */
		say("%s: no bonnie++ results found", strcmp(name, "-") == 0 ?
		    "the standard input" : name);
		break;
	case READER_ERROR:
		say("clyde report: %s: %s", name, strerror(errno));
		break;
	}
	return false;
}

/*
 * LABEL=PATH: the results of PATH are one set named LABEL.  A file whose
 * own name has '=' is still read as a file when it is there.  The label
 * is cut at the '=' in place; returns the path, and *label.
 */
static char *split_label(char *arg, char **label)
{
	char *eq = strchr(arg, '=');

	*label = NULL;
	if (eq == NULL || eq == arg || memchr(arg, '/', (size_t)(eq - arg)) ||
	    eq - arg > NAME_MAX_LEN || access(arg, F_OK) == 0)
		return arg;
	*eq = '\0';
	*label = arg;
	return eq + 1;
}

/* The file arguments split into paths and labels (NULL: none), in place */
static void split_labels(int nfiles, char **files, const char **labels)
{
	for (int i = 0; i < nfiles; i++) {
		char *label;

		files[i] = split_label(files[i], &label);
		labels[i] = label;
	}
}

static bool read_inputs(struct report_set *set, int nfiles, char **paths,
    const char *const *labels)
{
	bool ok = true, full = false;
	int i;

	if (nfiles == 0)
		return read_input(set, stdin, "-", NULL, &full);
	for (i = 0; i < nfiles; i++) {
		const char *path = paths[i];
		FILE *in;

		if (strcmp(path, "-") == 0) {
			ok = read_input(set, stdin, "-", labels[i], &full) && ok;
			continue;
		}
		in = fopen(path, "r");
		if (in == NULL) {
			say("clyde report: %s: %s", path, strerror(errno));
			ok = false;
			continue;
		}
		ok = read_input(set, in, path, labels[i], &full) && ok;
		fclose(in);
	}
	return ok;
}

static int close_stdout(void)
{
	if (close_checked(stdout) != 0) {
		say("clyde report: writing the report: %s",
		    errno ? strerror(errno) : "write error");
		return EXIT_IO_ERROR;
	}
	return EXIT_OK;
}

/*
 * When the page is made: now, or SOURCE_DATE_EPOCH where a build sets
 * it, so that the same input can give the same page.
 */
static time_t page_time(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long v;

	if (s != NULL && *s != '\0') {
		errno = 0;
		v = strtoll(s, &end, 10);
		if (errno == 0 && *end == '\0' && v >= 0)
			return (time_t)v;
	}
	return time(NULL);
}

/*
 * Without --compat, the layout follows the input: 1.0x results print in
 * 1.03e's, 1.9x and later ones (latencies, the seek count) in 2.00a's;
 * a mix takes the layout of most of them, 2.00a's on a tie, and says so.
 */
static enum compat layout_of_input(const struct report_set *set)
{
	size_t old, later;
	enum compat c;

	report_set_layouts(set, &old, &later);
	if (old == 0 && later == 0)
		return COMPAT_103;
	c = later >= old ? COMPAT_200 : COMPAT_103;
	if (old > 0 && later > 0)
		say("clyde report: %zu results of 1.0x and %zu of 1.9x or "
		    "later: printed in the %s layout (--compat=%s for %s)",
		    old, later, c == COMPAT_200 ? "2.00a" : "1.03e",
		    c == COMPAT_200 ? "1.03" : "2.00",
		    c == COMPAT_200 ? "1.03e's" : "2.00a's");
	return c;
}

int report_main(int argc, char **argv, bool stdout_closed)
{
	struct writer_opts wo;
	struct report_opts o;
	struct report_set set;
	const char **labels;
	int rc = parse_options(&o, argc, argv);
	bool ok;

	if (rc >= 0 && rc != EXIT_OK)
		return rc;
	/* the report would go to /dev/null without a word */
	if (stdout_closed) {
		fputs("clyde report: standard output is closed: nowhere to "
		    "write the report\n", stderr);
		return EXIT_IO_ERROR;
	}
	if (rc >= 0)
		return close_stdout();
	labels = calloc((size_t)(argc - optind) + 1, sizeof(*labels));
	if (labels == NULL) {
		say("clyde report: %s", strerror(errno));
		return EXIT_IO_ERROR;
	}
	split_labels(argc - optind, argv + optind, labels);
	report_set_init(&set);
	ok = read_inputs(&set, argc - optind, argv + optind, labels);
	if (o.average && report_set_average(&set) != 0) {
		say("clyde report: --average: %s", strerror(errno));
		ok = false;
	}
	if (report_set_sweeps(&set) != 0) {
		say("clyde report: chunk sweeps: %s", strerror(errno));
		ok = false;
	}
	if (o.compare != NULL) {
		rc = report_set_compare(&set, o.compare);
		if (rc != 0) {
			say("clyde report: --compare=%s: %s",
			    o.compare, rc == -1 ? "no result has that name" :
			    strerror(errno));
			ok = false;
		}
		if (rc == -1)
			o.compare = NULL;
	}
	if (o.best && report_set_best(&set) != 0) {
		say("clyde report: --best: %s", strerror(errno));
		ok = false;
	}
	/* the tables' layout; --csv keeps its generation, JSON has none */
	if (!o.compat_given && strcmp(o.writer->name, "csv") != 0 &&
	    strcmp(o.writer->name, "json") != 0)
		o.compat = layout_of_input(&set);
	wo.compat = o.compat;
	wo.compat_given = o.compat_given;
	wo.base = o.compare;
	wo.latency = o.latency;
	wo.summary = o.summary;
	wo.inputs = argv + optind;
	wo.labels = labels;
	wo.ninputs = (size_t)(argc - optind);
	wo.made = page_time();
	o.writer->set(stdout, &set, &wo);
	report_set_free(&set);
	free(labels);
	rc = close_stdout();
	return rc != EXIT_OK ? rc : ok ? EXIT_OK : EXIT_USAGE;
}
