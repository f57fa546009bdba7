#!/bin/sh
# What a --chunks sweep costs beside the measuring itself, on a fresh
# tmpfs:
#  - peak RSS of clyde --compat=2.00 --chunks=4k..16m against bonnie++
#    2.00a with -s SIZE:1m, its largest chunk (the sweep's one buffer is
#    16 MiB: it should stay under bonnie++'s peak plus 16 MiB);
#  - the time outside the phases of a 10-point sweep (--chunks=4k..2m):
#    the wall time of the command less the elapsed times of every phase
#    of every point, from --json (scratch directory, prepare() of each
#    phase, seeker processes, cleanup, output).
#
#   tests/bench/sweep_cost.sh [RUNS]     (as root; default 5 runs each)
#
# SIZE (MiB, default 64) is the file size, SEEKS (default 1000) the seeks
# of each point: bonnie++'s 8192 seeks each read a whole chunk, 128 GiB
# at 16 MiB.  Peak RSS is GNU time's %M: the largest of the command and
# its seekers.  Installs bonnie++ and GNU time from Debian when missing.
set -eu
cd "$(dirname "$0")/../.."
runs=${1:-5}
size=${SIZE:-64}
seeks=${SEEKS:-1000}
[ "$(id -u)" = 0 ] || { echo "sweep_cost.sh: run as root" >&2; exit 1; }
command -v python3 >/dev/null || { echo "sweep_cost.sh: needs python3" >&2; exit 1; }
need=""
[ -x /usr/sbin/bonnie++ ] || need="$need bonnie++"
[ -x /usr/bin/time ] || need="$need time"
if [ -n "$need" ]; then
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi

work=$(mktemp -d /tmp/clyde-sweep.XXXXXX)
mnt=$work/mnt
trap 'umount "$mnt" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$mnt"
sh tests/bench/build_clyde.sh "$work/src"
mount -t tmpfs -o size=$((size * 2 + 64))m tmpfs "$mnt"

python3 - "$work/src/clyde" "$mnt" "$size" "$runs" "$work" "$seeks" <<'PY'
import json, os, statistics, subprocess, sys, time

clyde, mnt, size, runs, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    int(sys.argv[4]), sys.argv[5]
seeks = int(sys.argv[6])
common = ["-d", mnt, "-u", "root", "-r", "0", "-f", "-n", "0", "-q"]

def peak_rss_kib(cmd):
    """The largest RSS of cmd and its seekers, in KiB: GNU time's %M,
    from wait4(), which counts the children the command reaped (a
    measurement from Python would count Python's own pages, which the
    child has until it calls exec)."""
    out = os.path.join(work, "rss")
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + cmd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if p.returncode != 0:
        sys.exit("sweep_cost.sh: %s failed (exit %d)" % (cmd[0], p.returncode))
    return int(open(out).read().split()[-1])

sweep = [clyde, "--compat=2.00", "-s", "%d::%d" % (size, seeks),
         "--chunks=4k..16m"] + common
# bonnie++ 2.00a takes the chunk in bytes only
bonnie = ["/usr/sbin/bonnie++", "-s", "%d:1048576:%d" % (size, seeks)] + common
one = [clyde, "--compat=2.00", "-s", "%d:1m:%d" % (size, seeks)] + common
rss = {"clyde --chunks=4k..16m": [], "bonnie++ -s %d:1m" % size: [],
       "clyde -s %d:1m" % size: []}
for _ in range(runs):
    for name, cmd in zip(rss, (sweep, bonnie, one)):
        rss[name].append(peak_rss_kib(cmd))
print("peak RSS, KiB (median of %d; file %d MiB, -f -n 0, tmpfs)" % (runs, size))
for name, v in rss.items():
    print("  %-26s %8d   (min %d, max %d)" % (name, statistics.median(v),
          min(v), max(v)))
b = statistics.median(rss["bonnie++ -s %d:1m" % size])
c = statistics.median(rss["clyde --chunks=4k..16m"])
print("  sweep - (bonnie++ + 16 MiB): %+d KiB" % (c - b - 16384))

outside = []
for k in range(runs):
    path = os.path.join(work, "sweep%d.json" % k)
    cmd = [clyde, "--compat=2.00", "-s", "%d::%d" % (size, seeks),
           "--chunks=4k..2m",
           "--json=" + path] + common
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    wall = time.monotonic() - t0
    recs = json.load(open(path))
    assert len(recs) == 10
    phases = sum(p["elapsed_ns"] for r in recs for p in r["phases"].values()
                 if p is not None) / 1e9
    outside.append((wall - phases, wall, phases))
outside.sort()
m = outside[len(outside) // 2]
print("10-point sweep (--chunks=4k..2m), seconds (median of %d):" % runs)
print("  wall %.3f, phases %.3f, outside the phases %.3f (min %.3f, max %.3f)"
      % (m[1], m[2], m[0], outside[0][0], outside[-1][0]))
PY
