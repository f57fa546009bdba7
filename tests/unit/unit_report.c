/*
 * unit_report: the reader of every CSV generation, the stream layer
 * (mail and web mangling), round trips through both writers, and the
 * --average and --compare figures.
 *
 * tests/fixtures/csv_lines.tsv is the corpus list of real CSV lines
 * (generation, field count, source, line), copied from the shared
 * corpus; every line must read into its generation, and write back
 * through the table of its own layout byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "in/stream.h"
#include "core/csv.h"
#include "out/text.h"
#include "report/set.h"
#include "out/summary.h"
#include "tap.h"

static enum csv_line_kind rd(const char *line, struct result *res,
    struct csv_line_info *info)
{
	static char why[CSV_WHY_MAX];

	return csv_read_line(line, res, why, sizeof(why), info);
}

/* The line written back through a layout, tagged as the record says. */
static void write_back(char *out, size_t n, const struct csv_layout *layout,
    const struct result *res)
{
	struct csv_layout own = *layout;
	FILE *f = fmemopen(out, n, "w");

	if (res->format_version[0] != '\0')
		own.format_version = res->format_version;
	csv_write_row(f, &own, res);
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
}

/* "1.9x(1.96)" -> "1.96", "1.98/2.00" -> "1.98", "1.0x" -> "1.0x" */
static void tsv_generation(char *out, size_t n, const char *g)
{
	const char *p = strchr(g, '(');

	if (p != NULL)
		snprintf(out, n, "%.*s", (int)strcspn(p + 1, ")"), p + 1);
	else
		snprintf(out, n, "%.*s", (int)strcspn(g, "/"), g);
}

static void test_corpus_lines(void)
{
	FILE *f = fopen("tests/fixtures/csv_lines.tsv", "r");
	char row[4096], back[4096], gen[32], why[CSV_WHY_MAX];
	int n = 0, good = 0, bad = 0;

	if (!ok(f != NULL, "tests/fixtures/csv_lines.tsv opens"))
		return;
	while (fgets(row, sizeof(row), f) != NULL) {
		char *col[6], *p = row;
		struct csv_line_info info;
		struct result res;
		enum csv_line_kind k;
		int i;

		row[strcspn(row, "\n")] = '\0';
		for (i = 0; i < 6; i++) {
			col[i] = p;
			p = strchr(p, '\t');
			if (p == NULL)
				break;
			*p++ = '\0';
		}
		if (i < 5 || strcmp(col[0], "#") == 0)
			continue;
		n++;
		k = csv_read_line(col[5], &res, why, sizeof(why), &info);
		/* the one truncated paste of the corpus (f001, OrbJinzo) */
		if (strstr(col[5], ",kubuntu,") != NULL) {
			ok(k != CSV_RESULT && strstr(why, "47 fields: cut short") &&
			    strstr(why, "48"), "the truncated kubuntu line is "
			    "reported as cut short");
			bad++;
			continue;
		}
		tsv_generation(gen, sizeof(gen), col[1]);
		write_back(back, sizeof(back), info.layout, &res);
		if (k == CSV_RESULT && strcmp(res.generation, gen) == 0 &&
		    info.fields == (size_t)atoi(col[2]) &&
		    strcmp(back, col[5] + strspn(col[5], " ")) == 0) {
			good++;
		} else {
			ok(0, col[5]);
			printf("# kind %d gen %s (%s) fields %zu: %s\n# back %s\n",
			    (int)k, res.generation, gen, info.fields, why, back);
		}
	}
	fclose(f);
	is_int(n, 57, "57 corpus lines");
	is_int(good, 56, "56 read into their generation and written back "
	    "byte for byte");
	is_int(bad, 1, "one truncated");
}

static void test_values(void)
{
	struct csv_line_info info;
	struct result r;

	ok(rd("galaxy,16096M,16268,72,38745,21,17456,10,18672,82,37469,14,"
	    "318.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,99",
	    &r, &info) == CSV_RESULT, "1.0x galaxy reads");
	is_str(r.generation, "1.0x", "1.0x: generation");
	is_str(r.format_version, "", "1.0x: no format version");
	is_str(r.name, "galaxy", "1.0x: name");
	is_int(r.file_size_mib, 16096, "1.0x: 16096M");
	is_int(r.chunk, 8192, "1.0x: default chunk");
	is_int(r.cell[PH_PUTC].rate, 16268, "1.0x: putc");
	is_int(r.cell[PH_PUTC].cpu, 72, "1.0x: putc cpu");
	ok(r.cell[PH_SEEKS].rate == 318.1, "1.0x: seeks 318.1");
	is_int(r.cell[PH_SEQ_STAT].status, CELL_TOO_FAST, "1.0x: +++++");
	is_int(r.cell[PH_SEQ_STAT].cpu, -1, "1.0x: +++ has no figure");
	is_int(r.cell[PH_PUTC].latency_us, -1, "1.0x: no latency");
	is_int(r.files.count_k, 16, "1.0x: 16 files");
	is_int(r.concurrency, 0, "1.0x: concurrency unknown");

	ok(rd("1.98,2.00,CLIENT,1,1694022898,126G,,8192,5,702,96,113319,18,"
	    "32419,11,1852,98,48229,10,407.8,16,16,,,,,627,23,+++++,+++,2620,"
	    "16,587,7,3147,32,2846,18,27010us,56044us,12422ms,33647us,506ms,"
	    "260ms,11543us,22772us,1871us,8949ms,840us,3654us", &r, &info) ==
	    CSV_RESULT, "1.98 CLIENT reads");
	is_str(r.generation, "1.98", "1.98: generation");
	is_str(r.bonnie_version, "2.00", "1.98: bonnie version");
	is_str(r.seed, "1694022898", "1.98: seed");
	is_int(r.concurrency, 1, "1.98: concurrency");
	is_int(r.file_size_mib, 126 * 1024, "1.98: 126G");
	is_int(r.seeks, 8192, "1.98: seeks");
	is_int(r.seekers, 5, "1.98: seekers");
	is_int(r.cell[PH_REWRITE].latency_us, 12422000, "1.98: 12422ms");
	is_int(r.cell[PH_PUTC].latency_us, 27010, "1.98: 27010us");

	ok(rd("1.92a,1.92a,SunWave1,1001286857,1248M,79,97,16034,21,5719,6,"
	    "147,98,22904,16,269.0,4,16,,,,,6121,75,+++++,+++,12753,95,8422,80,"
	    "+++++,+++,11152,95,138ms,2546ms,201ms,97838us,58940us,3207ms,"
	    "26126us,11425us,11879us,5325us,12082us,13025us", &r, &info) ==
	    CSV_RESULT && info.layout == &csv_layout_192a,
	    "1.92a: seed, no concurrency, no chunk column");
	is_str(r.seed, "1001286857", "1.92a: seed");
	is_int(r.cell[PH_PUTC].rate, 79, "1.92a: putc");
	is_int(r.cell[PH_SEEKS].latency_us, 3207000, "1.92a: seeks latency");

	ok(rd("1.96,1.96,fslab3,1,1374655110,,,,,,,,,,,,,,60,32,32,,,1702,14,"
	    "2025,12,1332,4,1873,16,2047,13,1266,3,,,,,,,3874ms,6645ms,8659ms,"
	    "505ms,7257ms,9627ms", &r, &info) == CSV_RESULT &&
	    info.layout == &csv_layout_196_s0, "1.96 -s 0: 47 fields");
	ok(!r.has_io && r.files.count_k == 60 && r.files.max_size == 32 &&
	    r.files.min_size == 32 && r.cell[PH_SEQ_CREATE].rate == 1702 &&
	    r.cell[PH_RAN_DEL].latency_us == 9627000, "1.96 -s 0: values in "
	    "place");

	ok(rd("2,1.90a,old,64M,,100,99,200,20,300,30,400,98,500,50,60.5,1,"
	    "16,,,,1000,90,+++++,+++,3000,95,4000,96,+++++,+++,6000,97", &r,
	    &info) == CSV_RESULT && info.layout == &csv_layout_190a &&
	    r.cell[PH_RAN_DEL].rate == 6000, "1.90a: 33 fields");
	ok(rd("2,1.91,old,64M,4k,100,99,200,20,300,30,400,98,500,50,60.5,1,"
	    "16,,,4,1000,90,+++++,+++,3000,95,4000,96,+++++,+++,6000,97,1us,"
	    "2us,3us,4us,5us,6us,7us,8us,9us,10us,11us,12us", &r, &info) ==
	    CSV_RESULT && info.layout == &csv_layout_190 && r.chunk == 4096 &&
	    r.files.dirs == 4 && r.cell[PH_RAN_DEL].latency_us == 12,
	    "1.90f-1.91: 45 fields");
	ok(rd("1.92,1.92,mid,64M,,100,99,200,20,300,30,400,98,500,50,60.5,1,"
	    "16,,,,4,1000,90,+++++,+++,3000,95,4000,96,+++++,+++,6000,97,1us,"
	    "2us,3us,4us,5us,6us,7us,8us,9us,10us,11us,12us", &r, &info) ==
	    CSV_RESULT && info.layout == &csv_layout_192 && r.files.dirs == 4,
	    "1.91c-1.92: 46 fields, num_dirs where the header says "
	    "file_chunk_size");
	ok(rd("2,1.92,nosize,,,,,,,,,,,,,,,16,,,,,1000,90,+++++,+++,3000,95,"
	    "4000,96,+++++,+++,6000,97,,,,,,,7us,8us,9us,10us,11us,12us", &r,
	    &info) == CSV_RESULT && info.layout == &csv_layout_192 && !r.has_io,
	    "1.92 -s 0 with the tag 2");
}

static void test_dirs_chunk(void)
{
	static const char head[] = "1.98,2.00a,h,1,1,64M,,8192,5,525,91,"
	    "+++++,+++,+++++,+++,548,96,+++++,+++,+++++,+++,2,1024,512,";
	static const char tail[] = ",3455,92,+++++,+++,3306,7,2811,84,+++++,"
	    "+++,+++++,+++,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us";
	char line[512];
	struct result r;

	snprintf(line, sizeof(line), "%s,4%s", head, tail);
	ok(rd(line, &r, NULL) == CSV_RESULT && r.files.dirs == 4 &&
	    r.files.chunk == 8192, "bonnie++ 2.00a: ',,4' is num_dirs 4");
	snprintf(line, sizeof(line), "%s4,4k%s", head, tail);
	ok(rd(line, &r, NULL) == CSV_RESULT && r.files.dirs == 4 &&
	    r.files.chunk == 4096, "clyde: '4,4k' is num_dirs 4, chunk 4k");
	snprintf(line, sizeof(line), "%s1,512%s", head, tail);
	ok(rd(line, &r, NULL) == CSV_RESULT && r.files.dirs == 1 &&
	    r.files.chunk == 512, "clyde: '1,512' is one directory, chunk 512");
}

static void test_commas(void)
{
	struct result r;

	/*
	 * Text before a 1.0x line and a name with commas look the same; the
	 * line is read from the field before its size, so no field holds a
	 * comma.
	 */
	ok(rd("a,b,c,galaxy,16096M,16268,72,38745,21,17456,10,18672,82,37469,"
	    "14,318.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,"
	    "99", &r, NULL) == CSV_RESULT && strcmp(r.name, "galaxy") == 0 &&
	    r.file_size_mib == 16096 && r.cell[PH_RAN_DEL].rate == 9147,
	    "1.0x: text with commas before the line is not part of the name");
	ok(rd("web,db,2G,10874,85,52615,35,18392,12,12760,90,48394,9,103.9,0,"
	    "16,13055,93,+++++,+++,15189,87,12872,95,+++++,+++,20590,99", &r,
	    NULL) == CSV_RESULT && strcmp(r.name, "db") == 0 &&
	    r.file_size_mib == 2048, "1.0x: the name is the field before the "
	    "size");
	ok(rd("Results: 1.98,2.00,CLIENT,1,1694022898,126G,,8192,5,702,96,"
	    "113319,18,32419,11,1852,98,48229,10,407.8,16,16,,,,,627,23,+++++,"
	    "+++,2620,16,587,7,3147,32,2846,18,27010us,56044us,12422ms,33647us,"
	    "506ms,260ms,11543us,22772us,1871us,8949ms,840us,3654us", &r,
	    NULL) == CSV_RESULT && strcmp(r.name, "CLIENT") == 0 &&
	    r.cell[PH_RAN_DEL].latency_us == 3654, "1.98: words before the "
	    "format tag");
	ok(rd("run,3,1.98,2.00,CLIENT,1,1694022898,126G,,8192,5,702,96,"
	    "113319,18,32419,11,1852,98,48229,10,407.8,16,16,,,,,627,23,+++++,"
	    "+++,2620,16,587,7,3147,32,2846,18,27010us,56044us,12422ms,33647us,"
	    "506ms,260ms,11543us,22772us,1871us,8949ms,840us,3654us", &r,
	    NULL) == CSV_RESULT && strcmp(r.name, "CLIENT") == 0,
	    "1.98: fields before the format tag");
	ok(rd("host-optimized:4000M,16268,72,38745,21,17456,10,18672,82,37469,"
	    "14,318.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,"
	    "99", &r, NULL) == CSV_RESULT &&
	    strcmp(r.name, "host-optimized") == 0 && r.file_size_mib == 4000 &&
	    r.cell[PH_PUTC].rate == 16268 && r.cell[PH_RAN_DEL].cpu == 99,
	    "1.0x: name:size in the first field (26 fields)");
	ok(rd("host:64M:4k,16268,72,38745,21,17456,10,18672,82,37469,"
	    "14,318.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,"
	    "99", &r, NULL) == CSV_RESULT && strcmp(r.name, "host") == 0 &&
	    r.file_size_mib == 64 && r.chunk == 4096,
	    "1.0x: name:size:chunk in the first field");
	ok(rd("1.98,2.00a,a,b,1,/tmp/x,y,64M,,8192,5,537,90,+++++,+++,+++++,"
	    "+++,582,93,+++++,+++,+++++,+++,1,,,,,+++++,+++,+++++,+++,+++++,+++,"
	    "+++++,+++,+++++,+++,+++++,+++,1us,2us,3us,4us,5us,6us,7us,8us,9us,"
	    "10us,11us,12us", &r, NULL) == CSV_RESULT &&
	    strcmp(r.name, "a,b") == 0 && strcmp(r.seed, "/tmp/x,y") == 0,
	    "1.98: commas in the name and in a -Z seed file name");
}

static void test_bad(void)
{
	static const struct {
		const char *line, *why;
	} cases[] = {
		{ "1.03,1.03,host7,1,1234567890,8096M,,38449,67,36403,9,19240,5,"
		  "47427,74,47958,7,330.6,0,256,216,99,+++++,+++,66339,55,222,99,"
		  "+++++,+++,304,35", "no bonnie++ CSV format is called '1.03'" },
		{ "galaxy,16096M,16x68,72,38745,21,17456,10,18672,82,37469,14,"
		  "318.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,99",
		  "putc: '16x68' is not a rate" },
		{ "galaxy,16096M,16268,,38745,21,17456,10,18672,82,37469,14,"
		  "318.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,99",
		  "putc_cpu: '' does not go with its rate" },
		{ "1.97,1.97,h,1,1,4G,,,,591313,95,340430,72,,,1007765,86,11809,"
		  "302,1,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,"
		  "+++,,12440xs,24117us,,5957us,8073us,1566us,1us,1us,1us,1us,1us",
		  "put_block_latency: '12440xs' is not a latency" },
		{ "1.96,1.96,h,1,1,2G,,1,1,1,1,1,1,1,1,1,1,1,1,16,,,,,1,1,1,1,1,1,"
		  "1,1,1,1,1,1,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us,1us",
		  "47 fields: cut short? (a 1.96 line has 48)" },
		{ "host:4000M,16268,72,38745,21,17456,10,18672,82,37469,14,318.1,"
		  "1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,99,1,2",
		  "name:size first and 28 fields: no bonnie++ layout is certain "
		  "(a 1.0x line has 26 so)" },
		{ "x,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22",
		  "23 fields of figures in no bonnie++ CSV layout" },
	};
	char why[CSV_WHY_MAX];
	struct result r;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum csv_line_kind k = csv_read_line(cases[i].line, &r, why,
		    sizeof(why), NULL);

		ok(k == CSV_BAD && strcmp(why, cases[i].why) == 0, cases[i].why);
		if (k != CSV_BAD || strcmp(why, cases[i].why) != 0)
			printf("#   kind %d, why '%s'\n", (int)k, why);
	}
	ok(rd("Hi, I ran it twice, here is the table:", &r, NULL) ==
	    CSV_NOT_RESULT, "prose with commas is no result");
	ok(rd("name,file_size,putc,putc_cpu", &r, NULL) == CSV_HEADER,
	    "a header line");
	ok(rd("64,4,70639,7300,438279", &r, NULL) == CSV_NOT_RESULT,
	    "other numbers with commas are no result");
}

/* Every field the CSV carries, compared one by one. */
static int same_record(const struct result *a, const struct result *b)
{
	int i;

	if (strcmp(a->generation, b->generation) ||
	    strcmp(a->format_version, b->format_version) ||
	    strcmp(a->bonnie_version, b->bonnie_version) ||
	    strcmp(a->name, b->name) || strcmp(a->seed, b->seed) ||
	    a->concurrency != b->concurrency || a->has_io != b->has_io ||
	    a->file_size_mib != b->file_size_mib || a->chunk != b->chunk ||
	    a->seeks != b->seeks || a->seekers != b->seekers ||
	    a->has_files != b->has_files ||
	    memcmp(&a->files, &b->files, sizeof(a->files)) != 0)
		return 0;
	for (i = 0; i < PH_COUNT; i++)
		if (a->cell[i].status != b->cell[i].status ||
		    a->cell[i].rate != b->cell[i].rate ||
		    a->cell[i].cpu != b->cell[i].cpu ||
		    a->cell[i].latency_us != b->cell[i].latency_us)
			return 0;
	return 1;
}

/* record -> CSV -> record */
static int round_trip(const struct result *in, const struct csv_layout *l)
{
	char line[4096];
	struct result out;

	write_back(line, sizeof(line), l, in);
	if (rd(line, &out, NULL) == CSV_RESULT && same_record(in, &out))
		return 1;
	printf("# %s\n", line);
	return 0;
}

static void synthetic(struct result *r, bool v200)
{
	int i;

	csv_result_clear(r);
	strcpy(r->generation, v200 ? "1.98" : "1.0x");
	if (v200) {
		strcpy(r->format_version, "1.98");
		strcpy(r->bonnie_version, "2.00a");
		strcpy(r->seed, "1796030475");
		r->concurrency = 3;
		r->seeks = 1000;
		r->seekers = 4;
	}
	strcpy(r->name, "host.example.com");
	r->has_io = r->has_files = true;
	r->file_size_mib = 3000;
	r->chunk = 4096;
	r->files.count_k = 2;
	r->files.max_size = 1024;
	r->files.min_size = 512;
	r->files.dirs = 4;
	r->files.chunk = v200 ? 2048 : 8192;
	/* the phases a CSV line has */
	for (i = 0; i < PH_BONNIE_COUNT; i++) {
		r->cell[i].status = i % 3 == 2 ? CELL_TOO_FAST : CELL_OK;
		r->cell[i].rate = r->cell[i].status != CELL_OK ? 0 :
		    i == PH_SEEKS ? 234.5 : 100 * i;
		r->cell[i].cpu = r->cell[i].status == CELL_OK ? i : -1;
		/* as the CSV can say them: whole us, ms, s */
		r->cell[i].latency_us = !v200 ? -1 : i < 4 ? 5 * i :
		    i < 8 ? 123000 * i : 100000000 * i;
	}
	r->cell[PH_PUTC].status = r->cell[PH_GETC].status = CELL_SKIPPED;
	r->cell[PH_PUTC].cpu = r->cell[PH_GETC].cpu = -1;
	r->cell[PH_PUTC].rate = r->cell[PH_GETC].rate = 0;
	r->cell[PH_PUTC].latency_us = r->cell[PH_GETC].latency_us = -1;
}

static void test_round_trips(void)
{
	FILE *f = fopen("tests/fixtures/csv_lines.tsv", "r");
	int n103 = 0, n198 = 0, good = 0;
	char row[4096];
	struct result r;

	synthetic(&r, false);
	ok(round_trip(&r, &csv_layout_103), "1.03: every field (-s :4k, "
	    "-n 2:1024:512:4, +++++, -f) through CSV and back");
	synthetic(&r, true);
	ok(round_trip(&r, &csv_layout_198), "2.00: every field (seed, -c, "
	    "seeks, seekers, dirs, file chunk, latencies) through CSV and back");
	r.files.max_size = FILES_HARDLINK;
	r.files.min_size = 0;
	r.files.dirs = 1;
	r.files.chunk = 8192;
	ok(round_trip(&r, &csv_layout_198), "2.00: hard links");
	r.files.max_size = FILES_SYMLINK;
	r.has_io = false;
	r.file_size_mib = 0;
	r.chunk = r.seeks = r.seekers = 0;
	for (int i = 0; i < PH_FIRST_FILE; i++) {
		r.cell[i].status = CELL_SKIPPED;
		r.cell[i].rate = 0;
		r.cell[i].cpu = -1;
		r.cell[i].latency_us = -1;
	}
	ok(round_trip(&r, &csv_layout_198), "2.00: symlinks, -s 0");
	if (f == NULL)
		return;
	while (fgets(row, sizeof(row), f) != NULL) {
		char *line = strrchr(row, '\t');
		struct csv_line_info info;

		if (line == NULL)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (rd(line + 1, &r, &info) != CSV_RESULT)
			continue;
		if (info.layout == &csv_layout_103)
			n103++;
		else if (info.layout == &csv_layout_198)
			n198++;
		else
			continue;
		good += round_trip(&r, info.layout);
	}
	fclose(f);
	ok(n103 == 11 && n198 == 2 && good == n103 + n198,
	    "the corpus's 1.0x and 1.98 records through their CSV and back");
}

/* ---- the stream: text as people paste it ---------------------------- */

struct got {
	int results, bad;
	unsigned long bad_line;
	char why[CSV_WHY_MAX];
	char names[512];
	struct result last;
};

static void read_text(const char *text, size_t len, struct got *g)
{
	static struct csv_input ci;
	FILE *f = fmemopen((void *)text, len, "r");
	char why[CSV_WHY_MAX];
	unsigned long line;
	enum csv_input_status st;

	memset(g, 0, sizeof(*g));
	csv_input_init(&ci, f);
	while ((st = csv_input_next(&ci, &g->last, &line, why,
	    sizeof(why))) != CSV_IN_END && st != CSV_IN_ERROR) {
		if (st == CSV_IN_RESULT) {
			g->results++;
			size_t used = strlen(g->names);

			snprintf(g->names + used, sizeof(g->names) - used, "%s;",
			    g->last.name);
		} else if (g->bad++ == 0) {
			g->bad_line = line;
			snprintf(g->why, sizeof(g->why), "%s", why);
		}
	}
	fclose(f);
}

#define GALAXY "galaxy,16096M,16268,72,38745,21,17456,10,18672,82,37469,14," \
	"318.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,99"

static void expect(const char *text, int results, int bad, const char *names,
    const char *what)
{
	struct got g;

	read_text(text, strlen(text), &g);
	ok(g.results == results && g.bad == bad && strcmp(g.names, names) == 0,
	    what);
	if (g.results != results || g.bad != bad || strcmp(g.names, names))
		printf("#   %d results (%s), %d bad (line %lu: %s)\n", g.results,
		    g.names, g.bad, g.bad_line, g.why);
}

static void test_stream(void)
{
	static const char plug1[] = "plug1,16G,27,99,53977,93,26510,53,2575,"
	    "88,71036,61,97.6,9,16,1414,14,+++++,+++,8401,31,2167,20,+++++,+++,"
	    "8354,2\\\n8\n";
	struct got g;
	char *big;

	expect("Some prose, with commas.\n\n" GALAXY "\n-- \nsig\n", 1, 0,
	    "galaxy;", "prose around a line");
	expect("\t  " GALAXY "  \r\n", 1, 0, "galaxy;",
	    "leading tabs, trailing blanks, CRLF");
	expect("> > " GALAXY "\n>> " GALAXY "\n", 2, 0, "galaxy;galaxy;",
	    "quote marks at any depth");
	expect("galaxy,16096M,16268,72,38745,21,17456,10,18672,82,37469,14,31\n"
	    "8.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,99\n",
	    1, 0, "galaxy;", "a wrap inside a number");
	expect("> galaxy,16096M,16268,72,38745,21,17456,10,18672,82,37469,14,"
	    "318.1,1,16,3665,99,+++++,+++,++ \n> \n> +++,+++,3762,99,+++++,+++,"
	    "9147,99\n", 1, 0, "galaxy;", "format=flowed, quoted, a blank "
	    "quoted line between, inside +++++");
	expect("1.98,2.00,CLIENT,1,1694022898,126G,,8192,5,702,96,113319,18,3241=\n"
	    "9,11,1852,98,48229,10,407.8,16,16,,,,,627,23,+++++,+++,2620,16,587,7=\n"
	    ",3147,32,2846,18,27010us,56044us,12422ms,33647us,506ms,260ms,11543u=\n"
	    "s,22772us,1871us,8949ms,840us,3654us\n", 1, 0, "CLIENT;",
	    "quoted-printable soft breaks");
	expect("Content-Transfer-Encoding: quoted-printable\n\nname=3Dx\n"
	    "galaxy,16096M,16268,72,38745,21,17456,10,18672,82,37469,14,318.1=\n"
	    ",1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,99\n",
	    1, 0, "galaxy;", "quoted-printable after its header");
	expect("galaxy,16096M,16268,72,38745,21,17456,10,18672,82\n"
	    "Thanks for reading.\n" GALAXY "\n", 1, 1, "galaxy;",
	    "a cut line before prose is reported, the next line read");
	read_text("x\n\n" GALAXY "\ngalaxy,16096M,16268,72,38745\n", 200, &g);
	ok(g.results == 1 && g.bad == 1 && g.bad_line == 4,
	    "a cut line at the end, with its line number");
	/* results.csv made by "clyde -q >> results.csv; echo $? >> ..." */
	read_text(GALAXY "\n0\n" GALAXY "\n0\n", 2 * sizeof(GALAXY) + 3, &g);
	ok(g.results == 2 && g.bad == 0 && g.last.cell[PH_RAN_DEL].cpu == 99,
	    "a whole line is not glued to an exit status on the next line");
	read_text(plug1, sizeof(plug1) - 1, &g);
	ok(g.results == 1 && g.last.cell[PH_RAN_DEL].cpu == 28,
	    "a Markdown hard break inside the last field joins the next line");
	expect("galaxy,16096M,16268,72,38745,21,17456,10,18672,82,\\\n"
	    "37469,14,318.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,\\\n"
	    "+++,9147,99\n", 1, 0, "galaxy;",
	    "Markdown hard breaks inside a CSV line");
	read_text("galaxy,16096M,16\0268,72,38745,21,17456,10,18672,82,37469,14,"
	    "318.1,1,16,3665,99,+++++,+++,+++++,+++,3762,99,+++++,+++,9147,99\n"
	    GALAXY "\n", 2 * sizeof(GALAXY) + 1, &g);
	ok(g.results == 1 && g.bad == 1 && g.bad_line == 1,
	    "a NUL byte in a result line is reported");
	big = malloc(300000);
	memset(big, '9', 300000);
	memcpy(big + 299000, "\n" GALAXY "\n", sizeof(GALAXY) + 1);
	read_text(big, 299000 + sizeof(GALAXY) + 1, &g);
	ok(g.results == 1 && g.bad == 1 && g.bad_line == 1 &&
	    strstr(g.why, "longer than 8191 bytes"),
	    "a 299000-byte line is named, never skipped; the next one read");
	memcpy(big, GALAXY, sizeof(GALAXY) - 1);
	read_text(big, 299000 + sizeof(GALAXY) + 1, &g);
	ok(g.results == 1 && g.bad == 1 && strstr(g.why, "longer than"),
	    "a result-like line too long to read is reported");
	free(big);
	expect("72 ,1 ,2417 ,24\nspyder,1G,6031,64,13410,10,7769,5,9411,90,"
	    "16009,5,137.0,0,16,73 ,1 ,3127 ,31 ,119,1,1670,28,+++++,+++,77 ,1\n",
	    1, 0, "spyder;", "blanks inside fields, as edited by hand");
}

/* ---- --average and --compare ---------------------------------------- */

/*
 * The seven DAMETH_RROBIN runs of the OpenGFS notes
 * (tests/fixtures/dameth_rrobin.txt) and the
 * avg-rr line their author made by hand:
 *   avg-rr,1G,5826,63,13527,11,7806,5,9438,90,16091,4,148.7,0,16,798,20,
 *   7589 ,69 ,114,1,612,16,24978,69 ,113,1
 * The --average mean (clyde(1), REPORT: over the runs where the phase
 * was measured) agrees
 * in every column but two: seq_create, where the author left out the
 * two runs that made 70 and 72 files/s (mean of all seven: 590, CPU 15
 * instead of 798 and 20), and ran_stat, where he kept 3 of the 5
 * measured runs (27336, 25736, 21861; dropping 8755 and 15162): all five
 * give 19770 instead of 24978; the CPU, 69, happens to agree.
 */
static const char rrobin[] =
"spyder,1G,6064,65,14048,11,7869,6,9456,90,16277,5,157.9,0,16,738,19,+++++,+++,113,1,613,16,27336,70 ,113,1\n"
"spyder,1G,5785,62,13866,11,7845,5,9457,90,16278,4,150.1,0,16,70 ,1 ,7442 ,70 ,121,1,593,17,+++++,+++,115,1\n"
"spyder,1G,5666,61,13561,10,7857,6,9479,90,16311,4,153.1,0,16,850,22,+++++,+++,107,1,638,18,8755 ,66 ,112,1\n"
"spyder,1G,6058,65,13296,11,7776,5,9429,90,15923,4,148.8,0,16,804,21,+++++,+++,112,1,649,17,+++++,+++,114,1\n"
"spyder,1G,5668,61,13410,11,7753,5,9412,90,15965,4,149.5,1,16,802,20,+++++,+++,114,1,624,17,25736,67 ,113,1\n"
"spyder,1G,5865,63,13278,10,7799,6,9396,90,15923,5,140.5,0,16,796,20,+++++,+++,113,1,575,15,15162,70 ,113,1\n"
"spyder,1G,5678,61,13228,10,7741,5,9440,90,15957,4,140.8,0,16,72 ,1 ,7735 ,67 ,121,1,594,15,21861,70 ,114,1\n"
"avg-rr,1G,5826,63,13527,11,7806,5,9438,90,16091,4,148.7,0,16,798,20,7589 ,69 ,114,1,612,16,24978,69 ,113,1\n";

static void load(struct report_set *set, const char *text)
{
	static struct csv_input ci;
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char why[CSV_WHY_MAX];
	unsigned long line;
	struct result r;

	csv_input_init(&ci, f);
	while (csv_input_next(&ci, &r, &line, why, sizeof(why)) ==
	    CSV_IN_RESULT)
		report_set_add(set, &r);
	fclose(f);
}

static void test_average(void)
{
	static const char want[] = "mean:spyder,1G,5826,63,13527,11,7806,5,"
	    "9438,90,16091,4,148.7,0,16,590,15,7589,69,114,1,612,16,19770,69,"
	    "113,1";
	const struct report_spread *sp;
	struct report_set set;
	struct result m;
	char line[1024];

	report_set_init(&set);
	load(&set, rrobin);
	is_int(set.n, 8, "DAMETH_RROBIN: 7 runs and avg-rr");
	ok(report_set_average(&set) == 0 && set.ngroups == 1,
	    "one group of two or more");
	if (set.ngroups != 1)
		return;
	is_int(report_set_group_runs(&set, 0), 7, "of 7 runs");
	report_set_group_mean(&set, 0, &m);
	snprintf(m.name, sizeof(m.name), "mean:spyder");
	write_back(line, sizeof(line), &csv_layout_103, &m);
	is_str(line, want, "the mean of the seven runs");
	sp = report_set_group_spread(&set, 0);
	ok(sp[PH_PUTC].runs == 7 && sp[PH_PUTC].min == 5666 &&
	    sp[PH_PUTC].max == 6064, "putc: 7 runs, 5666 to 6064");
	/* sample standard deviation 176.13 over the mean 5826.29 */
	ok(sp[PH_PUTC].cv > 3.01 && sp[PH_PUTC].cv < 3.03, "putc: CV 3.0 %");
	ok(sp[PH_SEQ_STAT].runs == 2 && sp[PH_SEQ_STAT].min == 7442 &&
	    sp[PH_SEQ_STAT].max == 7735, "seq_stat: measured in 2 runs");
	/* 207.18 over 7588.5 */
	ok(sp[PH_SEQ_STAT].cv > 2.72 && sp[PH_SEQ_STAT].cv < 2.74,
	    "seq_stat: CV 2.7 %");
	/* seq_create: 738 70 850 804 802 796 72, sd 356.23, mean 590.29 */
	ok(sp[PH_SEQ_CREATE].cv > 60.3 && sp[PH_SEQ_CREATE].cv < 60.4,
	    "seq_create: CV 60.3 %, the spread the author removed by hand");
	ok(report_set_group_of(&set, 0) == 0 && report_set_group_of(&set, 7) ==
	    -1, "avg-rr is not in the group");
	report_set_free(&set);

	report_set_init(&set);
	load(&set, "a,1G,,,1000,10,,,,,,,+++++,+++,16,+++++,+++,,,,,,,,,,\n"
	    "a,1G,,,3000,30,,,,,,,+++++,+++,16,+++++,+++,,,,,,,,,,\n");
	report_set_average(&set);
	report_set_group_mean(&set, 0, &m);
	ok(m.cell[PH_SEEKS].status == CELL_TOO_FAST &&
	    m.cell[PH_SEQ_CREATE].status == CELL_TOO_FAST &&
	    m.cell[PH_PUTC].status == CELL_SKIPPED &&
	    m.cell[PH_PUT_BLOCK].rate == 2000 && m.cell[PH_PUT_BLOCK].cpu == 20,
	    "+++++ in every run stays +++++, not run stays empty");
	report_set_free(&set);
}

static void test_compare(void)
{
	/* the seeds' OSDL runs: cl038 (one drive) and cl049 (8 drives) */
	static const char text[] =
	    "cl038,496M,6209,62,10723,13,6471,8,8678,82,18728,9,210.7,3,16,479,"
	    "19,1811,25,323,4,1126,26,+++++,+++,233,4\n"
	    "cl049,5000M,6000,59,10612,12,7364,14,9827,92,23422,13,148.2,1,16,"
	    "439,20,+++++,+++,257,6,897,27,+++++,+++,247,4\n";
	/* 6000/6209, 10612/10723, 7364/6471, 9827/8678, 23422/18728,
	 * 148.2/210.7, 439/479, -, 257/323, 897/1126, -, 247/233 */
	static const long want[PH_BONNIE_COUNT] = { -3, -1, 14, 13, 25, -30, -8, 0,
	    -20, -20, 0, 6 };
	struct report_set set;
	struct result r;
	long pct;
	int i, good = 0;

	report_set_init(&set);
	load(&set, text);
	ok(report_set_compare(&set, "nobody") == -1, "--compare: no such name");
	ok(report_set_compare(&set, "cl038") == 0 && set.base_item == 0,
	    "--compare=cl038");
	report_set_get(&set, 1, &r);
	for (i = 0; i < PH_BONNIE_COUNT; i++) {
		bool have = report_set_percent(&set, &r, (enum phase_id)i, &pct);

		if (i == PH_SEQ_STAT || i == PH_RAN_STAT)
			good += !have;
		else
			good += have && pct == want[i];
	}
	is_int(good, PH_BONNIE_COUNT, "cl049 as a percentage of cl038, +++++ blank");
	report_set_free(&set);

	report_set_init(&set);
	load(&set, rrobin);
	report_set_average(&set);
	ok(report_set_compare(&set, "spyder") == 0 && set.base_group == 0,
	    "with --average the base is the group's mean");
	report_set_get(&set, 7, &r);
	ok(report_set_percent(&set, &r, PH_SEQ_CREATE, &pct) && pct == 35 &&
	    report_set_percent(&set, &r, PH_RAN_STAT, &pct) && pct == 26,
	    "avg-rr vs the mean: seq_create +35 %, ran_stat +26 %");
	report_set_free(&set);
}

/*
 * Chunk sweeps.  1.0x lines carry the chunk in the size field, as 1.03e's
 * -s size:chunk wrote it ("1G:4k"); "1G" is the default, 8192.  The
 * first point has the per-char and file cells, the others ran -f -n 0.
 */
static void test_sweeps(void)
{
	static const char text[] =
	    "a,1G:64k,,,2000,20,1000,10,,,3000,30,100.0,1,,,,,,,,,,,,,\n"
	    "a,1G:4k,50,90,1000,10,500,5,60,90,1500,15,80.0,1,16,+++++,+++,"
	    "+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++\n"
	    "a,1G,,,1500,15,700,7,,,2000,20,90.0,1,,,,,,,,,,,,,\n"
	    "a,1G:4k,52,90,1100,11,600,6,62,90,1600,16,82.0,1,16,+++++,+++,"
	    "+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++\n"
	    "a,1G:64k,,,2200,22,1100,11,,,3300,33,110.0,1,,,,,,,,,,,,,\n"
	    "a,2G:4k,,,900,9,,,,,,,,,,,,,,,,,,,,,\n"
	    "b,1G:4k,,,800,8,,,,,,,,,,,,,,,,,,,,,\n"
	    "c,1G:8k,,,700,7,,,,,,,,,,,,,,,,,,,,,\n"
	    "c,1G,,,750,7,,,,,,,,,,,,,,,,,,,,,\n"
	    "d,1G:4k,,,1000,10,,,,,,,,,,,,,,,,,,,,,\n"
	    "d,1G:64k,,,4400,40,,,,,,,,,,,,,,,,,,,,,\n"
	    "e,1G:16k,,,1000,10,,,,,,,,,,,,,,,,,,,,,\n"
	    "f,64M:16384k,,,9000,90,,,,,,,,,,,,,,,,,,,,,\n"
	    "f,64M:256,,,90,9,,,,,,,,,,,,,,,,,,,,,\n";
	struct report_row rows[32];
	const struct report_sweep *sw;
	struct report_set set;
	struct result r;
	long pct;
	size_t n;

	report_set_init(&set);
	load(&set, text);
	is_int(set.n, 14, "sweeps: 14 results");
	ok(report_set_sweeps(&set) == 0 && set.nsweeps == 3,
	    "three sweeps: a at 1G, d and f; a 2G, b and e alone, c 8k and "
	    "1G the same");
	if (set.nsweeps != 3)
		return;
	ok(set.sweeps[2].chunks[0] == 256 &&
	    set.sweeps[2].chunks[1] == 16u << 20,
	    "f: 256 bytes to 16 MiB, as 1.03e's label writes them");
	sw = &set.sweeps[0];
	ok(sw->first == 0 && sw->nchunks == 3 && sw->nseries == 2 &&
	    sw->chunks[0] == 4096 && sw->chunks[1] == 8192 &&
	    sw->chunks[2] == 65536, "a: 4k, 8k (the default), 64k, 2 series");
	ok(sw->items[0] == 1 && sw->items[1] == 2 && sw->items[2] == 0 &&
	    sw->items[3] == 3 && sw->items[4] == -1 && sw->items[5] == 4,
	    "the k-th result of a chunk size is in series k; 8k ran once");
	ok(report_set_place(&set, 5)->sweep == -1 &&
	    report_set_place(&set, 6)->sweep == -1 &&
	    report_set_place(&set, 7)->sweep == -1 &&
	    report_set_place(&set, 4)->sweep == 0 &&
	    report_set_place(&set, 4)->point == 2 &&
	    report_set_place(&set, 4)->series == 1,
	    "other file size, name or only the default chunk: no sweep");
	n = report_set_table_rows(&set, 0, rows);
	ok(n == 5 && rows[0].index == 5 && rows[1].index == 6 &&
	    rows[2].index == 7 && rows[3].index == 8 && rows[4].index == 11,
	    "table 0: the results in no sweep, in the order read");
	n = report_set_table_rows(&set, 1, rows);
	ok(n == 5 && rows[0].index == 1 && rows[1].index == 3 &&
	    rows[2].index == 2 && rows[3].index == 0 && rows[4].index == 4,
	    "table 1: a by chunk size, its series in the order read");

	/* per chunk: d's 64k against a's 64k, d's 4k against a's 4k */
	ok(report_set_compare(&set, "a") == 0 && set.base_sweep == 0,
	    "--compare=a: a sweep, compared per chunk size");
	report_set_get(&set, 10, &r);
	ok(report_set_percent(&set, &r, PH_PUT_BLOCK, &pct) && pct == 120,
	    "d 64k: 4400 against a's first 64k, 2000: +120 %");
	report_set_get(&set, 9, &r);
	ok(report_set_percent(&set, &r, PH_PUT_BLOCK, &pct) && pct == 0,
	    "d 4k: 1000 against a's first 4k, 1000: +0 %");
	report_set_get(&set, 7, &r);
	ok(report_set_percent(&set, &r, PH_PUT_BLOCK, &pct) && pct == -53 &&
	    report_set_is_base(&set, 2, -1) && !report_set_is_base(&set, 3, -1),
	    "c 8k against a's 8k; a's first series is the base");
	report_set_get(&set, 5, &r);
	ok(report_set_percent(&set, &r, PH_PUT_BLOCK, &pct) && pct == -10,
	    "a 2G:4k against a's 4k");
	report_set_get(&set, 11, &r);
	ok(!report_set_percent(&set, &r, PH_PUT_BLOCK, &pct),
	    "e 16k: a chunk size the base lacks, no comparison");
	report_set_free(&set);

	/* --average: the mean per chunk size is the base, rows after runs */
	report_set_init(&set);
	load(&set, text);
	report_set_average(&set);
	report_set_sweeps(&set);
	n = report_set_table_rows(&set, 1, rows);
	ok(n == 7 && rows[2].mean &&
	    report_set_group_first(&set, rows[2].index) == 1 &&
	    !rows[3].mean && rows[3].index == 2 && rows[6].mean &&
	    report_set_group_first(&set, rows[6].index) == 0,
	    "--average: the mean of each chunk size after its runs");
	ok(set.sweeps[0].groups[1] == -1 && set.sweeps[0].groups[2] >= 0,
	    "8k ran once: no group");
	report_set_compare(&set, "a");
	report_set_get(&set, 10, &r);
	ok(report_set_percent(&set, &r, PH_PUT_BLOCK, &pct) && pct == 110,
	    "d 64k: 4400 against a's 64k mean, 2100: +110 %");
	ok(report_set_is_base(&set, 2, -1) && !report_set_is_base(&set, 0, -1) &&
	    report_set_is_base(&set, -1, set.sweeps[0].groups[2]),
	    "the bases: a's means, and its lone 8k run");
	ok(!set.sweeps[0].name_shared && !set.sweeps[1].name_shared,
	    "a, d and f: names of one sweep each");
	report_set_free(&set);

	report_set_init(&set);
	load(&set, "x,1G:4k,,,1,1,,,,,,,,,,,,,,,,,,,,,\n"
	    "x,2G:4k,,,1,1,,,,,,,,,,,,,,,,,,,,,\n"
	    "x,1G:8k,,,1,1,,,,,,,,,,,,,,,,,,,,,\n"
	    "x,2G:8k,,,1,1,,,,,,,,,,,,,,,,,,,,,\n");
	ok(report_set_sweeps(&set) == 0 && set.nsweeps == 1 &&
	    set.sweeps[0].first == 0 && set.sweeps[0].nsizes == 2 &&
	    set.sweeps[0].nchunks == 4 && set.sweeps[0].sizes[0] == 1024 &&
	    set.sweeps[0].chunks[1] == 8192 && set.sweeps[0].sizes[2] == 2048 &&
	    set.sweeps[0].items[1] == 2 && set.sweeps[0].items[2] == 1 &&
	    !set.sweeps[0].name_shared,
	    "x at 1G and 2G by 4k and 8k: a grid, one sweep of 2 file sizes, "
	    "by file size, then chunk size");
	ok(report_set_compare(&set, "x") == 0,
	    "--compare=x: x's own sweep of file sizes is the base");
	report_set_get(&set, 3, &r);
	ok(report_set_percent(&set, &r, PH_PUT_BLOCK, &pct) && pct == 0 &&
	    report_set_is_base(&set, 3, -1),
	    "x 2G:8k against the base at 2G and 8k: itself");
	report_set_free(&set);

	/* the same name at 1G by 4k and 8k and at 2G by 4k: no grid, so the
	 * 1G results are a chunk sweep and the 2G one is alone */
	report_set_init(&set);
	load(&set, "x,1G:4k,,,1,1,,,,,,,,,,,,,,,,,,,,,\n"
	    "x,2G:4k,,,1,1,,,,,,,,,,,,,,,,,,,,,\n"
	    "x,1G:8k,,,1,1,,,,,,,,,,,,,,,,,,,,,\n");
	ok(report_set_sweeps(&set) == 0 && set.nsweeps == 1 &&
	    set.sweeps[0].nsizes == 1 && set.sweeps[0].nchunks == 2 &&
	    report_set_place(&set, 1)->sweep == -1,
	    "x at 1G by 4k and 8k, at 2G by 4k: a chunk sweep, 2G alone");
	report_set_free(&set);
}

/* A run's table and the table of its CSV line agree, for seeks too. */
static void test_seeks(void)
{
	static const double rates[] = { 999.96, 597243.4999999, 318.14999,
	    1000.04, 12345.5 };
	char a[2048], b[2048], line[1024], s[32];
	struct result run, back;
	size_t i;
	int c;

	fmt_seeks(s, sizeof(s), 999.96, true);
	is_str(s, "1000.0", "1.0x seeks: always one decimal");
	fmt_seeks(s, sizeof(s), 999.96, false);
	is_str(s, "1000", "1.9x seeks: whole from 1000 on, decided on the "
	    "written value");
	for (c = 0; c < 2; c++) {
		const struct csv_layout *l = csv_layout_for((enum compat)c);
		int same = 0;

		for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
			FILE *f;

			synthetic(&run, c == 1);
			run.cell[PH_SEEKS].status = CELL_OK;
			run.cell[PH_SEEKS].rate = rates[i];
			run.cell[PH_SEEKS].cpu = 1;
			write_back(line, sizeof(line), l, &run);
			rd(line, &back, NULL);
			f = fmemopen(a, sizeof(a), "w");
			report_text(f, (enum compat)c, &run);
			fclose(f);
			f = fmemopen(b, sizeof(b), "w");
			report_text(f, (enum compat)c, &back);
			fclose(f);
			same += strcmp(a, b) == 0;
		}
		is_int(same, 5, c ? "2.00: seeks 999.96 to 597243.5, the run's "
		    "table is its line's" : "1.03: seeks 999.96 to 597243.5, "
		    "the run's table is its line's");
	}
}

/*
 * clyde -x 3's summary, of three records whose figures are known: block
 * writes of 100, 110 and 120 K/s (mean 110, sd 10, CV 9.1 %), seeks of
 * 100, 150 and 200 (mean 150, sd 50, CV 33.3 %), seq_stat +++++ in all.
 * With t(0.975, 2) = 4.302653 (any table of Student's t), the 95 %
 * interval of the mean is 110 +- 24.84 (22.6 %) and 150 +- 124.2 (82.8 %).
 */
static void test_summary(void)
{
	static const double pb[3] = { 120, 100, 110 }, sk[3] = { 150, 200, 100 };
	struct report_set set;
	struct result r;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	report_set_init(&set);
	for (i = 0; i < 3; i++) {
		csv_result_clear(&r);
		strcpy(r.generation, "1.0x");
		strcpy(r.name, "box");
		r.has_io = r.has_files = true;
		r.file_size_mib = 8;
		r.files.count_k = 1;
		r.cell[PH_PUT_BLOCK] = (struct cell){ CELL_OK, pb[i], 0, 10, -1, false, false };
		r.cell[PH_SEEKS] = (struct cell){ CELL_OK, sk[i], 0, 1, -1, false, false };
		r.cell[PH_SEQ_STAT] = (struct cell){ CELL_TOO_FAST, 0, 0, -1, -1, false, false };
		report_set_add(&set, &r);
	}
	f = open_memstream(&text, &len);
	if (!ok(f != NULL && report_set_average(&set) == 0, "the summary's set"))
		return;
	report_summary(f, &set);
	fclose(f);
	is_str(text, "clyde: 3 runs: the median of each phase, +- the half-width "
	    "of the 95% interval of the mean\n"
	    "  Block write               110 K/s  +-22.6%\n"
	    "  Random seeks            150.0 /s   +-82.8%\n"
	    "  Sequential read    +++++ in 3 runs\n"
	    "clyde: runs vary by more than 10% (CV) in: Random seeks (33.3%)\n",
	    "-x 3 summary: medians, the half-widths of the intervals, the CV "
	    "over 10 % named, +++++ said");
	free(text);
	report_set_free(&set);
}

/*
 * The median of -x 3 is the figure of one of the three CSV lines, which
 * truncate a rate (bonnie++'s "%d" of it): block writes of 276900.2,
 * 276951.7 and 277000.9 K/s print 276951, the middle line's, not
 * 276952.
 */
static void test_summary_median(void)
{
	static const double pb[3] = { 277000.9, 276900.2, 276951.7 };
	struct report_set set;
	struct result r;
	char *text = NULL, line[4096];
	size_t len = 0;
	FILE *f;
	int i;

	report_set_init(&set);
	for (i = 0; i < 3; i++) {
		csv_result_clear(&r);
		strcpy(r.generation, "1.0x");
		strcpy(r.name, "box");
		r.has_io = true;
		r.file_size_mib = 8;
		r.cell[PH_PUT_BLOCK] = (struct cell){ CELL_OK, pb[i], 0, 10, -1, false, false };
		report_set_add(&set, &r);
	}
	f = fmemopen(line, sizeof(line), "w");
	if (f != NULL) {
		csv_write_row(f, csv_layout_of_tag("1.0x"), &r);
		fclose(f);
	}
	ok(f != NULL && strstr(line, ",276951,10,") != NULL,
	    "the CSV line of 276951.7 K/s says 276951");
	f = open_memstream(&text, &len);
	if (!ok(f != NULL && report_set_average(&set) == 0, "the summary's set"))
		return;
	report_summary(f, &set);
	fclose(f);
	ok(text != NULL && strstr(text, "  Block write            276951 K/s") != NULL &&
	    strstr(text, "276952") == NULL,
	    "-x 3 summary: the median block write 276951, the CSV line's figure");
	free(text);
	report_set_free(&set);
}

int main(void)
{
	test_corpus_lines();
	test_values();
	test_dirs_chunk();
	test_commas();
	test_bad();
	test_round_trips();
	test_seeks();
	test_stream();
	test_average();
	test_compare();
	test_sweeps();
	test_summary();
	test_summary_median();
	return tap_done();
}
