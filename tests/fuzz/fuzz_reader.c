/*
 * fuzz_reader: a libFuzzer target for clyde report's input side.  Any
 * bytes go through the stream reader (quoted-printable, quotes, wraps,
 * every CSV layout, the text tables of in/table.c, the HTML of
 * in/html.c: inline markup, bon_csv2html's tables, lines run
 * together), or, when they start as JSON, the JSON reader of clyde's
 * records (lib/json_read.c, in/json.c), as clyde report reads them
 * (reader_read()); each result is then written by every formatter of
 * one result, and the whole set, through --average and --compare, by
 * every writer of clyde report (out/writers.c) to /dev/null.
 *
 * Built and run by tests/fuzz/fuzz.sh (make fuzz) with clang's
 * -fsanitize=fuzzer,address,undefined.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/csv.h"
#include "in/reader.h"
#include "out/json.h"
#include "out/text.h"
#include "out/writer.h"
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

/* A result of a reader: formatted, then into the set */
static int take(void *ctx, struct result *res, unsigned long line)
{
	(void)line;
	format_one(res);
	return report_set_take_labelled(ctx, res, NULL);
}

/* What the readers say of the input: not looked at */
static void say(void *ctx, unsigned long line, const char *why)
{
	(void)ctx;
	(void)line;
	(void)why;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_set set;
	struct reader_sink sink = { &set, take, say };
	struct writer_opts o = { .compat = COMPAT_103, .latency = true };
	const struct writer *w;
	struct result res;
	FILE *in;
	size_t i;

	if (size == 0)
		return 0;
	if (null == NULL)
		null = fopen("/dev/null", "w");
	in = fmemopen((void *)data, size, "r");
	if (in == NULL || null == NULL)
		return 0;
	report_set_init(&set);
	reader_read(in, &sink);
	fclose(in);
	report_set_average(&set);
	report_set_sweeps(&set);
	if (set.n > 0) {
		memset(&res, 0, sizeof(res));
		report_set_get(&set, 0, &res);
		report_set_compare(&set, res.name);
	}
	o.base = set.has_base ? "base" : NULL;
	/* every format of clyde report, in both layouts */
	for (i = 0; (w = writer_at(i)) != NULL; i++) {
		o.compat = COMPAT_103;
		w->set(null, &set, &o);
		o.compat = COMPAT_200;
		w->set(null, &set, &o);
	}
	report_set_free(&set);
	return 0;
}
