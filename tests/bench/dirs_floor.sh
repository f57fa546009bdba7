#!/bin/sh
# clyde's directory rates (--dirs) beside a plain mkdirat/fstatat/unlinkat
# loop in C over the same tree (dirs_floor.c), the floor of a tool doing
# the same calls by path.  mdtest, the usual yardstick for these phases,
# is not packaged in Debian (it comes with IOR, built from source with
# MPI), so the floor stands in for it.
#
#   tests/bench/dirs_floor.sh [DIR]
#
# DIR (default: a fresh tmpfs, which needs root) holds the trees.  From
# the environment: RUNS (default 3), SPECS (the --dirs values, default
# "16 16:2:32 16:3:16"), CLYDE (default: ./clyde of the tree, built).
# Prints, for each spec, the median over the runs of each rate and
# clyde's as a percentage of the floor's: create, stat and delete in
# tree order (clyde's dir_stat and dir_del read each parent with
# readdir, the floor goes by path, as clyde's random phases), and
# clyde's random order.
set -eu
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
SPECS=${SPECS:-"16 16:2:32 16:3:16"}
CLYDE=${CLYDE:-./clyde}
work=$(mktemp -d "${TMPDIR:-/tmp}/clyde-dirs-floor.XXXXXX")
mounted=""
trap '[ -n "$mounted" ] && umount "$work/mnt"; rm -rf "$work"' EXIT

${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 \
    -o "$work/dirs_floor" tests/bench/dirs_floor.c
[ -x "$CLYDE" ] || { echo "dirs_floor.sh: no $CLYDE: make clyde first" >&2; exit 1; }
if [ $# -gt 0 ]; then
	dir=$1
else
	mkdir "$work/mnt"
	mount -t tmpfs -o size=2g,nr_inodes=1m tmpfs "$work/mnt"
	mounted=1
	dir=$work/mnt
fi
if [ "$(id -u)" = 0 ]; then as_user="-u root"; else as_user=""; fi

for spec in $SPECS; do
	n=${spec%%:*}
	rest=${spec#"$n"}
	depth=$(echo "$rest" | cut -d: -f2)
	fanout=$(echo "$rest" | cut -d: -f3)
	depth=${depth:-1}
	fanout=${fanout:-10}
	: > "$work/rates"
	r=1
	while [ "$r" -le "$RUNS" ]; do
		rm -f "$work/run.json"
		"$CLYDE" -d "$dir" $as_user -q -r 0 -s 0 -n 0 --precise \
		    --dirs="$n:$depth:$fanout" --json="$work/run.json" \
		    >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
		python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
for ph in ("dir_create", "dir_stat", "dir_del", "ran_dir_create",
           "ran_dir_stat", "ran_dir_del"):
    print("clyde", ph, r["tests"][ph]["rate"])' "$work/run.json" >> "$work/rates"
		"$work/dirs_floor" "$dir" "$n" "$depth" "$fanout" |
		    sed 's/^/floor /' >> "$work/rates"
		r=$((r + 1))
	done
	echo "--dirs=$n:$depth:$fanout, $RUNS runs, median directories/s:"
	awk '
	function median(k,   n, i, j, t, a) {
		n = cnt[k]
		for (i = 1; i <= n; i++) a[i] = v[k, i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ k = $1 " " $2; v[k, ++cnt[k]] = $3 }
	END {
		split("create stat delete", f)
		split("dir_create dir_stat dir_del", c)
		split("ran_dir_create ran_dir_stat ran_dir_del", rc)
		printf "  %-8s %10s %10s %7s %12s %7s\n", "", "floor", "clyde",
		    "%", "clyde random", "%"
		for (i = 1; i <= 3; i++) {
			fl = median("floor " f[i])
			cl = median("clyde " c[i])
			ra = median("clyde " rc[i])
			printf "  %-8s %10.0f %10.0f %6.0f%% %12.0f %6.0f%%\n",
			    f[i], fl, cl, 100 * cl / fl, ra, 100 * ra / fl
		}
	}' "$work/rates"
done
