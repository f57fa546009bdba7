/*
 * csv_table: a test tool.  Reads CSV lines of any bonnie++ generation on
 * stdin and prints each as the text table followed by its CSV line,
 * through the same formatters as a benchmark run; a header line is
 * printed back through the header writer.  -c: CSV only (what a -x run
 * prints).  -2: the 2.00 layouts (table and 50-field CSV), else 1.03.
 */
#include <stdio.h>
#include <string.h>

#include "in/csv_line.h"
#include "core/csv.h"
#include "out/text.h"

int main(int argc, char **argv)
{
	enum compat compat = COMPAT_103;
	const struct csv_layout *layout;
	char line[8192], why[CSV_WHY_MAX];
	bool csv_only = false;
	struct result res;
	int rc = 0, i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-c") == 0)
			csv_only = true;
		else if (strcmp(argv[i], "-2") == 0)
			compat = COMPAT_200;
	}
	layout = csv_layout_for(compat);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		switch (csv_read_line(line, &res, why, sizeof(why), NULL)) {
		case CSV_HEADER:
			csv_write_header(stdout, layout);
			break;
		case CSV_RESULT:
			if (!csv_only)
				report_text(stdout, compat, &res);
			csv_write_row(stdout, layout, &res);
			break;
		case CSV_NOT_RESULT:
			break;
		default:
			fprintf(stderr, "csv_table: %s\n", why);
			rc = 1;
		}
	}
	return rc;
}
