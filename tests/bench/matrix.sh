#!/bin/sh
# matrix.sh: make check across the machines users have, as root: each
# cell runs tests/bench/flaky.sh -n RUNS in a fresh clone of the tree's
# HEAD, owned by the cell's user, in a private mount namespace of its own,
# and the table at the end gives each cell's failed runs and cases.
#
#   tests/bench/matrix.sh [-n RUNS] [-c "CELL..."] [-k DIR]
#	-n  runs of make check a cell (default 2)
#	-c  the cells, of (default: all, in this order)
#	      shm       TMPDIR on /dev/shm
#	      disk      TMPDIR on the root filesystem (/var/tmp)
#	      ext4      TMPDIR on a fresh ext4 on a loop device
#	      xfs       TMPDIR on a fresh xfs on a loop device
#	      smallshm  a 64 MiB /dev/shm (a container's), TMPDIR unset
#	      mounts40  40 more tmpfs mounts in the mount table, TMPDIR unset
#	      langc     LANG=C and LC_ALL=C
#	      utf8      LANG=C.UTF-8 and LC_ALL=C.UTF-8
#	      root      as root (every other cell runs as nobody)
#	      cpu       beside a busy process a core (flaky.sh -l cpu)
#	-k  keep each cell's clone and logs in DIR (default: removed)
#
# Every cell but root runs as nobody; every cell but the TMPDIR ones
# leaves TMPDIR unset, as a user's shell does.  What a cell mounts lives
# in its namespace and goes with it (a loop device is detached by
# autoclear).  Exit status 0 when every run of every cell passed.
set -u
cd "$(dirname "$0")/../.." || exit 2
TREE=$(pwd)

# the commands a cell runs inside its namespace, before make check:
# $1 the cell, $2 its directory; prints the TMPDIR to use ("" unset)
setup_cell() {
	case $1 in
	shm) d=$(mktemp -d /dev/shm/clyde-matrix.XXXXXX) && chmod 1777 "$d" && echo "$d" ;;
	disk) d=$(mktemp -d /var/tmp/clyde-matrix-tmp.XXXXXX) && chmod 1777 "$d" && echo "$d" ;;
	ext4 | xfs)
		truncate -s 8G "$2/fs.img" || return 1
		if [ "$1" = ext4 ]; then
			mkfs.ext4 -q -F "$2/fs.img" || return 1
		else
			mkfs.xfs -q -f "$2/fs.img" || return 1
		fi
		mkdir -p "$2/mnt" && mount -o loop "$2/fs.img" "$2/mnt" &&
		    chmod 1777 "$2/mnt" && echo "$2/mnt" ;;
	smallshm) mount -t tmpfs -o size=64m,mode=1777 tmpfs /dev/shm && echo "" ;;
	mounts40)
		i=1
		mkdir -p "$2/mounts" || return 1
		while [ $i -le 40 ]; do
			mkdir -p "$2/mounts/m$i" &&
			    mount -t tmpfs -o size=1m tmpfs "$2/mounts/m$i" || return 1
			i=$((i + 1))
		done
		echo "" ;;
	*) echo "" ;;
	esac
}

# inside the cell's namespace: matrix.sh --in-cell CELL DIR RUNS USER LOAD LANG
in_cell() {
	tmp=$(setup_cell "$1" "$2") || { echo "cell $1: setup failed" >&2; exit 2; }
	env -i PATH="$PATH" HOME="$2/tree" USER="$4" LOGNAME="$4" \
	    ${tmp:+TMPDIR="$tmp"} ${6:+LANG="$6"} ${6:+LC_ALL="$6"} \
	    runuser -u "$4" -- sh "$2/tree/tests/bench/flaky.sh" \
	    -n "$3" -l "$5" -k "$2/logs"
	rc=$?
	case $tmp in /dev/shm/clyde-matrix.* | /var/tmp/clyde-matrix-tmp.*) rm -rf "$tmp" ;; esac
	exit $rc
}
if [ "${1:-}" = --in-cell ]; then
	shift
	in_cell "$@"
fi

ALL="shm disk ext4 xfs smallshm mounts40 langc utf8 root cpu"
runs=2 cells=$ALL keep=
while getopts n:c:k: o; do
	case $o in
	n) runs=$OPTARG ;;
	c) cells=$OPTARG ;;
	k) keep=$OPTARG ;;
	*) sed -n '5,20p' "$0" | sed 's/^#//' >&2; exit 2 ;;
	esac
done
case $runs in '' | *[!0-9]* | 0) echo "matrix.sh: -n: a whole number from 1" >&2; exit 2 ;; esac
for c in $cells; do
	case " $ALL " in *" $c "*) ;;
	*) echo "matrix.sh: -c: no cell $c ($ALL)" >&2; exit 2 ;; esac
done
[ "$(id -u)" = 0 ] || { echo "matrix.sh: needs root (mounts, namespaces, runuser)" >&2; exit 2; }
for p in unshare runuser git mkfs.ext4 mkfs.xfs; do
	command -v $p >/dev/null || { echo "matrix.sh: no $p" >&2; exit 2; }
done

if [ -n "$keep" ]; then
	mkdir -p "$keep" || exit 2
	dir=$(cd "$keep" && pwd)
else
	dir=$(mktemp -d /var/tmp/clyde-matrix.XXXXXX) || exit 2
fi
chmod 755 "$dir"
trap '[ -n "$keep" ] || rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM

# run_cell CELL: make check RUNS times in the cell; its summary in
# $dir/CELL/summary, its lines of failures in $dir/CELL/failures
run_cell() {
	c=$1 cd=$dir/$1
	mkdir -p "$cd" && chmod 755 "$cd" || return 1
	git clone -q "$TREE" "$cd/tree" || return 1
	user=nobody load=none lang=
	case $c in
	root) user=root ;;
	cpu) load=cpu ;;
	langc) lang=C ;;
	utf8) lang=C.UTF-8 ;;
	esac
	chown -R "$user" "$cd/tree" "$cd"
	unshare -m --propagation private sh "$TREE/tests/bench/matrix.sh" --in-cell \
	    "$c" "$cd" "$runs" "$user" "$load" "$lang" >"$cd/flaky.log" 2>&1
	rc=$?
	grep '^runs that failed' "$cd/flaky.log" >"$cd/summary" ||
	    echo "no summary: exit $rc (see $cd/flaky.log)" >"$cd/summary"
	awk '/^failures per test/ { on = 1; next } /^runs that failed/ { on = 0 }
	    on && !/  none$/' "$cd/flaky.log" >"$cd/failures"
	return $rc
}

bad=0
for c in $cells; do
	t0=$(date +%s)
	run_cell "$c" || bad=$((bad + 1))
	echo "$c: $(cat "$dir/$c/summary"), $(($(date +%s) - t0)) s"
	[ -n "$keep" ] || rm -rf "$dir/$c/tree"
done

echo
echo "make check, $runs runs a cell, $(uname -r), $(nproc) cores:"
printf '%-9s %-8s %s\n' cell failed "cases that failed (runs)"
for c in $cells; do
	f=$(sed -n 's/^runs that failed: //p' "$dir/$c/summary")
	cases=$(sed 's/^ *//' "$dir/$c/failures" | tr '\n' ';' | sed 's/;$//')
	printf '%-9s %-8s %s\n' "$c" "${f:-?}" "${cases:--}"
done
[ $bad = 0 ]
