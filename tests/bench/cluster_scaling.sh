#!/bin/sh
# clyde-mpi's aggregate rates with 1, 2 and 3 client hosts on each volume
# of the cluster that make check-cluster builds (tests/root/cluster/hosts.sh:
# GlusterFS replica 3 at /mnt/cl, distributed at /mnt/cld, MooseFS at
# /mnt/mfs), one rank per client host, mpirun started from cli1.
#
#   tests/bench/cluster_scaling.sh [RUNS]    (as root; default 1 run each)
#
# Every host is a set of namespaces on this one machine: they share its
# processors, page cache and disk, so the figures show the method and how
# the aggregate grows or shrinks with the clients, not what a cluster of
# real machines would do.  Options: SIZE (MiB per rank, default 32) and
# FILES (units of 1024 per rank, default 1), --compat=2.00 -f (no per-char:
# a write(2) per byte over FUSE takes minutes) --precise (short phases
# too).  Printed per volume and rank count: the median of RUNS of block
# write, rewrite and block read in MiB/s, seeks/s, and sequential and
# random create and delete in files/s; the CSV lines go to stderr.
set -eu
cd "$(dirname "$0")/../.."
runs=${1:-1}
size=${SIZE:-32}
files=${FILES:-1}
[ "$(id -u)" = 0 ] || { echo "cluster_scaling.sh: run as root" >&2; exit 1; }
why=$(tests/root/cluster/hosts.sh check) || { echo "cluster_scaling.sh: $why" >&2; exit 1; }

work=$(mktemp -d /tmp/clyde-scaling.XXXXXX)
chmod 755 "$work"
export ST="$work/cluster"
trap 'tests/root/cluster/hosts.sh down >/dev/null 2>&1; rm -rf --one-file-system "$work"' EXIT
trap 'exit 1' INT TERM
sh tests/bench/build_clyde.sh "$work/src"
make -s -C "$work/src" clyde-mpi >/dev/null
tests/root/cluster/hosts.sh up >"$work/up.log" 2>&1 ||
    { tail -5 "$work/up.log" >&2; exit 1; }

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "" }'; }

# the fields of the 2.00 CSV line: block write 12, rewrite 14, block read
# 18, seeks 20, sequential create 27 and delete 31, random create 33 and
# delete 37; the I/O rates are KiB/s
printf '%-9s %5s %9s %9s %9s %8s %9s %9s %9s %9s\n' volume ranks \
    'write' rewrite read seeks seq-cr seq-del ran-cr ran-del
for v in /mnt/cl /mnt/cld /mnt/mfs; do
	for n in 1 2 3; do
		: >"$work/lines"
		r=0
		while [ $r -lt "$runs" ]; do
			tests/root/cluster/hosts.sh mpirun -np $n "$work/src/clyde-mpi" \
			    -d $v -u root -m cluster -r 0 -q --precise \
			    --compat=2.00 -f -s "$size" -n "$files" 2>/dev/null |
			    tail -1 >>"$work/lines"
			r=$((r + 1))
		done
		cat "$work/lines" >&2
		printf '%-9s %5s' $v $n
		for f in 12 14 18 20 27 31 33 37; do
			m=$(cut -d, -f$f "$work/lines" | grep '^[0-9.]*$' | median)
			case $f in
			12 | 14 | 18) m=$(awk -v k="${m:-0}" 'BEGIN { printf "%.1f", k / 1024 }') ;;
			esac
			printf ' %9s' "${m:--}"
		done
		echo
	done
done
