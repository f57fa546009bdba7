#!/bin/sh
# How much of a run is the tool's own work: clyde --compat=2.00 and
# bonnie++ 2.00a with the same options on a fresh tmpfs, each sampled by
# perf (cpu-clock, so it works where the processor's counters are not
# offered, as in most virtual machines), and per tool the share of the
# samples that fell outside the kernel: the tool's code, libc and the
# vDSO.  A share is a ratio inside one run, so the machine's run-to-run
# noise (10-20 % of the rates here) mostly cancels out of it.
#
#   tests/bench/own_cost.sh [RUNS]          (as root; default 3 runs each)
#
# Three workloads, each alone: per-char (the 2.00 one write()/read() per
# byte), blocks and seeks (-f: no per-char), small files (-s 0).  Printed:
# the median user share of each tool, then clyde's busiest user symbols
# in its last run of each.  Installs perf and bonnie++ from Debian when
# missing.  KEEP=dir keeps the perf data.
set -eu
cd "$(dirname "$0")/../.."
runs=${1:-3}
[ "$(id -u)" = 0 ] || { echo "own_cost.sh: run as root" >&2; exit 1; }

need=""
command -v perf >/dev/null 2>&1 || need="$need linux-perf"
[ -x /usr/sbin/bonnie++ ] || need="$need bonnie++"
if [ -n "$need" ]; then
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi

work=$(mktemp -d /tmp/clyde-own.XXXXXX)
mnt=$work/mnt
trap '[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$work"/*.data "$KEEP"/ 2>/dev/null
umount "$mnt" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$mnt"
sh tests/bench/build_clyde.sh "$work/src"
mount -t tmpfs -o size=3g tmpfs "$mnt"

# name, then the options both tools get
set -- "per-char|-s 512:8192:20000:1 -n 0 -f64" \
    "blocks+seeks|-s 1024:8192:100000:1 -n 0 -f" \
    "files|-s 0 -n 128"

# the share of samples outside [kernel.kallsyms], in percent
user_share() {
	perf report -i "$1" --sort dso --stdio 2>/dev/null | awk '
	/^ *[0-9.]+%/ { p = $1; sub(/%/, "", p); all += p
		if ($2 != "[kernel.kallsyms]") user += p }
	END { printf "%.2f\n", (all > 0 ? 100 * user / all : 0) }'
}

median() { sort -n | awk '{ v[NR] = $1 } END {
	if (NR == 0) { print "-"; exit }
	print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf "%-13s %10s %10s %6s   (%% of samples outside the kernel, median of %d)\n" \
    workload clyde bonnie++ c/b "$runs"
for w in "$@"; do
	name=${w%%|*}
	opts=${w#*|}
	: >"$work/clyde.shares"
	: >"$work/bonnie.shares"
	r=1
	while [ "$r" -le "$runs" ]; do
		for tool in clyde bonnie; do
			cmd=/usr/sbin/bonnie++
			[ "$tool" = clyde ] && cmd="$work/src/clyde --compat=2.00"
			data=$work/$tool.$name.$r.data
			sync
			echo 3 >/proc/sys/vm/drop_caches
			# shellcheck disable=SC2086
			perf record -q -e cpu-clock -F 4000 -o "$data" -- $cmd \
			    -d "$mnt" -u root -r 0 -q -m own $opts >/dev/null 2>&1 ||
			    { echo "own_cost.sh: $tool failed ($opts)" >&2; exit 1; }
			user_share "$data" >>"$work/$tool.shares"
		done
		r=$((r + 1))
	done
	c=$(median <"$work/clyde.shares")
	b=$(median <"$work/bonnie.shares")
	printf "%-13s %9s%% %9s%% %6s\n" "$name" "$c" "$b" \
	    "$(awk -v c="$c" -v b="$b" 'BEGIN { printf "%.2f", (b > 0 ? c / b : 0) }')"
done

echo
echo "clyde's busiest user symbols, last run of each workload (% of all samples):"
for f in "$work"/clyde.*."$runs".data; do
	n=${f#"$work"/clyde.}
	echo "  ${n%."$runs".data}:"
	perf report -i "$f" --sort dso,sym --stdio 2>/dev/null |
	    awk '/^ *[0-9.]+%/ && $2 != "[kernel.kallsyms]"' | head -5 |
	    sed 's/^ */    /'
done
