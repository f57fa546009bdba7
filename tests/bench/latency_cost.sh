#!/bin/sh
# What the per-operation latency timing costs: the same runs with a
# normal build and with one built -DCLYDE_NO_OP_TIMING (no clock read per
# operation), alternately, on a fresh tmpfs where the tool's own cost
# shows most.
#
#   tests/bench/latency_cost.sh [RUNS] [clyde options...]      (as root)
# default: 5 runs of --compat=2.00 -s 2048 -n 64 -f4.
#
# Per phase, from each run's --json record: the median rate of each
# build, the median of the ratios timed/untimed of the runs made back to
# back (with their quartiles), and the same for CPU time per operation
# (untimed/timed, so that below 1 is a cost too).  The machine's own
# noise, 10-20 % between runs of one build here, is far larger than the
# cost measured: use many short runs, e.g.
#   tests/bench/latency_cost.sh 31 --compat=2.00 -s 0 -n 64       (file phases)
#   tests/bench/latency_cost.sh 31 --compat=2.00 -s 1024 -n 0 -f1 (the others)
# KEEP=dir keeps the JSON records.
set -eu
cd "$(dirname "$0")/../.."
runs=${1:-5}
[ $# -gt 0 ] && shift
opts=${*:---compat=2.00 -s 2048 -n 64 -f4}
work=$(mktemp -d /tmp/clyde-bench.XXXXXX)
mnt=$work/mnt
trap '[ -n "${KEEP:-}" ] && cp "$work"/*.json "$KEEP"/ 2>/dev/null
umount "$mnt" 2>/dev/null; rm -rf "$work"' EXIT

# both builds in the work area: the source tree's own build stays as it was
sh tests/bench/build_clyde.sh "$work/src.timed"
sh tests/bench/build_clyde.sh "$work/src.untimed" CPPFLAGS=-DCLYDE_NO_OP_TIMING
cp "$work/src.timed/clyde" "$work/timed"
cp "$work/src.untimed/clyde" "$work/untimed"

mkdir "$mnt"
mount -t tmpfs -o size=6g tmpfs "$mnt"
as_user=""
[ "$(id -u)" = 0 ] && as_user="-u root"
i=1
while [ $i -le "$runs" ]; do
	# every other pair in the other order: the second run of a pair
	# differs from the first here (the tmpfs just emptied), by up to 10 %
	order="timed untimed"
	[ $((i % 2)) = 0 ] && order="untimed timed"
	for b in $order; do
		# shellcheck disable=SC2086
		"$work/$b" -d "$mnt" $as_user -r 0 -q --precise $opts \
		    --json="$work/$b.$i.json" >/dev/null 2>&1
	done
	i=$((i + 1))
done

# one line per phase in the record: "name": {"ops": N, ..., "elapsed_ns": E, "cpu_ns": C
for f in "$work"/*.json; do
	b=${f##*/}
	echo "${b%.json}"
	grep -E '^ *"[a-z_]+": \{"ops": [0-9]+' "$f" || true
done | awk -v runs="$runs" '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function num(key,   m) {
	if (!match($0, "\"" key "\": [0-9]+")) return 0
	m = substr($0, RSTART, RLENGTH); sub(/.*: /, "", m); return m + 0
}
/^(timed|untimed)\.[0-9]+$/ { split($0, w, "."); build = w[1]; run = w[2]; next }
{
	ph = $1; gsub(/[":]/, "", ph)
	if (!(ph in seen)) { seen[ph] = 1; order[++np] = ph }
	ops = num("ops"); el = num("elapsed_ns"); cpu = num("cpu_ns")
	if (ops > 0 && el > 0) rate[build, ph, run] = ops / el * 1e9
	if (ops > 0) cpuop[build, ph, run] = cpu / ops
}
END {
	printf "%-11s %13s %13s %7s %13s %7s %13s\n", "phase", "timed/s",
	    "untimed/s", "rate", "p25-p75", "cpu/op", "p25-p75"
	q1 = int((runs + 3) / 4); q3 = runs + 1 - q1
	for (k = 1; k <= np; k++) {
		ph = order[k]; n = 0
		for (r = 1; r <= runs; r++) {
			if (rate["timed", ph, r] == "" || rate["untimed", ph, r] == "")
				continue
			n++
			a[n] = rate["timed", ph, r]; b[n] = rate["untimed", ph, r]
			q[n] = a[n] / b[n]
			c[n] = cpuop["timed", ph, r] ? \
			    cpuop["untimed", ph, r] / cpuop["timed", ph, r] : 0
		}
		if (n == 0) continue
		ma = median(a, n); mb = median(b, n); mq = median(q, n)
		mc = median(c, n)
		# median() sorted q and c: their quartiles are at hand
		q1 = int((n + 3) / 4); q3 = n + 1 - q1
		printf "%-11s %13.0f %13.0f %7.3f %6.3f-%.3f %7.3f %6.3f-%.3f\n",
		    ph, ma, mb, mq, q[q1], q[q3], mc, c[q1], c[q3]
	}
	printf "rate: timed/untimed; cpu/op: untimed/timed; medians of %d pairs\n", runs
}'
