#!/bin/sh
# flaky.sh: runs make check again and again, with or without a background
# load, and counts per test and per case how often each failed: a suite
# that fails by chance stops good work from landing, and one failure in
# twenty is seen only over many runs.
#
#   tests/bench/flaky.sh [-n RUNS] [-l none|cpu|io|build] [-k DIR]
#	-n  how many runs of make check (default 10)
#	-l  the load beside them: none (default); cpu, one busy process a
#	    core (stress-ng --cpu when installed, else sh loops); io, a
#	    loop of writes and syncs on TMPDIR's filesystem; build, clyde
#	    built again and again in a copy of the tree with make -j NPROC
#	-k  keep each run's TAP and make output in DIR (default: a
#	    temporary directory, removed at the end)
#
# Runs in the tree it sits in, as the user who starts it (make check as
# an unprivileged user skips the root-only cases, as root it runs them).
# Prints one line per run as it ends, then the table: for each test
# (script or unit test) and case that failed at least once, failures per
# runs; a test that ended early without a failed case counts as "(ended
# early)".  Exit status 0 when no run failed, 1 otherwise.
set -u
cd "$(dirname "$0")/../.." || exit 2
runs=10 load=none keep=
while getopts n:l:k: o; do
	case $o in
	n) runs=$OPTARG ;;
	l) load=$OPTARG ;;
	k) keep=$OPTARG ;;
	*) sed -n '7,16p' "$0" | sed 's/^#//' >&2; exit 2 ;;
	esac
done
case $load in none | cpu | io | build) ;; *) echo "flaky.sh: -l: none, cpu, io or build" >&2; exit 2 ;; esac
case $runs in '' | *[!0-9]*) echo "flaky.sh: -n: a whole number" >&2; exit 2 ;; esac

if [ -n "$keep" ]; then
	mkdir -p "$keep" || exit 2
	dir=$(cd "$keep" && pwd)
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/clyde-flaky.XXXXXX") || exit 2
fi
loadpids=
scratch=
stop_load() {
	# the load's process groups, so that their children go too (no "--":
	# dash's kill takes it for a process and stops, and the wait hangs)
	for p in $loadpids; do kill -TERM "-$p" 2>/dev/null; done
	wait 2>/dev/null
	loadpids=
	[ -n "$scratch" ] && rm -rf "$scratch"
}
cleanup() {
	stop_load
	[ -n "$keep" ] || rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_load() {
	ncpu=$(nproc 2>/dev/null || echo 2)
	case $load in
	cpu)
		if command -v stress-ng >/dev/null; then
			setsid stress-ng --cpu "$ncpu" --quiet >/dev/null 2>&1 &
			loadpids=$!
		else
			i=0
			while [ $i -lt "$ncpu" ]; do
				setsid sh -c 'while :; do :; done' &
				loadpids="$loadpids $!"
				i=$((i + 1))
			done
		fi ;;
	io)
		scratch=$(mktemp -d "${TMPDIR:-/tmp}/clyde-flaky-io.XXXXXX") || exit 2
		setsid sh -c 'while :; do
			dd if=/dev/zero of="$1/f" bs=1M count=256 conv=fsync 2>/dev/null
			rm -f "$1/f"; done' sh "$scratch" &
		loadpids=$! ;;
	build)
		scratch=$(mktemp -d "${TMPDIR:-/tmp}/clyde-flaky-build.XXXXXX") || exit 2
		cp -r src include Makefile "$scratch"/
		setsid sh -c 'cd "$1" && while :; do
			make -s -j"$2" clyde >/dev/null 2>&1; make -s clean >/dev/null 2>&1; done' \
		    sh "$scratch" "$ncpu" &
		loadpids=$! ;;
	esac
}

make -s clyde >/dev/null || exit 2
start_load
echo "make check, $runs runs, load: $load; logs in $dir"
failed_runs=0
i=1
while [ $i -le "$runs" ]; do
	mkdir -p "$dir/run$i"
	t0=$(date +%s)
	TAP_KEEP=$dir/run$i make check >"$dir/run$i/make.log" 2>&1
	rc=$?
	t1=$(date +%s)
	# a TODO case (known to fail) is no failure
	bad=$(for f in "$dir/run$i"/*.tap; do
		grep '^not ok' "$f" 2>/dev/null | grep -Eqv '# *TODO' && echo "$f"
	done | wc -l)
	[ $rc = 0 ] || failed_runs=$((failed_runs + 1))
	echo "run $i: exit $rc, $((t1 - t0)) s, load $(cut -d' ' -f1-3 /proc/loadavg)$( [ $rc = 0 ] || echo ", failed: $(
	    grep -o '^== [^:]*' "$dir/run$i/make.log" | cut -c4- | tr '\n' ' ')")"
	i=$((i + 1))
done
stop_load

# The table: for each failed case (or test that ended early), in how many
# runs.  A case is named by its text, not its number, which can move.
echo
echo "failures per test and case ($runs runs, load: $load):"
for r in "$dir"/run*; do
	[ -f "$r/make.log" ] || continue
	awk '/^== / { t = $2; sub(/:$/, "", t); next }
	    /^not ok/ && !/# *TODO/ && t != "" { sub(/^not ok [0-9]+ *-? */, ""); print t "\t" $0; next }
	    /^\(no case failed/ && t != "" { print t "\t(ended early)" }' "$r/make.log" | sort -u
done | sort | uniq -c | sort -rn |
    awk -v n="$runs" -F'\t' '{ match($1, /[0-9]+/); c = substr($1, RSTART, RLENGTH);
	t = substr($1, RSTART + RLENGTH + 1); printf "  %d/%d  %s: %s\n", c, n, t, $2; any = 1 }
	END { if (!any) print "  none" }'
echo "runs that failed: $failed_runs/$runs"
[ $failed_runs = 0 ]
