/*
 * clyde: a filesystem benchmark compatible with bonnie++.
 *
 * main() wires the flow: argv -> config -> phases -> result -> formatters,
 * and owns the exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "config.h"
#include "dist/dist.h"
#include "run/runner.h"
#include "report/set.h"
#include "cli/report_cmd.h"
#include "out/summary.h"
#include "out/too_fast.h"
#include "out/output_file.h"
#include "out/writer.h"
#include "result.h"
#include "cli/describe.h"
#include "cli/setup.h"
#include "run/stall.h"
#include "core/stop.h"
#include "run/sync.h"
#include "lib/fdio.h"
#include "lib/sys.h"
#include "lib/units.h"

/* clyde report has nowhere else to write (open_closed_std_fds()) */
static bool stdout_closed;
/* standard output open for reading only: nothing can be written to it */
static bool stdout_read_only;

/* A full disk under a redirect is an error, not a silent success. */
static int close_stdout(void)
{
	if (close_checked(stdout) != 0) {
		/* a stop signal cut the write short (a reader that waits) */
		if (stop_signal() != 0) {
			fprintf(stderr, "clyde: interrupted%s while writing the "
			    "results: what was written of them is incomplete\n",
			    stop_signal_name());
			return EXIT_INTERRUPTED;
		}
		fprintf(stderr, "clyde: writing the results: %s\n",
		    errno ? strerror(errno) : "write error");
		return EXIT_IO_ERROR;
	}
	return EXIT_OK;
}

/*
 * Where the results of the runs go.  With -q the table goes to stderr,
 * so stdout collects CSV lines; with --json=- stdout has the JSON alone.
 * Rank 0 speaks for all ranks: the others have no outputs.
 */
struct outputs {
	bool speaks;
	/* the writers of the table, the CSV lines and the JSON, and what
	   each knows of the run (the records it wrote: CSV, JSON) */
	const struct writer *table_writer, *csv_writer, *json_writer;
	struct writer_run table_run, csv_run, json_run;
	FILE *table, *csv;
	bool json_stdout;               /* --json=- */
	struct output_file *json;       /* --json=FILE; NULL without */
	bool json_failed;               /* a record was lost: exit 3 */
	/* every rank's own figures, rank 0: dist_size() per point */
	struct rank_figures *ranks;
};

/*
 * --sizes: the file sizes that fit in the page cache (with the copies of
 * -c, within the RAM -r gives, else the machine's), said before the run.
 */
static void say_cached_sizes(const struct config *cfg)
{
	uint64_t ram = cfg->ram_mib != 0 ? cfg->ram_mib : phys_ram_mib();
	char list[SIZES_MAX * 12] = "", size[24];
	size_t len = 0;

	for (unsigned i = 0; i < cfg->nsizes && ram != 0; i++) {
		if (cfg->sizes_mib[i] * cfg->concurrency > ram)
			continue;
		fmt_file_size(size, sizeof(size), cfg->sizes_mib[i]);
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
		    len ? ", " : "", size);
	}
	if (len > 0)
		fprintf(stderr, "clyde: --sizes: the page cache (RAM %lluM) holds "
		    "the file sizes %s: their figures measure memory, not the "
		    "disk\n", (unsigned long long)ram, list);
}

/*
 * Open what the results go to, before the first run; json is the
 * --json file, already open (start()), or NULL.  Exit code.
 */
/* Whether a run makes more than one record (-x, a sweep): an array */
static bool several(const struct config *cfg)
{
	return cfg->runs > 1 || config_points(cfg) > 1;
}

static int open_outputs(const struct config *cfg, struct outputs *out,
    struct output_file *json)
{
	bool json_on_stdout = cfg->json_path && strcmp(cfg->json_path, "-") == 0;
	int rc = EXIT_OK;

	memset(out, 0, sizeof(*out));
	out->speaks = dist_rank() == 0;
	out->json_stdout = out->speaks && json_on_stdout;
	out->json = json;
	out->table_writer = writer_find("text");
	out->csv_writer = writer_find("csv");
	out->json_writer = writer_find("json");
	out->table_run.compat = cfg->compat;
	out->table_run.several = several(cfg);
	out->csv_run = out->json_run = out->table_run;
	out->table = cfg->quiet || json_on_stdout ? stderr : stdout;
	out->csv = json_on_stdout ? stderr : stdout;
	if (out->speaks && dist_size() > 1 &&
	    (out->ranks = calloc((size_t)dist_size() * config_points(cfg),
	    sizeof(*out->ranks))) == NULL)
		rc = EXIT_CANNOT_START;
	if (!dist_all_ok(rc == EXIT_OK) && rc == EXIT_OK)
		rc = EXIT_CANNOT_START;
	if (rc == EXIT_OK && out->speaks) {
		if (cfg->quick && !cfg->quiet)
			fprintf(stderr, "clyde: --quick: a %llu MiB file and %u "
			    "files fit in the page cache: these figures measure "
			    "memory, not the disk\n",
			    (unsigned long long)cfg->file_size_mib,
			    cfg->files.count_k * FILE_UNIT);
		if (!cfg->quiet)
			say_cached_sizes(cfg);
	}
	return rc;
}

/*
 * JSON text, made by the JSON writer into memory, to stdout or the --json
 * file: the records of a run, or without them (res NULL) their end.
 */
static void put_json(const struct config *cfg, struct outputs *out,
    const struct result *res, unsigned nres)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int err;

	if (out->json == NULL && !out->json_stdout)
		return;
	mem = open_memstream(&text, &len);
	if (mem != NULL && res != NULL)
		out->json_writer->records(mem, &out->json_run, res, nres);
	else if (mem != NULL)
		out->json_writer->end(mem, &out->json_run);
	if (mem == NULL || fclose(mem) != 0) {
		err = errno;
		if (!out->json_failed)
			fprintf(stderr, "clyde: --json %s: %s; the file is not "
			    "made\n", cfg->json_path, strerror(err));
		out->json_failed = true;
		if (out->json != NULL)
			out->json->failed = true;
	} else if (out->json != NULL) {
		output_file_write(out->json, text, len);
	} else if (fwrite(text, 1, len, stdout) != len) {
		out->json_failed = true;
	}
	free(text);
}

/* A rank is said skewed when it took this much longer than the fastest. */
#define SKEW_SAID 1.5

/*
 * clyde-mpi, after the table: each phase whose slowest rank took more
 * than SKEW_SAID times as long as the fastest, naming both, on stderr
 * (stdout is bonnie++'s).  Not a phase of +++++: too short a time for
 * its ranks' to mean much (the JSON has its skew all the same).
 */
static void say_skew(const struct result *res)
{
	for (int i = 0; i < PH_COUNT; i++) {
		unsigned slow = 0, fast = 0;
		double skew = result_skew(res, (enum phase_id)i, &slow, &fast);

		if (skew <= SKEW_SAID || res->cell[i].status == CELL_TOO_FAST)
			continue;
		fprintf(stderr, "clyde: %s: skew %.2f: rank %u (%s) took %.3f s, "
		    "rank %u (%s) %.3f s\n", phase_title[i], skew, slow,
		    res->ranks[slow].host,
		    (double)res->ranks[slow].phase[i].elapsed_ns / 1e9, fast,
		    res->ranks[fast].host,
		    (double)res->ranks[fast].phase[i].elapsed_ns / 1e9);
	}
}

/*
 * The results of one run that ended with rc, one record per point.
 * Returns rc, or EXIT_IO_ERROR when nobody can read them any more.
 */
static int write_outputs(const struct config *cfg, struct outputs *out,
    const struct result *res, unsigned nres, int rc)
{
	unsigned i;

	/* a run that could not start has no record */
	if (rc != EXIT_CANNOT_START && nres > 0) {
		put_json(cfg, out, res, nres);
		out->json_run.records += nres;
	}
	/*
	 * An interrupted run prints nothing else, as bonnie++; but the
	 * points of a sweep that ended before it are printed, as -x prints
	 * the runs that ended (the last record begun is the interrupted one).
	 */
	if (rc == EXIT_INTERRUPTED && config_sweeps(cfg) && nres > 1)
		nres--;
	else if (rc != EXIT_OK && rc != EXIT_IO_ERROR)
		return rc;
	/* bonnie++ prints no table with -x, even -x 1 */
	if (cfg->runs == 0 && nres > 0 && out->table_writer->records(out->table,
	    &out->table_run, res, nres) != 0) {
		fprintf(stderr, "clyde: the table: %s\n", strerror(errno));
		if (rc == EXIT_OK)
			rc = EXIT_IO_ERROR;
	}
	for (i = 0; i < nres && !cfg->quiet; i++)
		say_skew(&res[i]);
	/* after the table, so that the lines follow it */
	out->csv_writer->records(out->csv, &out->csv_run, res, nres);
	out->csv_run.records += nres;
	/* a closed pipe or a full disk ends the runs: nobody reads them */
	if (fflush(out->csv) != 0 && rc == EXIT_OK)
		rc = EXIT_IO_ERROR;
	return rc;
}

/*
 * End the JSON (an array's end with -x) and put the file in place, or
 * remove it when no run could start: it holds nothing.  Free.  Exit code.
 */
static int close_outputs(const struct config *cfg, struct outputs *out)
{
	int rc = EXIT_OK;

	/* the array's end on stdout too (--json=-) */
	put_json(cfg, out, NULL, 0);
	if (out->json != NULL &&
	    output_file_close(out->json, out->json_run.records > 0) != 0)
		rc = EXIT_IO_ERROR;
	if (out->json_failed)
		rc = EXIT_IO_ERROR;
	free(out->ranks);
	return rc;
}

/* -x 3 or more: the records of every run, for the summary after them. */
static bool keep_runs(const struct config *cfg, const struct outputs *out)
{
	return out->speaks && cfg->runs >= 3 && !cfg->quiet;
}

/*
 * After -x runs that all ended: per phase the median and its interval,
 * and the phases whose runs vary, on stderr (stdout is bonnie++'s).
 */
static void summarize_runs(struct report_set *runs)
{
	if (report_set_average(runs) != 0) {
		fprintf(stderr, "clyde: the summary of the runs: %s\n",
		    strerror(errno));
		return;
	}
	report_summary(stderr, runs);
}

/*
 * After a run whose phases were +++++: the -s and -n that would measure
 * them, told with what the target has free.  Not for a sweep, whose small
 * points are what it is for, nor with -q or --precise.
 */
static void hint_too_fast(const struct config *cfg, int target_fd,
    const struct result *res)
{
	struct too_fast_room room = { UINT64_MAX, UINT64_MAX };
	struct statvfs sv;

	if (cfg->quiet || cfg->precise || config_sweeps(cfg))
		return;
	/* filesystems that give no figures (some FUSE ones, btrfs's inodes)
	 * say 0: not known */
	if (fstatvfs(target_fd, &sv) == 0) {
		if (sv.f_blocks != 0)
			room.free_mib = (uint64_t)sv.f_bavail * sv.f_frsize /
			    (1024 * 1024);
		if (sv.f_files != 0)
			room.free_inodes = sv.f_favail;
	}
	too_fast_hint(stderr, cfg, res, &room);
}

/*
 * -x runs (1 without it), each one measured and then written out, in the
 * target open on target_fd; json as for open_outputs(), closed here.
 */
static int run_benchmark(const struct config *cfg, int target_fd,
    struct output_file *json)
{
	struct outputs out;
	struct result *res;
	struct report_set kept;
	unsigned run, runs = cfg->runs ? cfg->runs : 1, i, nres;
	unsigned points = config_points(cfg);
	int rc, close_rc;

	report_set_init(&kept);
	rc = open_outputs(cfg, &out, json);
	/* one record per point of a sweep (--chunks, --sizes) */
	res = calloc(points, sizeof(*res));
	if (!dist_all_ok(res != NULL) && rc == EXIT_OK) {
		fputs("clyde: cannot allocate the result records\n", stderr);
		rc = EXIT_CANNOT_START;
	}
	for (run = 0; run < runs && rc == EXIT_OK; run++) {
		for (i = 0; i < points; i++) {
			result_init_run(&res[i], cfg);
			setup_describe_run(cfg, target_fd, &res[i].run);
			if (dist_size() <= 1)
				continue;
			res[i].concurrency = (int)dist_size();
			res[i].nranks = dist_size();
			res[i].ranks = out.ranks != NULL ?
			    out.ranks + (size_t)i * dist_size() : NULL;
			dist_gather_hosts(res[i].ranks);
			for (unsigned r = 0; res[i].ranks != NULL &&
			    r < dist_size(); r++)
				res[i].ranks[r].read_from = (r + cfg->shift %
				    dist_size()) % dist_size();
		}
		rc = phase_run_all(cfg, target_fd, res, &nres);
		for (i = 0; i < nres; i++)
			result_finalize(&res[i], cfg->precise);
		if (!out.speaks)
			continue;
		rc = write_outputs(cfg, &out, res, nres, rc);
		/* a stop signal cut the results short: no run after them
		 * (close_stdout() says so) */
		if (rc == EXIT_OK && stop_signal() != 0 && ferror(stdout))
			rc = EXIT_INTERRUPTED;
		if (rc != EXIT_OK && rc != EXIT_IO_ERROR)
			break;
		for (i = 0; i < nres && keep_runs(cfg, &out); i++)
			if (report_set_add(&kept, &res[i]) != 0) {
				fprintf(stderr, "clyde: the summary of the runs: "
				    "%s\n", strerror(errno));
				report_set_free(&kept);
				break;
			}
	}
	/* only after every run: an interrupted -x prints nothing more */
	if (rc == EXIT_OK && kept.n > 0)
		summarize_runs(&kept);
	if (rc == EXIT_OK && out.speaks && res != NULL && nres > 0)
		hint_too_fast(cfg, target_fd, &res[0]);
	report_set_free(&kept);
	free(res);
	close_rc = close_outputs(cfg, &out);
	return rc != EXIT_OK ? rc : close_rc;
}

/*
 * Every check a rank makes before the run; the ranks then agree.  The
 * --json file is made first, by the user who started clyde, as a
 * shell's redirection would be: -u applies to the target alone, which is
 * opened as that user, into *target_fd (-1 when it is not).
 */
static int start(struct config *cfg, struct output_file *json, bool *json_open,
    int *target_fd)
{
	int rc = EXIT_OK;

	*json_open = false;
	*target_fd = -1;
	if (dist_rank() == 0 && cfg->json_path != NULL &&
	    strcmp(cfg->json_path, "-") != 0) {
		if (output_file_open(json, cfg->json_path, several(cfg)) != 0)
			rc = EXIT_CANNOT_START;
		*json_open = rc == EXIT_OK;
	}
	if (rc == EXIT_OK)
		rc = setup_privileges(cfg);

	/* bad input (exit 1) before a target that cannot be used (exit 2) */
	if (rc == EXIT_OK)
		rc = setup_check_seed_file(cfg);
	if (rc == EXIT_OK)
		rc = setup_check_target(cfg, target_fd);
	if (rc == EXIT_OK)
		rc = setup_check_descriptors(cfg);
	if (rc == EXIT_OK)
		rc = sync_attach(cfg);
	/* no rank starts unless all can: none may wait for ever */
	if (!dist_all_ok(rc == EXIT_OK) && rc == EXIT_OK) {
		fputs("clyde: another rank could not start\n", stderr);
		rc = EXIT_CANNOT_START;
	}
	return rc;
}

/* The run that cfg describes, in the measuring process. */
static int clyde_main(struct config *cfg)
{
	struct output_file json;
	bool json_open;
	int rc, close_rc, target_fd;

	stop_install_signals();
	/* -p makes or removes the semaphore and does nothing else */
	if (cfg->sync == SYNC_CREATE || cfg->sync == SYNC_REMOVE) {
		rc = setup_privileges(cfg);
		return rc != EXIT_OK ? rc : sync_setup(cfg);
	}
	rc = start(cfg, &json, &json_open, &target_fd);
	if (rc == EXIT_OK) {
		if (dist_rank() == 0)
			setup_announce(cfg);
		rc = run_benchmark(cfg, target_fd, json_open ? &json : NULL);
	} else if (json_open) {
		output_file_close(&json, false);
	}
	if (target_fd >= 0)
		close(target_fd);
	close_rc = close_stdout();
	/* the failed write of the results was the signal's doing */
	if (close_rc == EXIT_INTERRUPTED && rc == EXIT_IO_ERROR)
		rc = close_rc;
	return rc != EXIT_OK ? rc : close_rc;
}

/*
 * A standard descriptor that was closed (">&-") would be taken by the
 * next open(): the table would be spliced into the --json file, the
 * prompts of -y p read from the target directory.  Each closed one is
 * opened on /dev/null, before anything else is opened.  Returns false
 * when that fails; nothing can be said then, stderr may be closed.
 */
static bool open_closed_std_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) {
			if (fd == 1 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY)
				stdout_read_only = true;
			continue;
		}
		if (fd == 1)
			stdout_closed = true;
		/* the lowest free descriptor: this one */
		if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			return false;
	}
	return true;
}

/* What is wrong with standard output, for a message */
static const char *stdout_state(void)
{
	return stdout_closed ? "closed" : "open for reading only";
}

/* Standard output (open for reading only) replaced by /dev/null; false: not */
static bool stdout_to_null(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	bool done = fd >= 0 && dup2(fd, STDOUT_FILENO) == STDOUT_FILENO;

	if (!done)
		fprintf(stderr, "clyde: standard output is open for reading "
		    "only, and /dev/null cannot take its place: %s\n",
		    strerror(errno));
	if (fd >= 0)
		close(fd);
	return done;
}

/* The first line of a that differs from b's, into line[len]; false: none */
static bool first_difference(const char *a, const char *b, char *line,
    size_t len)
{
	while (*a != '\0' || *b != '\0') {
		size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");

		if (na != nb || memcmp(a, b, na) != 0) {
			snprintf(line, len, "%.*s", (int)na, a);
			return true;
		}
		a += na + (a[na] == '\n');
		b += nb + (b[nb] == '\n');
	}
	return false;
}

/*
 * clyde-mpi: rank 0's figures are the sums of every rank's under rank 0's
 * label, so every rank runs with rank 0's options (config_describe()).  A
 * rank whose -s was not given takes rank 0's size (the default comes from
 * each host's RAM); any other difference is refused before anything is
 * made, rank 0 naming the option and the rank (clyde(1), clyde-mpi).
 */
static int agree_options(struct config *cfg)
{
	char first[DIST_TEXT_LEN], mine[DIST_TEXT_LEN], why[DIST_TEXT_LEN];
	char host[256] = "?", theirs[DIST_TEXT_LEN / 4], own[DIST_TEXT_LEN / 4];
	const char *bad = NULL;

	if (dist_size() < 2)
		return EXIT_OK;
	config_take_shift(cfg, dist_one_host());
	if (!config_describe(cfg, first, sizeof(first)))
		first[0] = '\0';
	dist_share_rank0(first, sizeof(first));
	if (dist_rank() != 0 && !cfg->size_given &&
	    config_described_size(first) != 0)
		config_take_size(cfg, config_described_size(first));
	if (!config_describe(cfg, mine, sizeof(mine)))
		mine[0] = '\0';
	gethostname(host, sizeof(host) - 1);
	if (cfg->concurrency > 1) {
		bad = "-c: with several ranks the ranks are the copies";
		snprintf(why, sizeof(why), "%s", bad);
	} else if (cfg->sync == SYNC_PROMPT) {
		/* mpirun gives one rank the terminal: the others' prompts end */
		bad = "-y p: waits for Enter on each rank's standard input, "
		    "which mpirun gives to rank 0 alone; the ranks of clyde-mpi "
		    "start each phase together without it";
		snprintf(why, sizeof(why), "%s", bad);
	} else if (first_difference(mine, first, own, sizeof(own))) {
		first_difference(first, mine, theirs, sizeof(theirs));
		bad = why;
		snprintf(why, sizeof(why), "rank %u (%s) has %s, rank 0 has %s: "
		    "the ranks must be given the same options", dist_rank(),
		    host, own, theirs);
	}
	if (dist_all_ok_why(bad, why, sizeof(why)))
		return EXIT_OK;
	if (dist_rank() == 0)
		fprintf(stderr, "clyde: %s\n", why);
	return EXIT_USAGE;
}

/*
 * clyde-mpi: config_parse() with what it says on stderr (getopt_long's
 * words too) kept in said (n bytes), for options_once().  Said as ever
 * when it cannot be kept.
 */
static int parse_kept(struct config *cfg, int argc, char **argv, char *said,
    size_t n)
{
	int p[2], saved = -1, rc;
	ssize_t got;

	said[0] = '\0';
	fflush(stderr);
	if (pipe(p) != 0)
		return config_parse(cfg, argc, argv);
	/* a pipe holds far more than a few lines; past that, dropped */
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	if ((saved = dup(STDERR_FILENO)) < 0 ||
	    dup2(p[1], STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		close(p[0]);
		close(p[1]);
		return config_parse(cfg, argc, argv);
	}
	close(p[1]);
	rc = config_parse(cfg, argc, argv);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	got = read(p[0], said, n - 1);
	said[got > 0 ? got : 0] = '\0';
	close(p[0]);
	return rc;
}

/*
 * clyde-mpi: options that a rank refused (rc, its words in said) are
 * said once, by rank 0: its own words, as plain clyde says them, or,
 * when rank 0 took its options, those of the lowest rank that did not
 * (another host's RAM, another command line), naming it.  A collective
 * call; EXIT_OK when every rank took its options.
 */
static int options_once(int rc, const char *said)
{
	char why[DIST_TEXT_LEN], first[DIST_TEXT_LEN], host[256] = "?";
	size_t len;

	gethostname(host, sizeof(host) - 1);
	/* cut short past DIST_TEXT_LEN, as every text the ranks share */
	if (rc != EXIT_OK && snprintf(why, sizeof(why), "rank %u (%s): %s",
	    dist_rank(), host, strncmp(said, "clyde: ", 7) == 0 ? said + 7 :
	    said) < 0)
		why[0] = '\0';
	if (dist_all_ok_why(rc != EXIT_OK ? why : NULL, first, sizeof(first)))
		return EXIT_OK;
	len = strlen(first);
	if (dist_rank() == 0 && rc != EXIT_OK)
		fputs(said, stderr);
	else if (dist_rank() == 0)
		fprintf(stderr, "clyde: %s%s", first,
		    len > 0 && first[len - 1] == '\n' ? "" : "\n");
	return rc != EXIT_OK ? rc : EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct config cfg;
	char said[DIST_TEXT_LEN];
	int rc;

	if (!open_closed_std_fds())
		return EXIT_CANNOT_START;
	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return report_main(argc - 1, argv + 1, stdout_closed);
	/* clyde-mpi: a bad option is every rank's: said once, by rank 0 */
	said[0] = '\0';
	rc = dist_has_ranks() ? parse_kept(&cfg, argc, argv, said,
	    sizeof(said)) : config_parse(&cfg, argc, argv);
	if (rc < 0) {
		if (stdout_closed || stdout_read_only) {
			fprintf(stderr, "clyde: standard output is %s: nowhere to "
			    "write the %s\n", stdout_state(), rc == CONFIG_HELP ?
			    "help" : "version");
			return EXIT_IO_ERROR;
		}
		return close_stdout();
	}
	if (rc != EXIT_OK && !dist_has_ranks())
		return rc;
	if (rc == EXIT_OK)
		fputs(said, stderr);
	/*
	 * the results would go to /dev/null without a word, as in report, or
	 * fail to be written once the run is over
	 */
	if (rc == EXIT_OK && (stdout_closed || stdout_read_only) &&
	    (cfg.json_path == NULL || strcmp(cfg.json_path, "-") == 0)) {
		fprintf(stderr, "clyde: standard output is %s: nowhere to write "
		    "the results (--json=FILE keeps them in a file)\n",
		    stdout_state());
		return EXIT_CANNOT_START;
	}
	/* the table goes where it goes with standard output closed */
	if (rc == EXIT_OK && stdout_read_only && !stdout_to_null())
		return EXIT_CANNOT_START;
	/* the only option that needs the ranks of clyde-mpi */
	if (cfg.dirs.shared && !dist_has_ranks()) {
		fputs("clyde: --dirs-shared: shares one tree between the ranks "
		    "of clyde-mpi; plain clyde has one process, whose tree is "
		    "its own: leave it out\nTry 'clyde --help'.\n", stderr);
		return EXIT_USAGE;
	}
	/*
	 * Before anything is opened, and before MPI starts: the measuring
	 * process is the child; the supervisor watches it and, in clyde-mpi,
	 * makes its MPI calls (dist/dist.h), so that it has no thread but its own.
	 */
	stall_fork(&cfg, rc == EXIT_OK && cfg.sync != SYNC_CREATE &&
	    cfg.sync != SYNC_REMOVE);
	if (dist_init(&argc, &argv) != 0) {
		fputs(rc != EXIT_OK ? said : "clyde: cannot start the "
		    "distributed run\n", stderr);
		return rc != EXIT_OK ? rc : EXIT_CANNOT_START;
	}
	rc = options_once(rc, said);
	if (rc == EXIT_OK)
		rc = agree_options(&cfg);
	if (rc == EXIT_OK)
		rc = clyde_main(&cfg);
	if (dist_finalize() != 0 && rc == EXIT_OK)
		rc = EXIT_IO_ERROR;
	return rc;
}
