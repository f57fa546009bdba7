#!/bin/sh
# Every libFuzzer target of tests/fuzz (fuzz_*.c), FUZZ_SECONDS each
# (default 15), one TAP case a target:
#   fuzz_reader     clyde report's input side, seeded with the corpus of
#                   real bonnie++ output, the tables of tests/fixtures/tables,
#                   the web pages of tests/fixtures/pages (bon_csv2html's
#                   tables, inline markup, a page run onto one line), the
#                   2.00a golden files, tables as posts paste them
#                   (comment marks, a diff, a cut Latency line, split
#                   by hand) and clyde's JSON records
#   fuzz_json_read  the JSON parser and the record reader, seeded with the
#                   same JSON records and the texts of RFC 8259
#   fuzz_options    the option parser, seeded with command lines of
#                   clyde(1), and a dictionary of the options of --help
# The JSON records are those of a tiny run and of clyde report (./clyde,
# when it is built).  A target that no longer builds fails; without clang
# or its fuzzer runtime each case is a skip (Debian: clang and
# libclang-rt-14-dev).  A crash is kept in fuzz-artifacts/.  `make fuzz`
# runs them longer.
. "$(dirname "$0")/../lib.sh"
seconds=${FUZZ_SECONDS:-15}
targets=$(ls tests/fuzz/fuzz_*.c)
count=$(printf '%s\n' "$targets" | wc -l)

# the reader's side of the tree: the stages below clyde report's command
# (src/README), but the --json keeper, and the version make wrote
src=$(ls src/lib/*.c src/core/*.c src/in/*.c src/report/*.c src/out/*.c |
    grep -v '^src/out/output_file\.c$')
src="$src build/version.c"
[ -f build/version.c ] || {
	ok 1 "no build/version.c: run make first"
	done_testing
}
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\n%s\n' \
    'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d[0] && n; }' \
    >"$WORK/probe.c"
if ! command -v clang >/dev/null || ! clang -fsanitize=fuzzer \
    -o "$WORK/probe" "$WORK/probe.c" 2>/dev/null; then
	skip "clang with libFuzzer is not installed (Debian package libclang-rt-14-dev)" \
	    "$count"
	done_testing
fi

# seeds: fuzz_reader's
mkdir "$WORK/reader" "$WORK/json" "$WORK/options"
cp tests/fixtures/corpus/* tests/fixtures/golden/*.txt "$WORK/reader/"
for f in tests/fixtures/tables/*.txt; do cp "$f" "$WORK/reader/table_${f##*/}"; done
for f in tests/fixtures/pages/*; do cp "$f" "$WORK/reader/page_${f##*/}"; done
# tables as posts paste them (tests/report/pasted_posts.sh): behind a
# comment's marks, two runs as a diff, a Latency line cut, split by hand
for f in tests/fixtures/tables/v1.97.3_default.txt tests/fixtures/tables/v2.00a_default.txt; do
	sed 's/^/# /' "$f" >"$WORK/reader/comment_${f##*/}"
	{ sed 's/^/-/' "$f"; sed 's/^/+/' "$f"; } >"$WORK/reader/diff_${f##*/}"
	grep -v -e , -e '^rc=' "$f" | sed '$s/^\(Latency.\{30\}\).*/\1/' >"$WORK/reader/cut_${f##*/}"
	{ sed -n '1,/^Latency/p' "$f"; echo; echo text; sed 's/testhost/other/' "$f" |
	  sed -n '1,/^Latency/p'; echo; sed '1,/^Latency/d' "$f"; } >"$WORK/reader/split_${f##*/}"
done
cut -f6 tests/fixtures/csv_lines.tsv >"$WORK/reader/lines.txt"
# clyde's JSON records, made here: a run's and one of results read
./clyde -d "$WORK" -u "$(id -un)" -m fuzzbox -s 8 -r 0 -n 1 -f -q --precise \
    --json="$WORK/reader/run.json" >/dev/null 2>&1
./clyde report --json --average tests/fixtures/opengfs/* \
    >"$WORK/reader/report.json" 2>/dev/null
# fuzz_json_read's: those records, RFC 8259's texts (section 13), a span
cp "$WORK"/reader/*.json "$WORK/json/" 2>/dev/null
printf '%s' '{"Image": {"Width": 800, "Height": 600, "Title": "View from 15th Floor", "Thumbnail": {"Url": "http://www.example.com/image/481989943", "Height": 125, "Width": 100}, "Animated" : false, "IDs": [116, 943, 234, 38793]}}' \
    >"$WORK/json/rfc_image.json"
printf '%s' '[{"precision": "zip", "Latitude": 37.7668, "Longitude": -122.3959, "Address": "", "City": "SAN FRANCISCO", "State": "CA", "Zip": "94107", "Country": "US"}]' \
    >"$WORK/json/rfc_places.json"
printf '%s' '{"ranks": [{"a": 1e3, "b": "\u00e9\uD834\uDD1E\n"}, {"a": -0.5}], "x": [true, false, null]}' \
    >"$WORK/json/ranks.json"
# fuzz_options's: command lines of clyde(1) (arguments between NUL bytes)
n=0
while IFS= read -r line; do
	n=$((n + 1))
	printf '%s' "$line" | tr ' ' '\000' >"$WORK/options/line$n"
done <<'EOF'
-s 64:4k:2k:5 -n 1:-2::4 -r 0 -m box -x 2 -q
--compat=2.00 -f20 -D -c 2 -s 1g -r 512 --json=-
-d /tmp -u root:0 -g 0 -y s -b --precise --progress=never
--quick --chunks=512,4k..64k --latency-over=50ms,500ms --stall=0
-s :4k:500 --sizes=1m..1g --chunks=4k,1m -r 0 --shift=1
--dirs=4:2:8 --dirs-shared -s 0 -n 0 -p -1 -z 42
-Z file --cleanup-wait=60 --fast=1m --help
--version
EOF
# the options of --help and their words, as a libFuzzer dictionary
./clyde --help 2>/dev/null | grep -oE -- '--?[a-zA-Z][a-z-]*' | sort -u |
    sed 's/.*/"&"/' >"$WORK/options.dict"
printf '"%s"\n' 1.03 2.00 auto always never root nobody k m g t .. : , \
    >>"$WORK/options.dict"

# the sources compiled once for every target, two at a time; a source
# that no longer builds fails each target
CLANG="clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 -Isrc
    -Iinclude -g -O1 -fno-sanitize-recover=undefined"
mkdir "$WORK/obj"
printf '%s\n' $src | xargs -P 2 -I{} sh -c \
    'o=$2/$(echo "$3" | tr / _).o; $1 -fsanitize=fuzzer-no-link,address,undefined -c -o "$o" "$3"' \
    sh "$CLANG" "$WORK/obj" {} >"$WORK/cc.log" 2>&1
objs=$(ls "$WORK"/obj/*.o)

# fuzz TARGET SEEDS FLAGS...: build tests/fuzz/TARGET.c, fuzz it for
# $seconds, one case
fuzz() {
	t=$1 seeds=$2
	shift 2
	if [ "$(printf '%s\n' $objs | wc -l)" != "$(printf '%s\n' $src | wc -l)" ] ||
	    ! $CLANG -fsanitize=fuzzer,address,undefined -o "$WORK/$t" \
	    "tests/fuzz/$t.c" $objs -lm 2>>"$WORK/cc.log"; then
		ok 1 "$t: the fuzz target builds"
		tail -20 "$WORK/cc.log" | diag
		return
	fi
	mkdir -p "$WORK/art.$t"
	# -rss_limit_mb: the reader holds its buffers; a growing process fails
	if "$WORK/$t" -max_total_time="$seconds" -rss_limit_mb=512 \
	    -max_len=65536 -timeout=10 -print_final_stats=1 \
	    -artifact_prefix="$WORK/art.$t/" "$@" "$WORK/$seeds" \
	    >"$WORK/$t.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$t.log")
		ok 0 "$t: $seconds s of fuzzing, $runs inputs, no crash"
		return
	fi
	ok 1 "$t: the fuzzer found a crash"
	tail -40 "$WORK/$t.log" | diag
	for a in "$WORK/art.$t"/*; do
		[ -f "$a" ] || continue
		mkdir -p fuzz-artifacts && cp "$a" "fuzz-artifacts/$t.${a##*/}"
		echo "kept as fuzz-artifacts/$t.${a##*/}" | diag
	done
}

for f in $targets; do
	t=${f##*/}
	t=${t%.c}
	case $t in
	fuzz_reader) fuzz "$t" reader ;;
	fuzz_json_read) fuzz "$t" json ;;
	# its messages to stdout and stderr closed; libFuzzer keeps its own
	fuzz_options) fuzz "$t" options -close_fd_mask=3 \
	    -dict="$WORK/options.dict" -max_len=4096 ;;
	*) fuzz "$t" json ;;
	esac
done
done_testing
