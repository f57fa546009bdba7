#!/bin/sh
# What -c costs clyde: clyde --compat=2.00 -c N beside bonnie++ 2.00a -c N
# with the same options, for each N of COPIES, on a fresh tmpfs (or
# ext4), and beside an older clyde (BEFORE) in the same rounds.
#
#   sudo tests/bench/copies_cost.sh                 (as root; 20 minutes or more on 2 cores)
#   sudo RUNS=7 COPIES=2 SIZE=512 tests/bench/copies_cost.sh
#   sudo BEFORE=/path/to/older/clyde tests/bench/copies_cost.sh
#
# Per target, RUNS rounds; in each, for each N, the runs of clyde,
# bonnie++ (and BEFORE) one after the other, each round in another order
# (rotated), caches dropped before each run.  Printed per N and phase:
# each tool's median rate, the median of the per-round ratios
# clyde/bonnie++ (c/b) and clyde/BEFORE (c/B) of the rates (the two runs
# of a ratio met the same noise), and of the CPU time per unit of work
# (%CP over the rate); with BEFORE also BEFORE/bonnie++ (B/b).
#
# bonnie++ 2.00a runs one copy whatever -c says (one data file, one set
# of small files, no process or thread for a copy: strace -f shows only
# its seeker threads); it prints the concurrency in its CSV line and
# label alone.  So c/b sets N copies of clyde, doing N times the work at
# once, beside one: on a machine with fewer cores than copies it says
# what the copies cost together, not that clyde is slower.  c/B is the
# like-for-like figure: two builds of clyde doing the same work.
#
# Settings, from the environment (defaults in brackets):
#   RUNS [5]        rounds on each target
#   COPIES ["2 4"]  the -c values
#   SIZE [256]      -s, in MiB (each copy writes this much)
#   FILES [64]      -n, in units of 1024 files (each copy)
#   PERCHAR [32]    -f, the per-char size in MiB
#   ARGS ["-r 0 -q"]  further options of every run
#   TARGETS [tmpfs] tmpfs and/or ext4
#   MOUNT_SIZE [6g] the size of the tmpfs or ext4 image
#   CLYDE [unset]   a clyde binary; else built from this tree's sources
#   BEFORE [unset]  another clyde (an older build), run in every round too
#   BONNIE [/usr/sbin/bonnie++]
#   KEEP [unset]    a directory to copy the raw outputs to
#   REPORT [unset]  a KEEP directory: print its report again, run nothing
set -eu

RUNS=${RUNS:-5}
COPIES=${COPIES:-2 4}
SIZE=${SIZE:-256}
FILES=${FILES:-64}
PERCHAR=${PERCHAR:-32}
ARGS=${ARGS:--r 0 -q}
TARGETS=${TARGETS:-tmpfs}
MOUNT_SIZE=${MOUNT_SIZE:-6g}
BONNIE=${BONNIE:-/usr/sbin/bonnie++}
KEEP=${KEEP:-}
NAME=copies_cost.sh

. "$(dirname "$0")/bench_lib.sh"
opts="-s $SIZE -n $FILES -f$PERCHAR $ARGS"

one_run() {  # target dir round tool copies
	out=$work/raw/$1.$4$5.$3
	drop_caches
	case $4 in
	bonnie) set -- "$1" "$2" "$3" "$4" "$5" "$BONNIE" ;;
	clyde) set -- "$1" "$2" "$3" "$4" "$5" "$CLYDE" --compat=2.00 ;;
	before) set -- "$1" "$2" "$3" "$4" "$5" "$BEFORE" --compat=2.00 ;;
	esac
	t=$1 d=$2 r=$3 tool=$4$5 c=$5
	shift 5
	# shellcheck disable=SC2086
	if "$@" -d "$d" -u root -c "$c" $opts >"$out.csv" 2>"$out.err"; then
		rec_csv "$t" "$tool" "$r" "$out.csv"
	else
		echo "$NAME: $tool failed on $t, round $r:" >&2
		cat "$out.err" >&2
	fi
}

# the report from $work/results (also of the rounds done when stopped)
report() {
awk -v runs="$RUNS" -v phases="$PHASES" -v targets="$TARGETS" \
    -v copies="$COPIES" -v opts="$opts" -v before="${BEFORE:+1}" "$BENCH_AWK"'
{
	val[$1, $2, $3, $4] = $5
	if ($3 > done[$1, $2]) done[$1, $2] = $3
}
# the rounds of -c n on t that some tool finished
function rounds(t, n,   m) {
	m = done[t, "clyde" n]
	if (done[t, "bonnie" n] > m) m = done[t, "bonnie" n]
	if (done[t, "before" n] > m) m = done[t, "before" n]
	return m
}
END {
	np = split(phases, ph, " ")
	nt = split(targets, tg, " ")
	nc = split(copies, cp, " ")
	printf "clyde --compat=2.00 -c N %s vs bonnie++ 2.00a -c N %s%s\n",
	    opts, opts, before ? ", and BEFORE (clyde) -c N" : ""
	print "median of per-round ratios, rounds in rotated order"
	print legend()
	print "bonnie++ 2.00a runs one copy whatever -c says: c/b is N copies beside one"
	for (k = 1; k <= nt; k++) {
		t = tg[k]
		for (j = 1; j <= nc; j++) {
			n = cp[j]
			if (!rounds(t, n)) continue
			printf "\n[%s -c %d] %d rounds\n", t, n, rounds(t, n)
			printf "%-11s %10s %10s %10s %6s %6s %6s %8s %8s\n", "phase",
			    "clyde", "bonnie++", "BEFORE", "c/b ", "c/B ", "B/b ",
			    "cpu c/b ", "cpu c/B "
			for (p = 1; p <= np; p++) {
				key = ph[p]
				if (rate(t, "clyde" n, key) == "-" &&
				    rate(t, "bonnie" n, key) == "-" &&
				    rate(t, "before" n, key) == "-") continue
				printf "%-11s %10s %10s %10s %6s %6s %6s %8s %8s\n", key,
				    rate(t, "clyde" n, key), rate(t, "bonnie" n, key),
				    rate(t, "before" n, key),
				    ratio(t, "clyde" n, "bonnie" n, key),
				    ratio(t, "clyde" n, "before" n, key),
				    ratio(t, "before" n, "bonnie" n, key),
				    ratio(t, "clyde" n, "bonnie" n, key "_cpu"),
				    ratio(t, "clyde" n, "before" n, key "_cpu")
			}
		}
	}
}' "$work/results"
}

bench_kept_report opts COPIES TARGETS BEFORE
[ "$(id -u)" = 0 ] || die "run as root: it mounts a tmpfs"
[ -x "$BONNIE" ] || die "no bonnie++ at $BONNIE"
[ -z "${BEFORE:-}" ] || [ -x "$BEFORE" ] || die "BEFORE=$BEFORE: not a program"
bench_start copiescost
for t in $TARGETS; do
	mount_target "$t"
	r=1
	while [ "$r" -le "$RUNS" ]; do
		for c in $COPIES; do
			# round r starts at the r-th tool: each goes first in turn
			order=$(rotated "$r" clyde bonnie${BEFORE:+ before})
			say "$t round $r/$RUNS, -c $c: $order"
			for tool in $order; do
				one_run "$t" "$mnt" "$r" "$tool" "$c"
			done
		done
		r=$((r + 1))
	done
	unmount_targets
done
report
