#!/bin/sh
# Does the depth of the files directory under the mount point move ext4's
# small-file rates?  bonnie++ makes its files in DIR/Bonnie.PID, clyde in
# DIR/clyde.PID.XXXXXX/Bonnie.PID, one level deeper.  On ext4 a directory
# made in the root of the filesystem is placed by the Orlov rule for top
# directories (spread over the groups), a deeper one near its parent, and
# the files follow their directory.  Here bonnie++ 2.00a runs with -d the
# mount point and with -d a directory under it, beside clyde with -d the
# mount point, each run on a freshly made ext4, rounds in rotated order.
#
#   sudo tests/bench/files_depth.sh         (as root; about 12 minutes on 2 cores)
#
# Settings, from the environment (defaults in brackets):
#   RUNS [5]        rounds
#   ARGS ["-s 0 -n 256 -q"]  the options of every run
#   CLYDE [unset]   a clyde binary; else built from this tree's sources
#   BONNIE [/usr/sbin/bonnie++]
#   KEEP [unset]    a directory to copy the raw outputs to
#   REPORT [unset]  a KEEP directory: print its report again, run nothing
set -eu

RUNS=${RUNS:-5}
ARGS=${ARGS:--s 0 -n 256 -q}
BONNIE=${BONNIE:-/usr/sbin/bonnie++}
KEEP=${KEEP:-}
NAME=files_depth.sh
TARGETS=ext4

. "$(dirname "$0")/bench_lib.sh"

one_run() {  # round tool
	r=$1 tool=$2
	out=$work/raw/$tool.$r
	mount_target ext4
	d=$mnt
	case $tool in
	bonnie) set -- "$BONNIE" ;;
	bonnie_sub) d=$mnt/sub; mkdir "$d"; set -- "$BONNIE" ;;
	clyde) set -- "$CLYDE" --compat=2.00 ;;
	esac
	drop_caches
	# shellcheck disable=SC2086
	if "$@" -d "$d" -u root $ARGS >"$out.csv" 2>"$out.err"; then
		rec_csv ext4 "$tool" "$r" "$out.csv"
	else
		echo "$NAME: $tool failed in round $r:" >&2
		cat "$out.err" >&2
	fi
	unmount_targets
	rm -rf "$mnt" "$work/ext4.img"
}

report() {
awk -v runs="$RUNS" -v phases="$PHASES" -v args="$ARGS" "$BENCH_AWK"'
{ val[$1, $2, $3, $4] = $5; if ($3 > done) done = $3 }
END {
	np = split(phases, ph, " ")
	printf "ext4, a fresh one for every run, %d rounds, options %s\n", done, args
	print "bonnie++ -d MNT (files at depth 1), -d MNT/sub (depth 2); clyde -d MNT (depth 2)"
	print "median rates; median of per-round ratios"
	print legend()
	printf "%-11s %9s %9s %9s %9s %9s %9s\n", "phase", "bonnie++", "b++ sub",
	    "clyde", "sub/b ", "c/b ", "c/sub "
	for (p = 1; p <= np; p++) {
		k = ph[p]
		if (rate("ext4", "clyde", k) == "-") continue
		printf "%-11s %9s %9s %9s %9s %9s %9s\n", k,
		    rate("ext4", "bonnie", k), rate("ext4", "bonnie_sub", k),
		    rate("ext4", "clyde", k),
		    ratio("ext4", "bonnie_sub", "bonnie", k),
		    ratio("ext4", "clyde", "bonnie", k),
		    ratio("ext4", "clyde", "bonnie_sub", k)
	}
}' "$work/results"
}

bench_kept_report ARGS
[ "$(id -u)" = 0 ] || die "run as root: it makes and mounts an ext4 on a loop device"
[ -x "$BONNIE" ] || die "no bonnie++ at $BONNIE"
bench_start depth
r=1
while [ "$r" -le "$RUNS" ]; do
	order=$(rotated "$r" bonnie bonnie_sub clyde)
	say "round $r/$RUNS: $order"
	for tool in $order; do
		one_run "$r" "$tool"
	done
	r=$((r + 1))
done
report
