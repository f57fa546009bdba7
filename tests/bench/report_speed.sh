#!/bin/sh
# How fast clyde report reads and prints: 100,000 CSV lines (a mix of
# the 1.03 and 1.98 lines of the corpus list) read and printed as the
# text table.  Prints the best wall time of three runs; the target is
# under one second.  Usage: tests/bench/report_speed.sh [LINES] [FORMAT]
cd "$(dirname "$0")/../.." || exit 1
lines=${1:-100000}
format=${2:---text}
work=$(mktemp -d "${TMPDIR:-/tmp}/clyde-speed.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
[ -x ./clyde ] || make -s clyde || exit 1

# the corpus lines that read, repeated to the count
cut -f6 tests/report/csv_lines.tsv | grep -v -e '^line$' -e ',kubuntu,' \
    > "$work/seed"
awk -v n="$lines" '{ l[NR] = $0 } END { for (i = 0; i < n; i++)
    print l[i % NR + 1] }' "$work/seed" > "$work/in.csv"
echo "input: $(wc -l < "$work/in.csv") lines, $(wc -c < "$work/in.csv") bytes"

best=
for run in 1 2 3; do
	start=$(date +%s.%N)
	./clyde report "$format" "$work/in.csv" > "$work/out" || exit 1
	end=$(date +%s.%N)
	t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
	echo "run $run: ${t}s"
	if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then
		best=$t
	fi
done
echo "output: $(wc -l < "$work/out") lines"
echo "best: ${best}s for $lines lines ($format)"
