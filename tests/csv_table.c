/*
 * csv_table: a test tool.  Reads 1.0x CSV lines on stdin and prints each
 * as the 1.03 text table followed by its CSV line, through the same
 * formatters as a benchmark run; a header line is printed back through
 * the header writer.  With -c, CSV only (what a -x run prints).
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

int main(int argc, char **argv)
{
	const struct csv_layout *layout = &csv_layout_103;
	int csv_only = argc > 1 && strcmp(argv[1], "-c") == 0;
	char line[8192], why[128];
	struct result res;
	int rc = 0;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (strncmp(line, "name,", 5) == 0) {
			csv_write_header(stdout, layout);
			continue;
		}
		if (csv_read_row(line, layout, &res, why, sizeof(why)) != 0) {
			fprintf(stderr, "csv_table: %s\n", why);
			rc = 1;
			continue;
		}
		if (!csv_only)
			report_text(stdout, COMPAT_103, &res);
		csv_write_row(stdout, layout, &res);
	}
	return rc;
}
