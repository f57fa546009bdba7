/*
 * unit_json_read: the JSON parser (src/lib/json_read.c) against RFC 8259,
 * and the reader of clyde's records (src/in/json.c) against clyde(1), The
 * JSON record and REPORT.
 *
 * The expected values are the RFC's (its grammar of section 2 to 7, the
 * texts of its section 13, the G clef of section 7) and the man page's
 * (the numbers it names as refused, two members of one name, the
 * schema_version rule, \u00XX as a byte); none is taken from clyde's own
 * output.  Where the parser departs from the RFC the case is a TODO.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "in/json.h"
#include "lib/json_read.h"
#include "tap.h"

static char why[256];
static unsigned long line;

/* json_parse of a string; 0 or -1, why and line set; the tree freed */
static int parse(const char *text)
{
	struct json_value v;
	int rc;

	why[0] = '\0';
	rc = json_parse(text, strlen(text), &v, why, sizeof(why), &line);
	if (rc == 0)
		json_free(&v);
	return rc;
}

/* refused: json_parse fails, and its reason has want in it */
static int refused(const char *text, const char *want)
{
	return parse(text) != 0 && strstr(why, want) != NULL;
}

/* the string that text (one JSON string) decodes to, or NULL */
static char *decoded(const char *text)
{
	static char out[64];
	struct json_value v;

	if (json_parse(text, strlen(text), &v, why, sizeof(why), &line) != 0)
		return NULL;
	if (v.type != JSON_STRING || strlen(v.string) >= sizeof(out)) {
		json_free(&v);
		return NULL;
	}
	strcpy(out, v.string);
	json_free(&v);
	return out;
}

/* the number that text (one JSON number) is, or -12345 */
static double number_of(const char *text)
{
	struct json_value v;
	double d = -12345;

	if (json_parse(text, strlen(text), &v, why, sizeof(why), &line) != 0)
		return d;
	if (v.type == JSON_NUMBER)
		d = v.number;
	json_free(&v);
	return d;
}

/* RFC 8259, section 13: its two examples of JSON texts */
static void rfc_examples(void)
{
	static const char image[] =
	    "{\n"
	    "  \"Image\": {\n"
	    "      \"Width\":  800,\n"
	    "      \"Height\": 600,\n"
	    "      \"Title\":  \"View from 15th Floor\",\n"
	    "      \"Thumbnail\": {\n"
	    "          \"Url\":    \"http://www.example.com/image/481989943\",\n"
	    "          \"Height\": 125,\n"
	    "          \"Width\":  100\n"
	    "      },\n"
	    "      \"Animated\" : false,\n"
	    "      \"IDs\": [116, 943, 234, 38793]\n"
	    "    }\n"
	    "}\n";
	static const char places[] =
	    "[\n"
	    "  {\n"
	    "     \"precision\": \"zip\",\n"
	    "     \"Latitude\":  37.7668,\n"
	    "     \"Longitude\": -122.3959,\n"
	    "     \"Address\":   \"\",\n"
	    "     \"City\":      \"SAN FRANCISCO\",\n"
	    "     \"State\":     \"CA\",\n"
	    "     \"Zip\":       \"94107\",\n"
	    "     \"Country\":   \"US\"\n"
	    "  },\n"
	    "  {\n"
	    "     \"precision\": \"zip\",\n"
	    "     \"Latitude\":  37.371991,\n"
	    "     \"Longitude\": -122.026020,\n"
	    "     \"Address\":   \"\",\n"
	    "     \"City\":      \"SUNNYVALE\",\n"
	    "     \"State\":     \"CA\",\n"
	    "     \"Zip\":       \"94085\",\n"
	    "     \"Country\":   \"US\"\n"
	    "  }\n"
	    "]\n";
	const struct json_value *img, *thumb, *ids;
	struct json_value v;
	int rc;

	rc = json_parse(image, strlen(image), &v, why, sizeof(why), &line);
	ok(rc == 0, "RFC 8259 section 13: the Image object is read");
	img = json_get(&v, "Image");
	thumb = json_get(img, "Thumbnail");
	ids = json_get(img, "IDs");
	ok(rc == 0 && img != NULL && img->type == JSON_OBJECT && img->n == 6,
	    "the Image object: six members");
	ok(json_get(img, "Width") != NULL && json_get(img, "Width")->number == 800 &&
	    json_get(img, "Height")->number == 600,
	    "Width 800, Height 600");
	is_str(json_get(img, "Title") ? json_get(img, "Title")->string : NULL,
	    "View from 15th Floor", "Title, a string with blanks");
	is_str(json_get(thumb, "Url") ? json_get(thumb, "Url")->string : NULL,
	    "http://www.example.com/image/481989943",
	    "Thumbnail.Url, a nested object's member");
	ok(json_get(img, "Animated") != NULL &&
	    json_get(img, "Animated")->type == JSON_FALSE, "Animated: false");
	ok(ids != NULL && ids->type == JSON_ARRAY && ids->n == 4 &&
	    ids->items[0].number == 116 && ids->items[3].number == 38793,
	    "IDs: an array of four numbers, in order");
	ok(json_get(&v, "image") == NULL && json_get(img, "Nothing") == NULL,
	    "json_get: names are case-sensitive, a missing member is NULL");
	if (rc == 0)
		json_free(&v);

	rc = json_parse(places, strlen(places), &v, why, sizeof(why), &line);
	ok(rc == 0 && v.type == JSON_ARRAY && v.n == 2,
	    "RFC 8259 section 13: the array of two places is read");
	ok(rc == 0 && json_get(&v.items[0], "Latitude")->number == 37.7668 &&
	    json_get(&v.items[1], "Longitude")->number == -122.026020,
	    "the places' fractions and negative numbers");
	is_str(rc == 0 ? json_get(&v.items[1], "Address")->string : NULL, "",
	    "an empty string");
	ok(json_get(&v.items[1], "Zip") != NULL &&
	    json_get(&v.items[1], "Zip")->type == JSON_STRING,
	    "\"94107\" stays a string");
	if (rc == 0)
		json_free(&v);

	/* "Here are three small JSON texts containing only values" */
	is_str(decoded("\"Hello world!\""), "Hello world!",
	    "a text that is a string alone");
	ok(number_of("42") == 42, "a text that is a number alone: 42");
	ok(parse("true") == 0 && parse("false") == 0 && parse("null") == 0,
	    "a text that is true, false or null alone");
}

/* RFC 8259, section 2: structure, whitespace, literals */
static void structure(void)
{
	ok(parse(" \t\r\n[ 1 , \n 2 ]\r\n ") == 0,
	    "the four whitespace characters around and between tokens");
	ok(parse("[]") == 0 && parse("{}") == 0 && parse("[[],{}]") == 0,
	    "empty arrays and objects");
	ok(refused("", "ends before a value") && refused(" \n ", "ends before"),
	    "an empty text, or blanks alone: refused");
	ok(refused("[1,2", "without ',' or ']'") && refused("[", "ends") &&
	    refused("{\"a\":1", "without ',' or '}'"),
	    "an array or object not closed: refused");
	ok(refused("[1,]", "not a JSON value") &&
	    refused("{\"a\":1,}", "without its name") &&
	    refused("[,1]", "not a JSON value"),
	    "a trailing or leading comma: refused");
	ok(refused("[1 2]", "without ','") &&
	    refused("{\"a\":1 \"b\":2}", "without ','"),
	    "values without a comma between: refused");
	ok(refused("{\"a\" 1}", "without ':'") && refused("{a:1}", "without its name") &&
	    refused("{'a':1}", "without its name") && refused("{1:1}", "without its name"),
	    "a member without its quoted name and ':': refused");
	ok(refused("{\"a\":}", "not a JSON value") && refused("[1]]", "more text") &&
	    refused("[1] x", "more text") && refused("1 2", "more text"),
	    "a member without a value, text after the value: refused");
	ok(refused("[1,\f2]", "not a JSON value") && refused("[1,\v2]", "not a JSON value"),
	    "form feed and vertical tab are no whitespace: refused");
	ok(refused("tru", "not a JSON value") && refused("True", "not a JSON value") &&
	    refused("nul", "not a JSON value") && refused("[nulll]", "without ','") &&
	    refused("NaN", "not a JSON") && refused("Infinity", "not a JSON"),
	    "literals other than true, false, null (lower case): refused");
	ok(refused("\xef\xbb\xbf[1]", "not a JSON value"),
	    "a byte order mark, which RFC 8259 says not to add: refused");
	ok(refused("[1,\n2,\n01]", "'01'") && line == 3,
	    "the line of an error is counted from 1 (line 3)");
}

/* RFC 8259, section 6: the grammar of numbers */
static void numbers(void)
{
	static const struct {
		const char *text;
		double value;
	} good[] = {
		{ "0", 0 }, { "-0", 0 }, { "1", 1 }, { "-1", -1 }, { "10", 10 },
		{ "1.5", 1.5 }, { "-0.25", -0.25 }, { "1e2", 100 }, { "1E2", 100 },
		{ "1e+2", 100 }, { "1e-2", 0.01 }, { "2.5E-1", 0.25 },
		{ "0.0", 0 }, { "123456789", 123456789 }, { "-1.5e3", -1500 },
	};
	/* the man page names 01 +1 .5 1. 1e 0x1 */
	static const char *const bad[] = {
		"01", "-01", "00", "+1", ".5", "-.5", "1.", "1.e5", "1e", "1e+",
		"1E-", "-", "--1", "0x1", "1f", "1.5.5", "1e5e5", "- 1",
	};
	char name[96];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(name, sizeof(name), "the number %s is %g", good[i].text,
		    good[i].value);
		ok(number_of(good[i].text) == good[i].value, name);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "'%s' is no JSON number: refused",
		    bad[i]);
		ok(parse(bad[i]) != 0, name);
	}
	ok(refused("[0x1]", "'0x1' is not a JSON number") &&
	    refused("[1.e5]", "'1.e5' is not a JSON number"),
	    "the word refused is named whole: '0x1', '1.e5' (clyde(1), REPORT)");
	ok(number_of("-0") == 0 && number_of("1e400") > 1e308,
	    "-0 and a number beyond a double's range (RFC 8259 section 6 lets "
	    "an implementation limit the range)");
	todo(number_of("0.00000000000000000000000000000000000000000000000000"
	    "000000000000001") > 0,
	    "a number of 64 characters or more is cut and refused",
	    "a number of any length that the grammar allows is read");
}

/* RFC 8259, section 7: strings */
static void strings(void)
{
	char *s;

	is_str(decoded("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\""),
	    "\" \\ / \b \f \n \r \t", "the two-character escapes of section 7");
	is_str(decoded("\"\\u0041\\u005a\\u0061\""), "AZa",
	    "\\u escapes of ASCII, hex digits in either case");
	is_str(decoded("\"\\u005C\""), "\\",
	    "RFC 8259 section 7: \\u005C is a reverse solidus");
	s = decoded("\"\\u00e9\"");
	ok(s != NULL && strcmp(s, "\xe9") == 0,
	    "\\u00e9 is the byte 0xe9, as clyde writes a byte that is not "
	    "UTF-8 (clyde(1), REPORT)");
	is_str(decoded("\"\\u20AC\""), "\xe2\x82\xac",
	    "\\u20AC (the euro sign) is its UTF-8, three bytes");
	is_str(decoded("\"\\uD834\\uDD1E\""), "\xf0\x9d\x84\x9e",
	    "RFC 8259 section 7: the G clef \\uD834\\uDD1E, a surrogate pair, "
	    "is U+1D11E in UTF-8");
	is_str(decoded("\"caf\xc3\xa9 \xe2\x82\xac\""), "caf\xc3\xa9 \xe2\x82\xac",
	    "UTF-8 in a string is kept as it is");
	ok(parse("\"\\uD834\"") == 0 && parse("\"\\uDD1E\"") == 0,
	    "a lone surrogate escape is read (section 8.2: the grammar allows "
	    "it)");
	s = decoded("\"\\uD834\\u0041\"");
	todo(s != NULL && strlen(s) > 0 && s[strlen(s) - 1] == 'A',
	    "the escape after a high surrogate is dropped when it is no low one",
	    "a high surrogate then \\u0041: the A is kept");
	todo(parse("\"a\\u0000b\"") == 0,
	    "\\u0000 is refused (\"a NUL character in a string\")",
	    "\\u0000, which section 7 lets a string escape, is read");

	ok(refused("\"abc", "without its closing quote") &&
	    refused("[\"abc]", "without its closing quote") &&
	    refused("\"abc\\\"", "without its closing quote"),
	    "an unterminated string (one that ends in \\\" too): refused");
	ok(refused("\"\\x41\"", "unknown escape") && refused("\"\\'\"", "unknown escape") &&
	    refused("\"\\U0041\"", "unknown escape") && refused("\"\\a\"", "unknown escape") &&
	    refused("\"\\0\"", "unknown escape"),
	    "escapes that section 7 does not list (\\x \\' \\U \\a \\0): refused");
	ok(refused("\"\\u12\"", "\\u escape") && refused("\"\\u12G4\"", "not hexadecimal") &&
	    refused("\"\\u\"", "\\u escape") && refused("\"\\uD834\\u12\"", "\\u escape"),
	    "a \\u escape without four hex digits: refused");
	ok(refused("\"a\x01" "b\"", "control character") &&
	    refused("\"a\tb\"", "control character") &&
	    refused("\"a\nb\"", "control character") &&
	    refused("\"\x1f\"", "control character"),
	    "control characters U+0000 to U+001F unescaped: refused");
	ok(parse("\"\x7f\"") == 0, "DEL (0x7f) needs no escape");
	{
		struct json_value v;

		ok(json_parse("\"a\0b\"", 5, &v, why, sizeof(why), &line) != 0 &&
		    strstr(why, "control character") != NULL,
		    "a NUL byte inside a string: refused as a control character");
		ok(json_parse("[1]\0", 4, &v, why, sizeof(why), &line) != 0 &&
		    strstr(why, "more text") != NULL,
		    "a NUL byte after the value: refused as more text");
	}
	ok(refused("[\"a\" \"b\"]", "without ','"), "two strings without a comma");
}

/* the depth limit (lib/json_read.h: JSON_MAX_DEPTH) */
static void depth(void)
{
	char deep[200001];
	int n;

	for (n = 0; n < JSON_MAX_DEPTH; n++)
		deep[n] = '[';
	deep[n] = '1';
	for (n = 0; n < JSON_MAX_DEPTH; n++)
		deep[JSON_MAX_DEPTH + 1 + n] = ']';
	deep[2 * JSON_MAX_DEPTH + 1] = '\0';
	ok(parse(deep) == 0, "arrays nested JSON_MAX_DEPTH (32) deep are read");
	memset(deep, '[', JSON_MAX_DEPTH + 2);
	memset(deep + JSON_MAX_DEPTH + 2, ']', JSON_MAX_DEPTH + 2);
	deep[2 * JSON_MAX_DEPTH + 4] = '\0';
	ok(refused(deep, "nested too deep"), "34 deep: refused as nested too deep");
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	ok(refused(deep, "nested too deep"),
	    "200000 '[': refused, the stack untouched");
	for (n = 0; n < 100000; n++)
		memcpy(deep + 2 * n, "{\"", 2);
	deep[200000] = '\0';
	ok(parse(deep) != 0, "100000 '{\"': refused");
}

/* two members of one name: clyde(1), REPORT */
static void duplicates(void)
{
	ok(refused("{\"rate\":1,\"rate\":2}", "two members named \"rate\" in one object"),
	    "two members of one name: refused, named as clyde(1) gives it");
	ok(refused("{\n\"a\":1,\n\"b\":2,\n\"a\":3}", "\"a\"") && line == 4,
	    "its line is where the second one is");
	ok(parse("{\"a\":{\"a\":1},\"b\":[{\"a\":1},{\"a\":2}]}") == 0,
	    "one name in different objects is no duplicate");
	ok(refused("[{\"x\":1},{\"y\":1,\"y\":1}]", "\"y\""),
	    "a duplicate inside an array's object: refused");
	ok(refused("{\"\":1,\"\":2}", "two members named \"\""),
	    "the empty name twice: refused");
}

struct seen {
	size_t n;
	double sum;
};

static int add_element(void *ctx, size_t i, const struct json_value *e)
{
	struct seen *s = ctx;

	if (i != s->n || e->type != JSON_OBJECT || json_get(e, "a") == NULL)
		return -1;
	s->n++;
	s->sum += json_get(e, "a")->number;
	return 0;
}

/* json_parse_deferring(): an array left as its text, read one at a time */
static void deferred(void)
{
	static const char text[] =
	    "{\"ranks\": [{\"a\": 1}, {\"a\": 2}, {\"a\": 4}], \"x\": [1]}";
	const struct json_value *r;
	struct json_value v;
	struct seen s = { 0, 0 };
	int rc;

	rc = json_parse_deferring(text, strlen(text), "ranks", &v, why,
	    sizeof(why), &line);
	r = json_get(&v, "ranks");
	ok(rc == 0 && r != NULL && r->type == JSON_SPAN && r->n == 3 &&
	    json_get(&v, "x")->type == JSON_ARRAY,
	    "a deferred array: a span of its three elements, the others parsed");
	ok(rc == 0 && json_array_each(r, add_element, &s) == 0 && s.n == 3 &&
	    s.sum == 7, "json_array_each(): each element of the span, in order");
	if (rc == 0)
		json_free(&v);
	ok(json_parse_deferring("{\"ranks\": [01]}", 15, "ranks", &v, why,
	    sizeof(why), &line) != 0 && strstr(why, "'01'") != NULL,
	    "a deferred array is checked all the same: '01' refused");
	ok(json_parse_deferring("{\"ranks\": [{\"a\":1,\"a\":2}]}", 26, "ranks",
	    &v, why, sizeof(why), &line) != 0 && strstr(why, "two members") != NULL,
	    "and its duplicate names");
}

/* --- the record reader: clyde(1), The JSON record ----------------- */

static const char *const phase[12] = {
	"putc", "put_block", "rewrite", "getc", "get_block", "seeks",
	"seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del",
};

static struct result got[4];
static int ngot;

static int take(void *ctx, struct result *res)
{
	(void)ctx;
	if (ngot < 4)
		got[ngot] = *res;
	ngot++;
	return 0;
}

static long read_records(const char *text)
{
	why[0] = '\0';
	ngot = 0;
	return json_input_read(text, strlen(text), take, NULL, why, sizeof(why),
	    &line);
}

/*
 * A record of a CSV line as the man page describes it: the settings of
 * -s and -n, every test; before is put after '{', after before the '}'.
 */
static char *record(const char *before, const char *after)
{
	static char buf[8192];
	size_t n;
	int i;

	n = (size_t)snprintf(buf, sizeof(buf), "{%s\"schema_version\": 1, "
	    "\"source\": \"csv\", \"generation\": \"1.0x\", "
	    "\"format_version\": null, \"bonnie_version\": null, "
	    "\"name\": \"box\", \"concurrency\": 1, \"seed\": null, "
	    "\"file_size\": \"64M\", \"file_size_mib\": 64, "
	    "\"io_chunk_size\": 8192, \"seeks\": 8000, \"seek_procs\": 3, "
	    "\"files\": {\"count\": 16, \"max_size\": 0, \"min_size\": 0, "
	    "\"dirs\": 1, \"chunk_size\": 8192, \"kind\": \"files\"}, "
	    "\"dirs\": null, \"tests\": {", before);
	for (i = 0; i < 12; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s\"%s\": "
		    "{\"status\": \"%s\", \"rate\": %s, \"cpu\": %s, "
		    "\"latency_us\": null, \"rate_precision\": null}",
		    i ? ", " : "", phase[i], i == 6 ? "too_fast" : "ok",
		    i == 6 ? "null" : i == 0 ? "512.5" : "1000",
		    i == 6 ? "null" : "42");
	snprintf(buf + n, sizeof(buf) - n, "}%s}", after);
	return buf;
}

static void records(void)
{
	char text[20000];

	ok(json_input_looks("{\"a\": 1}", 8) && json_input_looks(" \n[ {", 5) &&
	    json_input_looks("[]", 2) && json_input_looks("{}", 2),
	    "json_input_looks: '{' then '\"' or '}', '[' then '{' or ']'");
	ok(!json_input_looks("[b]bold[/b]", 11) && !json_input_looks("[1]", 3) &&
	    !json_input_looks("Version 1.03e", 13) && !json_input_looks("{", 1),
	    "json_input_looks: BBCode, a bare array, a table, a lone '{' are not JSON");

	ok(read_records(record("", "")) == 1 && ngot == 1,
	    "a record as The JSON record describes it: one result");
	is_str(got[0].name, "box", "its name");
	ok(got[0].file_size_mib == 64 && got[0].chunk == 8192 &&
	    got[0].seeks == 8000 && got[0].seekers == 3 &&
	    got[0].concurrency == 1, "file_size_mib, io_chunk_size, seeks, "
	    "seek_procs, concurrency");
	ok(got[0].files.count_k == 16 && got[0].files.dirs == 1 &&
	    got[0].files.max_size == 0 && got[0].files.chunk == 8192,
	    "the files object: count, dirs, max_size, chunk_size");
	ok(got[0].cell[PH_PUTC].status == CELL_OK &&
	    got[0].cell[PH_PUTC].rate == 512.5 && got[0].cell[PH_PUTC].cpu == 42 &&
	    got[0].cell[PH_RAN_DEL].rate == 1000,
	    "tests: status, rate (not truncated), cpu");
	ok(got[0].cell[PH_SEQ_CREATE].status == CELL_TOO_FAST,
	    "a too_fast test with a null rate, as from a CSV line's +++++");

	snprintf(text, sizeof(text), "[%s, ", record("", ""));
	strcat(text, record("", ""));
	strcat(text, "]");
	ok(read_records(text) == 2 && ngot == 2, "an array of two records: two results");
	ok(read_records("[]") == 0 && ngot == 0, "an empty array: no result "
	    "(clyde report names the file as one without results)");

	ok(read_records(record("\"name\": \"other\", ", "")) == -1 &&
	    strstr(why, "two members named \"name\"") != NULL,
	    "a record with two members of one name: refused, named");
	ok(read_records(record("", ", \"tests\": {}")) == -1 &&
	    strstr(why, "two members named \"tests\"") != NULL,
	    "two 'tests' objects in one record: refused");
	ok(read_records("{\"a\": 1}") == -1 &&
	    strstr(why, "record 1: tests is missing") != NULL,
	    "an object without 'tests': refused, record 1 named");
	ok(read_records("[1]") == -1 && strstr(why, "record 1") != NULL &&
	    strstr(why, "not a JSON object") != NULL,
	    "an array of a number: record 1 is not a JSON object");
	snprintf(text, sizeof(text), "[%s, 7]", record("", ""));
	ok(read_records(text) == -1 && strstr(why, "record 2") != NULL,
	    "the second record bad: record 2 named");

	snprintf(text, sizeof(text), "%s", record("", ""));
	memcpy(strstr(text, "\"schema_version\": 1"), "\"schema_version\": 2", 19);
	ok(read_records(text) == -1 && strstr(why, "schema_version 2 is newer") != NULL,
	    "schema_version 2, newer than this clyde: refused, named");
	memcpy(strstr(text, "\"schema_version\": 2"), "\"schema_version\": 0", 19);
	ok(read_records(text) == -1 && strstr(why, "schema_version 0") != NULL,
	    "schema_version 0, below 1: refused, named");
	/* records of clydes before schema_version have none: read all the same */
	snprintf(text, sizeof(text), "%s", record("", ""));
	memmove(strstr(text, "\"schema_version\": 1, "),
	    strstr(text, "\"schema_version\": 1, ") + 21,
	    strlen(strstr(text, "\"schema_version\": 1, ") + 21) + 1);
	ok(strstr(text, "schema_version") == NULL && read_records(text) == 1,
	    "a record without schema_version, as older clydes wrote: read");
	snprintf(text, sizeof(text), "%s", record("", ""));
	memcpy(strstr(text, "\"putc\": {\"status\": \"ok\""),
	    "\"putc\": {\"status\": \"no\"", 23);
	ok(read_records(text) == -1 && strstr(why, "status") != NULL,
	    "a status that is none of the man page's: refused");
}

int main(void)
{
	rfc_examples();
	structure();
	numbers();
	strings();
	depth();
	duplicates();
	deferred();
	records();
	return tap_done();
}
