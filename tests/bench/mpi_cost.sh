#!/bin/sh
# What being a rank costs the phases clyde-mpi measures: clyde-mpi with 2
# ranks on one host beside two separate clyde runs that start every phase
# together (-p 2, then both with -y s), with the same options, on a fresh
# tmpfs (or in a directory given).
#
#   tests/bench/mpi_cost.sh             (about 15 minutes on 2 cores)
#   tests/bench/mpi_cost.sh /mnt/disk   (in a directory of yours)
#   RUNS=3 tests/bench/mpi_cost.sh
#   BEFORE=/path/to/older/clyde-mpi tests/bench/mpi_cost.sh
#
# As root it mounts the tmpfs, drops the caches before each run and runs
# everything with -u root; as another user the tmpfs is a directory of
# /dev/shm.  The rank's process that measures should cost what a separate
# clyde costs: it has no thread but its own (MPI and the beats are in its
# parent, see clyde(1), clyde-mpi), so a ratio below 1 is what the rest
# of the rank costs it.
#
# Per round: one clyde-mpi run and one pair of separate runs, the round
# starting with each in turn (rotated order).  Each process's rate of a
# phase is its own (the ranks' from clyde-mpi's JSON record, ranks[], the
# separate runs' from their own records): work over its own elapsed time.
# Printed per phase: the median of each one's rates, and the median over
# the rounds of the per-round ratio of the mean rate of the two ranks to
# the mean rate of the two separate runs (rank/sep), and the same for
# CPU time per unit of work (cpu, rank/sep: the figure a busy machine
# disturbs least; the rank's is its measuring process's alone), with the
# quartiles of the per-round ratios, the rounds in which the ranks were
# faster and the sign test's p.  The per-char and file phases are those
# that a shared descriptor table slows: a system call per byte or per
# file.  Target, on a quiet machine: 0.97 or more.  A median below it
# with p at 0.05 or more is not a cost shown: rounds here move 10 % and
# more, so run more of them, or pool runs (REPORT="dir1 dir2").  The
# pair is not quite the ranks' twin: -y s lets a phase go before its
# untimed preparation (prepare()), the ranks meet after it, so one
# separate run's timed phase may overlap the other's preparation
# (removing a 512 MiB file, say).  With BEFORE, the
# rank/bef column compares two clyde-mpi builds directly.
#
# Settings, from the environment (defaults in brackets):
#   RUNS [5]        rounds
#   ARGS ["-s 512 -f32 -r 0 -n 128 -q"]  the options of every run (with
#                   --compat=2.00, needed by -f32)
#   BIND [none]     mpirun's --bind-to; with "core" the separate runs are
#                   pinned to CPUs 0 and 1 as mpirun pins the ranks
#   CLYDE, CLYDE_MPI [unset]  the binaries; else built from this tree's
#                   sources in the work directory
#   BEFORE [unset]  another clyde-mpi (an older build) run in every round
#                   too and set beside the same separate runs
#   MPIRUN_ARGS ["--oversubscribe --mca btl_tcp_if_include lo
#                   --mca oob_tcp_if_include lo"]
#   KEEP [unset]    a directory to copy the raw outputs to
#   REPORT [unset]  KEEP directories: print their report again, of all
#                   their rounds together, and run nothing
set -eu

RUNS=${RUNS:-5}
ARGS=${ARGS:--s 512 -f32 -r 0 -n 128 -q}
BIND=${BIND:-none}
BEFORE=${BEFORE:-}
KEEP=${KEEP:-}
MPIRUN_ARGS=${MPIRUN_ARGS:---oversubscribe --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo}
dir=${1:-}

die() { echo "mpi_cost.sh: $*" >&2; exit 1; }
say() { echo "== $*" >&2; }

command -v mpirun >/dev/null || die "no mpirun (Open MPI)"
command -v python3 >/dev/null || die "no python3: it reads the JSON records"
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/clyde-mpicost.XXXXXX)
chmod 755 "$work"
mounted=
sem_made=
if [ "$(id -u)" = 0 ]; then
	as_user="-u root"
	mpirun="mpirun --allow-run-as-root"
else
	as_user=
	mpirun=mpirun
fi

made=
cleanup() {
	[ -z "$sem_made" ] || "$CLYDE" $as_user -p -1 2>/dev/null || :
	[ -z "$mounted" ] || umount "$mounted" 2>/dev/null || :
	[ -z "$made" ] || rm -rf "$made"
	[ -z "$KEEP" ] || { mkdir -p "$KEEP" && cp -r "$work/raw" "$KEEP/"; }
	rm -rf "$work"
}
trap cleanup EXIT
trap 'report; exit 130' INT TERM
mkdir "$work/raw"
: >"$work/results"

settle() {
	sync
	[ "$(id -u)" != 0 ] || echo 3 >/proc/sys/vm/drop_caches
}

# rec KIND ROUND JSON...: each process's rate and CPU per unit of work,
# per phase, as "KIND ROUND PHASE rate1 rate2 cpu1 cpu2"
rec() {
	python3 - "$@" >>"$work/results" <<'PY'
import json, sys
kind, rnd, files = sys.argv[1], sys.argv[2], sys.argv[3:]
procs = []
for f in files:
    r = json.load(open(f))
    if isinstance(r, list):
        r = r[-1]
    procs += [k["phases"] for k in r["ranks"]] if r.get("ranks") else [r["phases"]]
for name in procs[0]:
    figs = [p.get(name) for p in procs]
    if any(x is None or not x.get("ops") or not x.get("elapsed_ns") for x in figs):
        continue
    rates = [x["ops"] * 1e9 / x["elapsed_ns"] for x in figs]
    cpu = [x["cpu_ns"] / x["ops"] for x in figs]
    print(kind, rnd, name, *("%.6g" % v for v in rates + cpu))
PY
}

one_mpi() {  # KIND BINARY ROUND
	out=$work/raw/$1.$3
	settle
	# shellcheck disable=SC2086
	if $mpirun -np 2 --bind-to "$BIND" $MPIRUN_ARGS "$2" --compat=2.00 \
	    -d "$t" $as_user $ARGS --json="$out.json" >"$out.csv" 2>"$out.err"; then
		rec "$1" "$3" "$out.json"
	else
		echo "mpi_cost.sh: $1 failed, round $3:" >&2
		cat "$out.err" >&2
	fi
}

one_pair() {  # ROUND
	out=$work/raw/sep.$1
	pin0= pin1=
	if [ "$BIND" = core ]; then
		pin0="taskset -c 0" pin1="taskset -c 1"
	fi
	settle
	# bonnie++'s semaphore (key 4711), made for this pair alone: another
	# run's is waited for, at most a minute
	i=0
	until "$CLYDE" $as_user -p 2 2>"$out.sem"; do
		i=$((i + 1))
		[ $i -lt 60 ] || die "-p 2: $(cat "$out.sem")"
		sleep 1
	done
	sem_made=1
	# shellcheck disable=SC2086
	$pin0 "$CLYDE" --compat=2.00 -d "$t" $as_user -y s $ARGS \
	    --json="$out.a.json" >"$out.a.csv" 2>"$out.a.err" &
	a=$!
	# shellcheck disable=SC2086
	$pin1 "$CLYDE" --compat=2.00 -d "$t" $as_user -y s $ARGS \
	    --json="$out.b.json" >"$out.b.csv" 2>"$out.b.err" && rb=0 || rb=$?
	wait $a && ra=0 || ra=$?
	"$CLYDE" $as_user -p -1 2>/dev/null || :
	sem_made=
	if [ "$ra" = 0 ] && [ "$rb" = 0 ]; then
		rec sep "$1" "$out.a.json" "$out.b.json"
	else
		echo "mpi_cost.sh: the separate runs failed, round $1:" >&2
		cat "$out.a.err" "$out.b.err" >&2
	fi
}

# the report from $work/results (also of the rounds done when stopped)
report() {
	python3 - "$work/results" "$RUNS" "$ARGS" "$where" "$BIND" \
	    "${BEFORE:+1}" <<'PY'
import sys
from math import comb
from statistics import median, quantiles
path, runs, args, where, bind, before = sys.argv[1:7]
val = {}
order = []
for line in open(path):
    f = line.split()
    kind, rnd, name, nums = f[0], int(f[1]), f[2], [float(x) for x in f[3:]]
    n = len(nums) // 2
    val[kind, rnd, name] = (nums[:n], nums[n:])
    if name not in order:
        order.append(name)
rounds = sorted({k[1] for k in val})
mean = lambda xs: sum(xs) / len(xs)

def ratio(kind, name, which, base="sep"):
    q = [mean(val[kind, r, name][which]) / mean(val[base, r, name][which])
         for r in rounds if (kind, r, name) in val and (base, r, name) in val]
    return "%.3f" % median(q) if q else "-"

def spread(kind, name, base="sep"):
    """quartiles of the per-round rate ratios, and in how many rounds
    kind's rate was above base's with the exact two-sided sign test's p:
    the chance of so uneven a split if neither were the faster one (with
    5 rounds it is 0.06 at best; 6 can show a difference)"""
    q = sorted(mean(val[kind, r, name][0]) / mean(val[base, r, name][0])
               for r in rounds
               if (kind, r, name) in val and (base, r, name) in val)
    if not q:
        return "-", "-", "-"
    n, up = len(q), sum(1 for x in q if x > 1)
    k = min(up, n - up)
    p = min(1.0, 2 * sum(comb(n, i) for i in range(k + 1)) / 2 ** n)
    q1, _, q3 = quantiles(q, n=4, method="inclusive") if n > 1 else q * 3
    return "%.3f-%.3f" % (q1, q3), "%d/%d" % (up, n), "%.2f" % p

def rate(kind, name):
    q = [x for r in rounds if (kind, r, name) in val for x in val[kind, r, name][0]]
    return "%.0f" % median(q) if q else "-"

print("clyde-mpi -np 2 (bind-to %s) vs two clyde -y s, --compat=2.00 %s, on %s"
      % (bind, args, where))
print("%d rounds, rotated order; rates in ops/s (bytes for I/O, files for"
      " the file phases), median of every process's own" % len(rounds))
print("ratios: median of per-round ratios of the mean rate of two ranks to"
      " two separate runs;")
print("quartiles: of the per-round rank/sep ratios; faster: rounds in which"
      " the ranks' rate was above the pair's,")
print("p: the sign test's chance of a split as uneven if neither were faster"
      " (below 0.05: a real difference)")
print("cpu: the same for CPU time per unit of work, rank/sep (above 1: the"
      " rank's costs more)")
if before:
    print("before: BEFORE's ranks; rank/bef: the ranks' rate over BEFORE's,"
          " the same way")
kinds = ["mpi"] + (["before"] if before else [])
head = "%-11s %12s %12s %9s %11s %6s %5s %9s" % (
    "phase", "rank", "separate", "rank/sep", "quartiles", "faster", "p", "cpu")
if before:
    head += " %12s %9s %9s %9s" % ("before", "bef/sep", "cpu", "rank/bef")
print(head)
for name in order:
    if not any(("sep", r, name) in val for r in rounds):
        continue
    row = "%-11s %12s %12s %9s %11s %6s %5s %9s" % (
        (name, rate("mpi", name), rate("sep", name), ratio("mpi", name, 0))
        + spread("mpi", name) + (ratio("mpi", name, 1),))
    if before:
        row += " %12s %9s %9s %9s" % (rate("before", name),
                                      ratio("before", name, 0),
                                      ratio("before", name, 1),
                                      ratio("mpi", name, 0, "before"))
    print(row)
PY
}

# REPORT="dir...": the report of the raw outputs kept with KEEP=dir, of
# several runs together when they ran the same work (rounds numbered on)
if [ -n "${REPORT:-}" ]; then
	where="?"
	first='' base=0 any_before=''
	for d in $REPORT; do
		[ -d "$d/raw" ] || die "$d: no raw/ (made by KEEP=dir)"
		ARGS='?' BIND='?' BEFORE=''
		# shellcheck disable=SC1091
		[ ! -f "$d/raw/settings" ] || . "$d/raw/settings"
		any_before=${any_before:-$BEFORE}
		if [ -z "$first" ]; then
			first=$d pooled="$ARGS|$BIND"
		elif [ "$ARGS|$BIND" != "$pooled" ]; then
			die "$d: ARGS and BIND not those of $first: not pooled"
		fi
		last=0
		for f in "$d"/raw/mpi.*.json "$d"/raw/before.*.json; do
			[ -f "$f" ] || continue
			k=${f##*/}
			r=${k#*.}
			r=${r%%.*}
			[ "$r" -le "$last" ] || last=$r
			rec "${k%%.*}" $((base + r)) "$f"
		done
		for f in "$d"/raw/sep.*.a.json; do
			[ -f "$f" ] && [ -f "${f%.a.json}.b.json" ] || continue
			r=${f##*/sep.}
			r=${r%%.*}
			[ "$r" -le "$last" ] || last=$r
			rec sep $((base + r)) "$f" "${f%.a.json}.b.json"
		done
		base=$((base + last))
	done
	RUNS=$base BEFORE=$any_before
	report
	exit 0
fi

if [ -z "${CLYDE:-}" ] || [ -z "${CLYDE_MPI:-}" ]; then
	say "building clyde and clyde-mpi in $work"
	sh "$root/tests/bench/build_clyde.sh" "$work/build"
	make -s -C "$work/build" mpi >/dev/null
	CLYDE=${CLYDE:-$work/build/clyde}
	CLYDE_MPI=${CLYDE_MPI:-$work/build/clyde-mpi}
fi

# the target: DIR, or a fresh tmpfs (root), or a directory in /dev/shm
if [ -n "$dir" ]; then
	[ -d "$dir" ] && [ -w "$dir" ] || die "$dir: not a directory I can write"
	t=$(mktemp -d "$dir/clyde-mpicost.XXXXXX")
	made=$t
	where=$dir
elif [ "$(id -u)" = 0 ]; then
	t=$work/tmpfs
	mkdir "$t"
	mount -t tmpfs -o size=4g tmpfs "$t"
	mounted=$t
	where="a fresh tmpfs"
else
	[ -d /dev/shm ] && [ -w /dev/shm ] || die "no /dev/shm: name a directory"
	t=$(mktemp -d /dev/shm/clyde-mpicost.XXXXXX)
	made=$t
	where=/dev/shm
fi
chmod 755 "$t"

cat >"$work/raw/settings" <<EOF
RUNS='$RUNS' ARGS='$ARGS' BIND='$BIND' BEFORE='$BEFORE' where='$where'
EOF

kinds="mpi sep${BEFORE:+ before}"
n=$(echo $kinds | wc -w)
r=1
while [ "$r" -le "$RUNS" ]; do
	# round r starts at the r-th kind: each goes first in turn
	order=
	i=0
	while [ $i -lt "$n" ]; do
		order="$order $(echo $kinds | cut -d' ' -f$(( (r - 1 + i) % n + 1 )))"
		i=$((i + 1))
	done
	say "round $r/$RUNS:$order"
	for kind in $order; do
		case $kind in
		mpi) one_mpi mpi "$CLYDE_MPI" "$r" ;;
		before) one_mpi before "$BEFORE" "$r" ;;
		sep) one_pair "$r" ;;
		esac
	done
	r=$((r + 1))
done
report
