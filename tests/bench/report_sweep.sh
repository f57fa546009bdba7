#!/bin/sh
# What finding chunk sweeps costs clyde report: COUNT 1.0x lines (the
# 1.03e layout, whose size field carries the chunk, "1G:64k") of 1000
# machine names, each swept over ten chunk sizes from 4k to 2m, the
# sweeps repeated to the count (100,000 lines: ten series each), then
# the same lines all at one chunk size (no sweep) for comparison.
# Prints the CPU time and peak memory of --text, --json and --html on
# each (the wall time stretches on a busy machine, the CPU time less).
# Usage: tests/bench/report_sweep.sh [COUNT]
cd "$(dirname "$0")/../.." || exit 1
count=${1:-100000}
work=$(mktemp -d "${TMPDIR:-/tmp}/clyde-sweep.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
[ -x ./clyde ] || make -s clyde || exit 1
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)"; exit 1; }

# line i: name i/10 % 1000, chunk 4k << (i % 10); rates made up
awk -v n="$count" 'BEGIN { for (i = 0; i < n; i++) {
    c = 4 * 2 ^ (i % 10)
    printf "host%d,1G:%dk,,,%d,10,%d,5,,,%d,12,%d.0,1,,,,,,,,,,,,,\n",
        int(i / 10) % 1000, c, 1000 + i % 977, 500 + i % 331,
        2000 + i % 541, 100 + i % 97 } }' > "$work/sweeps.csv"
awk -v n="$count" 'BEGIN { for (i = 0; i < n; i++)
    printf "host%d,1G:4k,,,%d,10,%d,5,,,%d,12,%d.0,1,,,,,,,,,,,,,\n",
        int(i / 10) % 1000, 1000 + i % 977, 500 + i % 331,
        2000 + i % 541, 100 + i % 97 }' > "$work/flat.csv"

for input in sweeps flat; do
	for format in --text --json --html; do
		/usr/bin/time -f '%e s wall, %U s user %S s system, peak RSS %M KiB' \
		    -o "$work/time" ./clyde report "$format" "$work/$input.csv" \
		    > "$work/out" || exit 1
		echo "$input $format: $(grep -c 'a sweep of\|"point"\|class="series"' \
		    "$work/out") sweep marks; $(cat "$work/time")"
	done
done
