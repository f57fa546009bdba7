/*
 * clyde: a filesystem benchmark compatible with bonnie++.
 *
 * main() wires the flow: argv -> config -> phases -> result -> formatters,
 * and owns the exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "phase.h"
#include "report.h"
#include "report_cmd.h"
#include "result.h"
#include "setup.h"
#include "sync.h"

/* A full disk under a redirect is an error, not a silent success. */
static int close_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		fprintf(stderr, "clyde: writing the results: %s\n",
		    errno ? strerror(errno) : "write error");
		return EXIT_IO_ERROR;
	}
	return EXIT_OK;
}

static int run_benchmark(const struct config *cfg)
{
	const struct csv_layout *layout = csv_layout_for(cfg->compat);
	/* with -q the table goes to stderr, so stdout collects CSV lines */
	FILE *table_out = cfg->quiet ? stderr : stdout;
	unsigned run, runs = cfg->runs ? cfg->runs : 1;
	struct result res;
	int rc = EXIT_OK;

	if (cfg->quick && !cfg->quiet)
		fprintf(stderr, "clyde: --quick: a %llu MiB file and %u files fit "
		    "in the page cache: these figures measure memory, not the "
		    "disk\n", (unsigned long long)cfg->file_size_mib,
		    cfg->files.count_k * FILE_UNIT);
	/* bonnie++ prints the header only for more than one run */
	if (cfg->runs > 1)
		csv_write_header(stdout, layout);
	for (run = 0; run < runs && rc == EXIT_OK; run++) {
		result_init_run(&res, cfg);
		setup_describe_run(cfg, &res.run);
		rc = phase_run_all(cfg, &res);
		if (rc != EXIT_OK && rc != EXIT_IO_ERROR)
			return rc;
		result_finalize(&res, cfg->precise);
		/* bonnie++ prints no table with -x, even -x 1 */
		if (cfg->runs == 0)
			report_text(table_out, cfg->compat, &res);
		csv_write_row(stdout, layout, &res);
		/* a closed pipe or a full disk ends the runs: nobody reads them */
		if (fflush(stdout) != 0 && rc == EXIT_OK)
			return EXIT_IO_ERROR;
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct config cfg;
	int rc, close_rc;

	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return report_main(argc - 1, argv + 1);
	rc = config_parse(&cfg, argc, argv);
	if (rc < 0)
		return close_stdout();
	if (rc != EXIT_OK)
		return rc;
	phase_install_signals();
	rc = setup_privileges(&cfg);
	if (rc != EXIT_OK)
		return rc;
	/* -p makes or removes the semaphore and does nothing else */
	if (cfg.sync == SYNC_CREATE || cfg.sync == SYNC_REMOVE)
		return sync_setup(&cfg);
	rc = setup_check_target(&cfg);
	if (rc == EXIT_OK)
		rc = sync_attach(&cfg);
	if (rc == EXIT_OK)
		rc = setup_check_seed_file(&cfg);
	if (rc == EXIT_OK) {
		setup_announce(&cfg);
		rc = run_benchmark(&cfg);
	}
	close_rc = close_stdout();
	return rc != EXIT_OK ? rc : close_rc;
}
