#!/bin/sh
# How fast clyde report reads and prints: 100,000 CSV lines (a mix of
# the 1.03 and 1.98 lines of the corpus list) read and printed as the
# text table, then 100,000 text tables (the tables of
# tests/fixtures/tables, without their CSV lines, one after another).
# Prints the best wall time of three runs of each, and the CPU time and
# peak memory of the last (a busy machine stretches the wall time, not
# the CPU time); the targets are under one second for the lines and
# under two for the tables.
# Usage: tests/bench/report_speed.sh [COUNT] [FORMAT] [OPTION...]
# e.g. tests/bench/report_speed.sh 100000 --text --average --compare=NVMe_4G
cd "$(dirname "$0")/../.." || exit 1
count=${1:-100000}
format=${2:---text}
shift 2 2>/dev/null || shift $#
work=$(mktemp -d "${TMPDIR:-/tmp}/clyde-speed.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
[ -x ./clyde ] || make -s clyde || exit 1

# the corpus lines that read, repeated to the count
cut -f6 tests/fixtures/csv_lines.tsv | grep -v -e '^line$' -e ',kubuntu,' \
    > "$work/seed"
awk -v n="$count" '{ l[NR] = $0 } END { for (i = 0; i < n; i++)
    print l[i % NR + 1] }' "$work/seed" > "$work/in.csv"

# the tables alone, each ended by a blank line, repeated to the count
for f in tests/fixtures/tables/*.txt; do
	case $f in *multi*) continue ;; esac
	grep -v -e ',' -e '^###' -e '^rc=' "$f"
	echo
done > "$work/tables"
awk -v n="$count" 'BEGIN { RS = ""; ORS = "\n\n" } { t[NR] = $0 }
    END { for (i = 0; i < n; i++) print t[i % NR + 1] }' "$work/tables" \
    > "$work/in.txt"

# best INPUT WHAT [OPTION...]: the best wall time of three runs, and the last run's peak RSS
best() {
	in=$1 what=$2
	shift 2
	echo "input: $(wc -l < "$in") lines, $(wc -c < "$in") bytes"
	b=
	for run in 1 2 3; do
		start=$(date +%s.%N)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%M KiB, CPU %U s user %S s system' \
			    -o "$work/rss" ./clyde report "$format" "$@" \
			    "$in" > "$work/out" || exit 1
		else
			./clyde report "$format" "$@" "$in" > "$work/out" || exit 1
		fi
		end=$(date +%s.%N)
		t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
		echo "run $run: ${t}s"
		if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then
			b=$t
		fi
	done
	echo "output: $(wc -l < "$work/out") lines"
	[ -f "$work/rss" ] && echo "last run: peak RSS $(cat "$work/rss")"
	echo "best: ${b}s for $count $what ($format $*)"
}

best "$work/in.csv" "CSV lines" "$@"
best "$work/in.txt" "text tables" "$@"
