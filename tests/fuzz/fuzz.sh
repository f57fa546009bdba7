#!/bin/sh
# Fuzz the reader of clyde report for FUZZ_SECONDS (default 15) with
# libFuzzer, seeded with the corpus of real bonnie++ output, the tables of
# tests/fixtures/tables, the web pages of tests/fixtures/pages (bon_csv2html's
# tables, inline markup, a page run onto one line), the 2.00a golden
# files and clyde's JSON records, of a tiny run and of clyde report
# (./clyde, when it is built).  A TAP skip when clang
# or its fuzzer runtime is missing (Debian: clang and libclang-rt-14-dev).
# `make fuzz` runs it longer.
cd "$(dirname "$0")/../.." || exit 1
seconds=${FUZZ_SECONDS:-15}
work=$(mktemp -d "${TMPDIR:-/tmp}/clyde-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

echo "1..1"
# the reader's side of the tree: the stages below clyde report's command
# (src/README), but the --json keeper, and the version make wrote
src=$(ls src/lib/*.c src/core/*.c src/in/*.c src/report/*.c src/out/*.c |
    grep -v '^src/out/output_file\.c$')
src="$src build/version.c"
[ -f build/version.c ] || { echo "not ok 1 - no build/version.c: run make first"; exit 1; }
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\n%s\n' \
    'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d[0] && n; }' \
    > "$work/probe.c"
if ! command -v clang >/dev/null || ! clang -fsanitize=fuzzer \
    -o "$work/probe" "$work/probe.c" 2>/dev/null; then
	echo "ok 1 # skip clang with libFuzzer is not installed"
	exit 0
fi
# a reader that no longer builds (a source missing here) fails, never skips
if ! clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 \
    -Isrc -Iinclude -g -O1 -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -o "$work/fuzz_reader" \
    tests/fuzz/fuzz_reader.c $src -lm 2>"$work/cc.log"; then
	echo "not ok 1 - the fuzz target does not build"
	tail -20 "$work/cc.log" | sed 's/^/# /'
	exit 1
fi
mkdir "$work/corpus"
cp tests/fixtures/corpus/* tests/fixtures/golden/*.txt "$work/corpus/"
for f in tests/fixtures/tables/*.txt; do cp "$f" "$work/corpus/table_${f##*/}"; done
for f in tests/fixtures/pages/*; do cp "$f" "$work/corpus/page_${f##*/}"; done
cut -f6 tests/fixtures/csv_lines.tsv > "$work/corpus/lines.txt"
# clyde's JSON records, made here: a run's and one of results read
./clyde -d "$work" -u "$(id -un)" -m fuzzbox -s 8 -r 0 -n 1 -f -q --precise \
    --json="$work/corpus/run.json" >/dev/null 2>&1
./clyde report --json --average tests/fixtures/opengfs/* \
    >"$work/corpus/report.json" 2>/dev/null
# -rss_limit_mb: the reader holds its buffers; a growing process fails
if "$work/fuzz_reader" -max_total_time="$seconds" -rss_limit_mb=512 \
    -max_len=65536 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
	echo "ok 1 - $seconds s of fuzzing the reader, $runs inputs, no crash"
else
	echo "not ok 1 - the fuzzer found a crash"
	tail -40 "$work/log" | sed 's/^/# /'
	for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
		[ -f "$a" ] || continue
		mkdir -p fuzz-artifacts && cp "$a" fuzz-artifacts/
		echo "# kept as fuzz-artifacts/$(basename "$a")"
	done
	exit 1
fi
