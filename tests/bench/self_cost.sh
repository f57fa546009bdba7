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
set -eu

RUNS=${RUNS:-5}
ARGS=${ARGS:--s 512 -f32 -r 0 -n 384 -q}
TARGETS=${TARGETS:-tmpfs ext4}
BONNIE=${BONNIE:-/usr/sbin/bonnie++}
KEEP=${KEEP:-}

# The phases and their column in the 1.98 CSV line (2.00a's).
PHASES="putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del"
COLS198="10 12 14 16 18 20 27 29 31 33 35 37"

die() { echo "self_cost.sh: $*" >&2; exit 1; }
say() { echo "== $*" >&2; }

[ "$(id -u)" = 0 ] || die "run as root: it mounts a tmpfs and a loop ext4"
[ -x "$BONNIE" ] || die "no bonnie++ at $BONNIE"
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/clyde-selfcost.XXXXXX)
loopdev=
cleanup() {
	for m in "$work/tmpfs" "$work/ext4"; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	[ -n "$loopdev" ] && losetup -d "$loopdev"
	[ -n "$KEEP" ] && mkdir -p "$KEEP" && cp -r "$work/raw" "$KEEP/"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'report; exit 130' INT TERM
mkdir "$work/raw"
: >"$work/results"

if [ -z "${CLYDE:-}" ]; then
	say "building clyde in $work"
	sh "$root/tests/bench/build_clyde.sh" "$work/build"
	CLYDE=$work/build/clyde
fi

mount_target() {  # target -> $mnt
	mnt=$work/$1
	mkdir "$mnt"
	case $1 in
	tmpfs) mount -t tmpfs -o size=3g tmpfs "$mnt" ;;
	ext4)
		truncate -s 3G "$work/ext4.img"
		loopdev=$(losetup -f --show "$work/ext4.img")
		mkfs.ext4 -q -F -N 524288 \
		    -E lazy_itable_init=0,lazy_journal_init=0 "$loopdev"
		mount "$loopdev" "$mnt"
		;;
	esac
}

# rec_csv TARGET TOOL ROUND CSVFILE: each phase's rate and CPU per unit
rec_csv() {
	tail -1 "$4" | awk -F, -v t="$1" -v tool="$2" -v r="$3" \
	    -v cols="$COLS198" -v phases="$PHASES" '{
		np = split(phases, name, " "); split(cols, col, " ")
		for (p = 1; p <= np; p++) {
			v = $(col[p])
			if (v == "" || v ~ /^\+/) continue
			print t, tool, r, name[p], v
			if (v > 0 && $(col[p] + 1) ~ /^[0-9]/)
				print t, tool, r, name[p] "_cpu", $(col[p] + 1) / 100 / v
		}
	}' >>"$work/results"
}

one_run() {  # target dir round tool
	out=$work/raw/$1.$4.$3
	sync
	echo 3 >/proc/sys/vm/drop_caches
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
		echo "self_cost.sh: $tool failed on $t, round $r:" >&2
		cat "$out.err" >&2
	fi
}

# the report from $work/results (also of the rounds done when stopped)
report() {
awk -v runs="$RUNS" -v phases="$PHASES" -v targets="$TARGETS" \
    -v args="$ARGS" -v before="${BEFORE:+1}" '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# the median over the rounds of val[t, a, r, key] / val[t, b, r, key]
function ratio(t, a, b, key,   r, n, q) {
	n = 0
	for (r = 1; r <= runs; r++)
		if ((t, a, r, key) in val && (t, b, r, key) in val &&
		    val[t, b, r, key] > 0)
			q[++n] = val[t, a, r, key] / val[t, b, r, key]
	return n ? sprintf("%.2f", median(q, n)) : "-"
}
# table T TOOL SHORT: the rates of TOOL on target T beside --stall=0 and bonnie++
function table(t, tool, c,   p, key) {
	printf "%-11s %10s %10s %10s %8s %8s %8s %8s\n", "phase", tool,
	    "stall=0", "bonnie++", c "/b", c "/s0", "cpu " c "/b", "cpu " c "/s0"
	for (p = 1; p <= np; p++) {
		key = ph[p]
		if (rate(t, tool, key) == "-") continue
		printf "%-11s %10s %10s %10s %8s %8s %8s %8s\n", key,
		    rate(t, tool, key), rate(t, "stall0", key),
		    rate(t, "bonnie", key), ratio(t, tool, "bonnie", key),
		    ratio(t, tool, "stall0", key),
		    ratio(t, tool, "bonnie", key "_cpu"),
		    ratio(t, tool, "stall0", key "_cpu")
	}
}
function rate(t, tool, key,   r, n, q) {
	n = 0
	for (r = 1; r <= runs; r++)
		if ((t, tool, r, key) in val)
			q[++n] = val[t, tool, r, key]
	return n ? sprintf("%.0f", median(q, n)) : "-"
}
{ val[$1, $2, $3, $4] = $5; if ($3 > done[$1]) done[$1] = $3 }
END {
	np = split(phases, ph, " ")
	nt = split(targets, tg, " ")
	printf "clyde --compat=2.00 %s (default, and --stall=0) vs bonnie++ %s\n", args, args
	print "median of per-round ratios, rounds in rotated order"
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

for t in $TARGETS; do
	mount_target "$t"
	r=1
	while [ "$r" -le "$RUNS" ]; do
		# round r starts at the r-th tool: each goes first in turn
		order=
		tools="clyde stall0 bonnie${BEFORE:+ before}"
		n=$(echo $tools | wc -w)
		i=0
		while [ $i -lt "$n" ]; do
			order="$order $(echo $tools | cut -d' ' -f$(( (r - 1 + i) % n + 1 )))"
			i=$((i + 1))
		done
		say "$t round $r/$RUNS: $order"
		for tool in $order; do
			one_run "$t" "$mnt" "$r" "$tool"
		done
		r=$((r + 1))
	done
done
report
