#!/bin/sh
# What clyde's own machinery costs the phases it measures: default clyde
# beside bonnie++ 2.00a with the same options, and beside clyde --stall=0
# (no stall watcher), on a fresh tmpfs and on a fresh loop-mounted ext4.
#
#   sudo tests/bench/self_cost.sh          (as root; about 20 minutes on 2 cores)
#   sudo CLYDE=/path/to/clyde tests/bench/self_cost.sh
#   sudo BEFORE=/path/to/older/clyde tests/bench/self_cost.sh
#
# Per target, RUNS rounds of the three runs, each round in another order
# (rotated), so that no run is always first after the target was made.
# Printed per phase: the median of the per-round ratios (the two runs of
# a ratio met the same noise), and cpu/op: clyde's CPU time per unit of
# work (%CP over the rate) over bonnie++'s, median of per-round ratios.
#
# Settings, from the environment (defaults in brackets):
#   RUNS [5]        rounds on each target
#   ARGS ["-s 512 -f32 -r 0 -n 384 -q"]  the options of all three runs
#   TARGETS ["tmpfs ext4"]
#   CLYDE [unset]   a clyde binary; else built from this tree's sources
#   BEFORE [unset]  another clyde (an older build) run with its default
#                   options in every round too, and set beside the same
#                   bonnie++ and --stall=0 runs
#   BONNIE [/usr/sbin/bonnie++]
#   KEEP [unset]    a directory to copy the raw outputs to
#   REPORT [unset]  a KEEP directory: print its report again, run nothing
set -eu

RUNS=${RUNS:-5}
ARGS=${ARGS:--s 512 -f32 -r 0 -n 384 -q}
TARGETS=${TARGETS:-tmpfs ext4}
BONNIE=${BONNIE:-/usr/sbin/bonnie++}
KEEP=${KEEP:-}
NAME=self_cost.sh

. "$(dirname "$0")/bench_lib.sh"

one_run() {  # target dir round tool
	out=$work/raw/$1.$4.$3
	drop_caches
	case $4 in
	bonnie) set -- "$1" "$2" "$3" "$4" "$BONNIE" ;;
	clyde) set -- "$1" "$2" "$3" "$4" "$CLYDE" --compat=2.00 ;;
	stall0) set -- "$1" "$2" "$3" "$4" "$CLYDE" --compat=2.00 --stall=0 ;;
	before) set -- "$1" "$2" "$3" "$4" "$BEFORE" --compat=2.00 ;;
	esac
	t=$1 d=$2 r=$3 tool=$4
	shift 4
	# shellcheck disable=SC2086
	if "$@" -d "$d" -u root $ARGS >"$out.csv" 2>"$out.err"; then
		rec_csv "$t" "$tool" "$r" "$out.csv"
	else
		echo "$NAME: $tool failed on $t, round $r:" >&2
		cat "$out.err" >&2
	fi
}

# the report from $work/results (also of the rounds done when stopped)
report() {
awk -v runs="$RUNS" -v phases="$PHASES" -v targets="$TARGETS" \
    -v args="$ARGS" -v before="${BEFORE:+1}" "$BENCH_AWK"'
# table T TOOL SHORT: the rates of TOOL on target T beside --stall=0 and bonnie++
function table(t, tool, c,   p, key) {
	printf "%-11s %10s %10s %10s %8s %8s %9s %9s\n", "phase", tool,
	    "stall=0", "bonnie++", c "/b ", c "/s0 ", "cpu " c "/b ",
	    "cpu " c "/s0 "
	for (p = 1; p <= np; p++) {
		key = ph[p]
		if (rate(t, tool, key) == "-") continue
		printf "%-11s %10s %10s %10s %8s %8s %9s %9s\n", key,
		    rate(t, tool, key), rate(t, "stall0", key),
		    rate(t, "bonnie", key), ratio(t, tool, "bonnie", key),
		    ratio(t, tool, "stall0", key),
		    ratio(t, tool, "bonnie", key "_cpu"),
		    ratio(t, tool, "stall0", key "_cpu")
	}
}
{ val[$1, $2, $3, $4] = $5; if ($3 > done[$1]) done[$1] = $3 }
END {
	np = split(phases, ph, " ")
	nt = split(targets, tg, " ")
	printf "clyde --compat=2.00 %s (default, and --stall=0) vs bonnie++ %s\n", args, args
	print "median of per-round ratios, rounds in rotated order"
	print legend()
	for (k = 1; k <= nt; k++) {
		t = tg[k]
		if (!(t in done)) continue
		printf "\n[%s] %d rounds\n", t, done[t]
		table(t, "clyde", "c")
		if (!before) continue
		printf "BEFORE, the other clyde, default options, in the same rounds\n"
		table(t, "before", "b")
	}
}' "$work/results"
}

bench_kept_report ARGS TARGETS BEFORE
[ "$(id -u)" = 0 ] || die "run as root: it mounts a tmpfs and a loop ext4"
[ -x "$BONNIE" ] || die "no bonnie++ at $BONNIE"
bench_start selfcost
for t in $TARGETS; do
	mount_target "$t"
	r=1
	while [ "$r" -le "$RUNS" ]; do
		# round r starts at the r-th tool: each goes first in turn
		order=$(rotated "$r" clyde stall0 bonnie${BEFORE:+ before})
		say "$t round $r/$RUNS: $order"
		for tool in $order; do
			one_run "$t" "$mnt" "$r" "$tool"
		done
		r=$((r + 1))
	done
done
report
