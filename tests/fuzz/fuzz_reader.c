/*
 * fuzz_reader: a libFuzzer target for clyde report's input side.  Any
 * bytes go through the stream reader (quoted-printable, quotes, wraps,
 * every CSV layout, the text tables of in/table.c, the HTML of
 * in/html.c: inline markup, bon_csv2html's tables, lines run
 * together), or, when they start as JSON, the JSON reader of clyde's
 * records (lib/json_read.c, in/json.c); each result is
 * then written by every formatter, and the whole set through --average
 * and --compare, to /dev/null.
 *
 * Built and run by tests/fuzz/fuzz.sh (make fuzz) with clang's
 * -fsanitize=fuzzer,address,undefined.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "in/csv_line.h"
#include "core/csv.h"
#include "in/json.h"
#include "out/text.h"
#include "out/json.h"
#include "out/html.h"
#include "out/markdown.h"
#include "report/set.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *null;

/* One result through every formatter of one result */
static void format_one(const struct result *res)
{
	report_text(null, COMPAT_103, res);
	report_text(null, COMPAT_200, res);
	csv_write_row(null, &csv_layout_103, res);
	csv_write_row(null, &csv_layout_198, res);
	report_json_record(null, res);
}

/* A record of the JSON reader: formatted, then into the set */
static int take_json(void *ctx, struct result *res)
{
	format_one(res);
	return report_set_take_labelled(ctx, res, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct csv_input ci;
	char why[CSV_WHY_MAX];
	struct report_set set;
	unsigned long line;
	struct result res;
	enum csv_input_status st;
	FILE *in;

	if (size == 0)
		return 0;
	if (null == NULL)
		null = fopen("/dev/null", "w");
	in = fmemopen((void *)data, size, "r");
	if (in == NULL || null == NULL)
		return 0;
	report_set_init(&set);
	csv_input_init(&ci, in);
	if (json_input_looks((const char *)data, size))
		json_input_read((const char *)data, size, take_json, &set, why,
		    sizeof(why), &line);
	else
		while ((st = csv_input_next(&ci, &res, &line, why,
		    sizeof(why))) != CSV_IN_END && st != CSV_IN_ERROR) {
			if (st != CSV_IN_RESULT)
				continue;
			format_one(&res);
			report_set_add(&set, &res);
		}
	fclose(in);
	report_set_average(&set);
	report_set_sweeps(&set);
	if (set.n > 0) {
		report_set_get(&set, 0, &res);
		report_set_compare(&set, res.name);
	}
	report_text_set(null, COMPAT_200, &set, set.has_base ? "base" : NULL);
	report_json_set(null, &set, set.has_base ? "base" : NULL);
	report_html_set(null, COMPAT_103, &set, set.has_base ? "base" : NULL,
	    NULL);
	report_markdown_set(null, COMPAT_200, &set, set.has_base ? "base" :
	    NULL);
	report_set_free(&set);
	return 0;
}
