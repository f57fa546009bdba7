#!/bin/sh
# What the per-operation latency timing costs: the same runs with a
# normal build and with one built -DCLYDE_NO_OP_TIMING (no clock read per
# operation), alternately, on a fresh tmpfs where the tool's own cost
# shows most.  Prints the median rate of each phase, the ratio of the
# medians, and the median of the ratios of the runs made back to back.
#
#   bench/latency_cost.sh [RUNS] [clyde options...]
# default: 5 runs of --compat=2.00 -s 2048 -n 64 -f4 (as root).  The
# machine's own noise (10-20 % between runs of one build here) is far
# larger than the cost measured: use many runs, and short ones, e.g.
#   bench/latency_cost.sh 31 --compat=2.00 -s 0 -n 16      (file phases)
#   bench/latency_cost.sh 31 --compat=2.00 -s 512 -n 0 -f1 (the others)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
[ $# -gt 0 ] && shift
opts=${*:---compat=2.00 -s 2048 -n 64 -f4}
work=$(mktemp -d /tmp/clyde-bench.XXXXXX)
mnt=$work/mnt
# KEEP=dir: copy the raw CSV lines there before the work area goes
trap '[ -n "${KEEP:-}" ] && cp "$work"/*.csv "$KEEP"/ 2>/dev/null
umount "$mnt" 2>/dev/null; rm -rf "$work"' EXIT

make -s clyde
cp clyde "$work/timed"
make -s clean >/dev/null
make -s clyde CPPFLAGS=-DCLYDE_NO_OP_TIMING
cp clyde "$work/untimed"
make -s clean >/dev/null
make -s clyde

mkdir "$mnt"
mount -t tmpfs -o size=6g tmpfs "$mnt"
as_user=""
[ "$(id -u)" = 0 ] && as_user="-u root"
i=0
while [ $i -lt "$runs" ]; do
	# every other pair in the other order: the second run of a pair
	# differs from the first here (the tmpfs just emptied), by up to 10 %
	order="timed untimed"
	[ $((i % 2)) = 1 ] && order="untimed timed"
	for b in $order; do
		"$work/$b" -d "$mnt" $as_user -r 0 -q --precise $opts \
		    >>"$work/$b.csv" 2>/dev/null
	done
	i=$((i + 1))
done

# columns of the 1.98 line: 10 putc ... 20 seeks, 27 seq_create ... 37 ran_del
awk -F, -v runs="$runs" '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
FNR == 1 { file++ }
{
	split("putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del", name, " ")
	split("10 12 14 16 18 20 27 29 31 33 35 37", col, " ")
	for (p = 1; p <= 12; p++) v[file, p, FNR] = $(col[p])
}
END {
	# pairs: run r of each build ran back to back, so the median of their
	# ratios is less moved by a slow stretch of the machine
	printf "%-11s %12s %12s %7s %7s %13s\n", "phase", "timed", "untimed",
	    "ratio", "pairs", "pairs p25-p75"
	for (p = 1; p <= 12; p++) {
		if (v[1, p, 1] == "" || v[1, p, 1] ~ /\+/) continue
		for (r = 1; r <= runs; r++) {
			a[r] = v[1, p, r]; b[r] = v[2, p, r]
			q[r] = b[r] ? a[r] / b[r] : 0
		}
		ma = median(a, runs); mb = median(b, runs)
		mq = median(q, runs)
		# median() sorted q: its quartiles are at hand
		printf "%-11s %12.1f %12.1f %7.3f %7.3f %6.3f-%.3f\n", name[p],
		    ma, mb, mb ? ma / mb : 0, mq, q[int((runs + 3) / 4)],
		    q[runs + 1 - int((runs + 3) / 4)]
	}
}' "$work/timed.csv" "$work/untimed.csv"
