#!/bin/sh
# make check-mounts: clyde on real filesystems, as root.  Each one is
# brought up by a script in tests/root/mounts, used, and taken down again:
#   tmpfs (64 MiB)     another writer fills it mid-run: exit 3, ENOSPC named,
#                      the phases completed before it reported
#   ext4, xfs, btrfs   a full tiny run in both profiles on a loop device
#                      (2.00 with --dirs), then read-only: refused before any phase (exit 2);
#                      made read-only mid-run: exit 3, EROFS named
#   GlusterFS          one brick over loopback, FUSE client: a full run
#                      with a tiny per-char size (each byte a round trip),
#                      and one by three clyde-mpi ranks at once
#   sshfs              a private sshd on 127.0.0.1: a full run without the
#                      per-char phases, then a run during which sshfs is
#                      killed: exit 3, no hang
# On every mount the results parse (clyde report reads them back), files
# placed there before are byte-identical after, and nothing of clyde's is
# left.  A filesystem that cannot be brought up is a TAP skip, not a pass.
. "$(dirname "$0")/../lib.sh"

M=$(pwd)/tests/root/mounts
export STATE="$WORK/state"
# a run that hangs is a failure, not a stuck CI job
RUN_TIMEOUT=${RUN_TIMEOUT:-300}

if [ "$(id -u)" != 0 ]; then
	skip "check-mounts needs root (mount, losetup, daemons)" all
fi

# Whatever is still up when the script ends is taken down before $WORK
# goes, and rm stays on this filesystem in any case.
UP=
down_all() {
	for fs in $UP; do take_down "$fs"; done
	rm -rf --one-file-system "$WORK"
}
trap down_all EXIT
trap 'exit 1' INT TERM

mnt_of() { echo "$WORK/mnt-$1"; }

bring_up() { # bring_up FS: 0 when it is up
	mnt=$(mnt_of "$1")
	UP="$UP $1"
	case $1 in
	tmpfs) "$M/tmpfs.sh" up "$mnt" 64m ;;
	ext4 | xfs | btrfs) "$M/loopfs.sh" "$1" up "$mnt" ;;
	gluster) "$M/glusterfs.sh" up "$mnt" ;;
	sshfs) "$M/sshfs.sh" up "$mnt" "$WORK/export" ;;
	esac >"$WORK/up.log" 2>&1
}

take_down() { # take_down FS: 0 when it is down and nothing of it is left
	mnt=$(mnt_of "$1")
	case $1 in
	tmpfs) "$M/tmpfs.sh" down "$mnt" ;;
	ext4 | xfs | btrfs) "$M/loopfs.sh" "$1" down "$mnt" ;;
	gluster) "$M/glusterfs.sh" down "$mnt" ;;
	sshfs) "$M/sshfs.sh" down "$mnt" "$WORK/export" ;;
	esac >"$WORK/down.log" 2>&1
	UP=$(echo "$UP" | sed "s/ $1\$//; s/ $1 / /")
	! grep -q " $mnt " /proc/self/mountinfo && [ ! -e "$mnt" ] &&
	    ! losetup -a | grep -q "$STATE/" && [ -z "$(ls -A "$STATE")" ]
}

# Files of a user, there before clyde and after it: some with names
# clyde uses inside its scratch directory, and one that looks like a
# scratch directory of a run that still runs (PID 1), so not stale.
place_user_files() { # place_user_files DIR
	mkdir -p "$1/user" "$1/clyde.1.keepme" "$1/files" &&
	    head -c 100000 /dev/urandom >"$1/user/data" &&
	    printf 'keep me\n' >"$1/Bonnie.1" &&
	    printf 'x' >"$1/clyde.1.keepme/inside" &&
	    printf 'y' >"$1/files/00000" &&
	    ln -s user/data "$1/link" &&
	    snapshot "$1" >"$WORK/before"
}

# every name and the checksum of every file, lost+found aside
snapshot() {
	(cd "$1" && find . -path ./lost+found -prune -o -print | sort |
	    while read -r f; do
		if [ -f "$f" ] && [ ! -L "$f" ]; then
			echo "$f $(cksum <"$f")"
		else
			echo "$f"
		fi
	    done)
}

untouched() { snapshot "$1" | cmp -s - "$WORK/before"; }

# clyde DIR ARGS...: a run into $WORK/out and $WORK/err; sets $rc
clyde() {
	dir=$1
	shift
	timeout "$RUN_TIMEOUT" "$CLYDE" -d "$dir" $AS_USER -m host -r 0 -q "$@" \
	    >"$WORK/out" 2>"$WORK/err"
	rc=$?
}

# the CSV line has its profile's field count and clyde report reads it
parses() { # parses FIELDS
	line=$(tail -1 "$WORK/out")
	[ "$(nfields "$line")" = "$1" ] &&
	    printf '%s\n' "$line" | "$CLYDE" report --json >"$WORK/json" &&
	    grep -q '"name": "host"' "$WORK/json"
}

why() { { echo "rc=$rc"; cat "$WORK/err"; } | diag; }

# what clyde said, for the log: its messages, not the -u root or -y p ones
said() { grep '^clyde: ' "$WORK/err" | grep -v 'running as root\|press Enter' | diag; }

# elapsed time of a filesystem's tests, for the log
clock() { date +%s.%N; }
took() { awk -v a="$2" -v b="$(clock)" -v fs="$1" 'BEGIN { printf "%s: %.1f s\n", fs, b - a }' | diag; }

# start FS WHAT TESTS: bring FS up and place the user's files there; when
# it cannot be brought up, its TESTS tests are skipped
start() {
	t0=$(clock)
	mnt=$(mnt_of "$1")
	if bring_up "$1"; then
		ok 0 "$1: up, $2"
		place_user_files "$mnt"
		return 0
	fi
	skip "$1 cannot be brought up here: $(tail -1 "$WORK/up.log")" "$3"
	take_down "$1"
	took "$1" "$t0"
	return 1
}

# finish FS WHAT: take FS down; nothing of it may be left
finish() {
	take_down "$1"
	ok $? "$1: down, $2" || diag <"$WORK/down.log"
	took "$1" "$t0"
}

# full_run FS PROFILE-ARGS...: a full run that ends well and leaves nothing
full_run() {
	fs=$1
	shift
	case $* in *2.00*) n=50 ;; *) n=27 ;; esac
	clyde "$(mnt_of "$fs")" "$@"
	[ "$rc" = 0 ] && parses "$n" && untouched "$(mnt_of "$fs")"
	ok $? "$fs: a full run $*: exit 0, $n fields that parse, the user's files alone" ||
	    why
}

# the scratch directory a failed run left in DIR (not the user's look-alike)
scratch_left() {
	(cd "$1" && ls -d clyde.[0-9]*.?????? 2>/dev/null) | grep -v '^clyde\.1\.keepme$'
}

# remove_left DIR NAME: remove that scratch directory, as its message says
remove_left() { [ -n "$2" ] && [ -d "$1/$2" ] && rm -rf "${1:?}/$2"; }

# --- tmpfs: full, by another writer, in the middle of a run ----------

# A run that waits for Enter before each phase (-y p), on a FIFO: ACTION
# MOUNT-POINT runs while the run waits before PHASE, so that this phase
# fails, deterministically, after every check before the run has passed.
before() { # before PHASE ACTION FS ARGS...
	phase=$1 action=$2 mnt=$(mnt_of "$3")
	shift 3
	rm -f "$WORK/in"
	mkfifo "$WORK/in"
	timeout "$RUN_TIMEOUT" "$CLYDE" -d "$mnt" $AS_USER -m host -r 0 -y p \
	    "$@" <"$WORK/in" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	exec 3>"$WORK/in"
	for p in putc put_block rewrite getc get_block seeks seq_create \
	    seq_stat seq_del ran_create ran_stat ran_del; do
		grep -q "press Enter to start $(phase_label $p)\$" "$WORK/err" ||
		    wait_for_text "press Enter to start $(phase_label $p)\$" || break
		[ "$p" = "$phase" ] && $action "$mnt"
		echo >&3
	done
	exec 3>&-
	wait "$pid"
	rc=$?
}

# another writer takes every free block
fill() { dd if=/dev/zero of="$1/other-writer" bs=64k 2>/dev/null; }

# the filesystem of the loop device $fs turns read-only
read_only() { "$M/loopfs.sh" "$fs" ro "$1" >/dev/null 2>&1; }

# running PID: not ended (an ended child stays a zombie until waited for)
running() { case $(ps -o stat= -p "$1" 2>/dev/null) in '' | Z*) false ;; esac; }

wait_for_text() { # wait_for_text ERE: in $WORK/err while $pid runs, 30 s at most
	i=0
	while [ $i -lt 300 ]; do
		grep -Eq "$1" "$WORK/err" && return 0
		running "$pid" || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

if start tmpfs "64 MiB" 6; then
	before seq_create fill tmpfs -s 32 -n 1:4096:4096
	rm -f "$mnt/other-writer"
	line=$(tail -1 "$WORK/out")
	[ "$rc" = 3 ] &&
	    grep -Eq "^clyde: sequential create: $SCRATCH/files/[0-9a-f]{10}[A-Za-z0-9]*: write: No space left on device\$" "$WORK/err" &&
	    [ -n "$(field "$line" 5)$(field "$line" 7)$(field "$line" 11)$(field "$line" 13)" ] &&
	    [ -z "$(field "$line" 16)$(field "$line" 18)$(field "$line" 26)" ] &&
	    grep -q '^Version 1.03e' "$WORK/out" && untouched "$mnt"
	ok $? "tmpfs filled before sequential create: exit 3, ENOSPC named, the I/O phases reported, nothing left" ||
	    why
	said
	before putc fill tmpfs -s 32 -n 1
	rm -f "$mnt/other-writer"
	line=$(tail -1 "$WORK/out")
	[ "$rc" = 3 ] &&
	    grep -Eq "^clyde: per-char write: $SCRATCH/Bonnie\.[0-9]+: (putc|write|fsync): No space left on device\$" "$WORK/err" &&
	    [ -z "$(field "$line" 3)$(field "$line" 5)$(field "$line" 13)" ] &&
	    [ "$(nfields "$line")" = 27 ] && untouched "$mnt"
	ok $? "tmpfs filled before per-char write (stdio): exit 3, ENOSPC named, nothing left" ||
	    why
	said
	before rewrite fill tmpfs --compat=2.00 -f1 -s 32 -n 1
	rm -f "$mnt/other-writer"
	line=$(tail -1 "$WORK/out")
	[ "$rc" = 0 ] && [ "$(nfields "$line")" = 50 ] && untouched "$mnt"
	ok $? "tmpfs filled before rewrite, which needs no new block: the run completes" ||
	    why
	full_run tmpfs -s 16 -n 1
	finish tmpfs "nothing left"
fi

# --- ext4, xfs, btrfs on loop devices ------------------------------------

for fs in ext4 xfs btrfs; do
	start "$fs" "on a loop device" 6 || continue
	full_run "$fs" --compat=1.03 -s 16 -n 1
	# with the directory phases: a tree of 1024 made and removed there
	full_run "$fs" --compat=2.00 -f1 -s 16 -n 1 --dirs=1:2:8
	"$M/loopfs.sh" "$fs" ro "$mnt" >/dev/null 2>&1
	clyde "$mnt" -s 16 -n 1
	[ "$rc" = 2 ] && grep -q "^clyde: -d $mnt: .*[Rr]ead-only file system" "$WORK/err" &&
	    [ ! -s "$WORK/out" ] && ! grep -q "Writing\|press Enter" "$WORK/err" &&
	    untouched "$mnt"
	ok $? "$fs read-only: refused before any phase, exit 2" || why
	said
	"$M/loopfs.sh" "$fs" rw "$mnt" >/dev/null 2>&1
	# read-only in the middle of a run: EROFS, and what is left named
	before seq_create read_only "$fs" -s 16 -n 1
	"$M/loopfs.sh" "$fs" rw "$mnt" >/dev/null 2>&1
	left=$(scratch_left "$mnt")
	[ "$rc" = 3 ] && [ -n "$left" ] &&
	    grep -Eq "^clyde: sequential create: $SCRATCH/files: mkdir: Read-only file system\$" "$WORK/err" &&
	    grep -q "^clyde: cannot remove $mnt/$left: Read-only file system; it is left in place" "$WORK/err" &&
	    [ -n "$(field "$(tail -1 "$WORK/out")" 13)" ] &&
	    remove_left "$mnt" "$left" && untouched "$mnt"
	ok $? "$fs turned read-only before sequential create: exit 3, EROFS named, the I/O phases reported, the path left named" ||
	    why
	said
	finish "$fs" "loop device detached, nothing left"
done

# --- GlusterFS -----------------------------------------------------------

if start gluster "one brick over 127.0.0.1, FUSE mount" 4; then
	full_run gluster --compat=2.00 -f1 -s 16 -n 1
	# three clients at once, as clyde-mpi ranks (no per-char: three
	# ranks of byte round trips take minutes here)
	if command -v mpirun >/dev/null && make -s mpi >/dev/null 2>&1; then
		rm -f "$WORK/mpi.json"
		timeout "$RUN_TIMEOUT" mpirun --oversubscribe --allow-run-as-root \
		    --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
		    -np 3 ./clyde-mpi -d "$mnt" $AS_USER -m host -r 0 -q \
		    --compat=2.00 -f -s 16 -n 1 --json="$WORK/mpi.json" \
		    >"$WORK/out" 2>"$WORK/err"
		rc=$?
		line=$(tail -1 "$WORK/out")
		[ "$rc" = 0 ] && [ "$(nfields "$line")" = 50 ] &&
		    [ "$(field "$line" 4)" = 3 ] &&
		    [ "$(grep -c '"rank": ' "$WORK/mpi.json")" = 3 ] && untouched "$mnt"
		ok $? "gluster: clyde-mpi, 3 ranks: one line, concurrency 3, nothing left" ||
		    why
	else
		skip "gluster: no Open MPI to build clyde-mpi"
	fi
	finish gluster "volume deleted, daemons stopped by PID"
fi

# --- sshfs ---------------------------------------------------------------

if start sshfs "a private sshd on 127.0.0.1" 5; then
	# no per-char phases: each byte written is an SFTP request through one
	# sshd, a minute idle for -f1 and more than RUN_TIMEOUT on a loaded
	# host; GlusterFS above has FUSE's per-char round trips
	full_run sshfs --compat=2.00 -f -s 16 -n 1
	# the mount goes away in the middle of the I/O phases
	# a mount that never comes back: cleanup waits --cleanup-wait, then names
	timeout "$RUN_TIMEOUT" "$CLYDE" -d "$mnt" $AS_USER -m host -r 0 -f \
	    -s 256 -n 1 --cleanup-wait=2 >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_for_text "Writing intelligently" && sleep 1
	"$M/sshfs.sh" kill "$mnt" "$WORK/export"
	wait "$pid"
	rc=$?
	left=$(scratch_left "$WORK/export")
	[ "$rc" = 3 ] &&
	    grep -Eq "^clyde: [a-z -]+: $SCRATCH/Bonnie\.[0-9]+: [a-z ]+[a-z0-9 ]*: (Transport endpoint is not connected|Software caused connection abort|Input/output error)\$" "$WORK/err" &&
	    [ -n "$left" ] &&
	    grep -q "^clyde: cleanup: cannot remove .*; waiting up to 2 s for the filesystem (SIGINT stops)\$" "$WORK/err" &&
	    grep -q "^clyde: cannot remove $mnt/$left: .*; it is left in place, remove it with: rm -rf '$mnt/$left'\$" "$WORK/err"
	ok $? "sshfs killed mid-run: exit 3 (no hang), a wait of 2 s, the error and the path left named" ||
	    why
	said
	remove_left "$WORK/export" "$left" && untouched "$WORK/export"
	ok $? "sshfs: the user's files on the server side are untouched"
	finish sshfs "sshd stopped by PID"
fi

done_testing
