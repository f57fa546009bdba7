#!/bin/sh
# The links of -n N:-1 and -n N:-2 (clyde(1), -n): in each directory of
# files/ the first name a create phase makes is an empty file, and every
# later name there a hard link to it, or a symbolic link to its bare
# name; no link crosses a directory.  So they work where a filesystem
# links only within one directory, as AFS does (the fault shim's
# CLYDE_FAULT_LINK_ONE_DIR), with subdirectories too, and leave nothing.
. "$(dirname "$0")/../lib.sh"

if [ -n "${CLYDE_SANITIZED:-}" ] ||
    ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan'; then
	skip "sanitizer build: the LD_PRELOAD fault shim runs on the normal build" all
fi
if [ ! -f "$SHIM" ]; then
	ok 1 "the fault shim $SHIM is built (make build/tests/fault_shim.so)"
	done_testing
fi

# --- what is made: held at the sequential stat's 10th stat --------------

# layout DIR MODE: in DIR one regular file, and every other name a hard
# link to it (MODE hard: all the same inode, as many links as names) or
# a symbolic link whose text is its bare name (MODE sym)
layout() {
	names=$(find "$1" -mindepth 1 -maxdepth 1 | wc -l)
	[ "$names" -gt 1 ] || return 1
	if [ "$2" = hard ]; then
		[ "$(find "$1" -mindepth 1 -maxdepth 1 ! -type f | wc -l)" = 0 ] &&
		    [ "$(find "$1" -mindepth 1 -maxdepth 1 -printf '%i %n %s\n' |
		    sort -u)" = "$(find "$1" -mindepth 1 -maxdepth 1 -printf '%i ' |
		    cut -d' ' -f1) $names 0" ]
	else
		first=$(find "$1" -mindepth 1 -maxdepth 1 -type f -printf '%f\n')
		[ "$(printf '%s\n' "$first" | grep -c .)" = 1 ] &&
		    [ "$(find "$1" -mindepth 1 -maxdepth 1 -type l | wc -l)" = $((names - 1)) ] &&
		    [ "$(find "$1" -mindepth 1 -maxdepth 1 -type l -printf '%l\n' |
		    sort -u)" = "$first" ] &&
		    [ ! -s "$1/$first" ]
	fi
}

for l in "1:-1 hard ." "1:-1:0:3 hard 00000 00001 00002" \
    "1:-2 sym ." "1:-2:0:3 sym 00000 00001 00002"; do
	set -- $l
	spec=$1 mode=$2
	shift 2
	held_file=$SEQ_FILES held_at fstatat 10 -s 0 -n "$spec"
	good=0
	for d in "$@"; do
		layout "$t"/clyde.*/files/"$d" $mode || good=1
	done
	[ -z "$(ls -A "$t"/clyde.* | grep -v '^files$\|^made-by$')" ] || good=1
	find "$t" -mindepth 2 | sed "s|^$t/||" | head -5 >"$WORK/listing"
	released
	[ "$good" = 0 ] && [ "$rc" = 0 ] && is_empty "$t"
	ok $? "-n $spec: in each directory one empty file, every other name a $([ $mode = hard ] && echo 'hard link to it' || echo 'symbolic link to its bare name'); nothing beside files/; exit 0, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/listing"; } | diag
done

# --- a filesystem that links within one directory only ---------------------

# one_dir ARGS...: a run with the fault shim refusing links across
# directories (EXDEV)
one_dir() { CLYDE_FAULT_LINK_ONE_DIR=1 LD_PRELOAD=$SHIM run -q "$@"; }

# the shim itself: a link across directories is EXDEV, within one works
# (relative names: the shim counts no call by an absolute path)
mkdir "$WORK/a" "$WORK/b" && : >"$WORK/a/f"
(cd "$WORK" && CLYDE_FAULT_LINK_ONE_DIR=1 LD_PRELOAD=$SHIM ln a/f b/g) 2>"$WORK/err"
across=$?
(cd "$WORK" && CLYDE_FAULT_LINK_ONE_DIR=1 LD_PRELOAD=$SHIM ln a/f a/g)
within=$?
[ "$across" != 0 ] && grep -q 'Invalid cross-device link' "$WORK/err" &&
    [ "$within" = 0 ] && [ ! -e "$WORK/b/g" ] && [ -f "$WORK/a/g" ]
ok $? "CLYDE_FAULT_LINK_ONE_DIR=1: ln across directories fails with EXDEV, within one works" ||
    { echo "across=$across within=$within"; cat "$WORK/err"; } | diag
rm -rf "$WORK/a" "$WORK/b"

for spec in 1:-1 1:-1:0:4 1:-2 1:-2:0:4; do
	one_dir -s 0 -n $spec
	line=$(grep , "$WORK/out" | tail -1)
	[ "$rc" = 0 ] && ! grep -q '^clyde:' "$WORK/err" && [ "$(nfields "$line")" = 27 ] &&
	    [ "$(field "$line" 15)" = "$(echo $spec | sed 's/:-1/:link/; s/:-2/:symlink/; s/:0:/\//')" ] &&
	    is_empty "$t"
	ok $? "links within one directory only: -n $spec runs, exit 0, the CSV line, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err"; grep , "$WORK/out"; ls -AR "$t"; } | diag
done

# 2.00 as well: its random create and the -b fsyncs
one_dir --compat=2.00 -b -s 0 -n 1:-1:0:2
[ "$rc" = 0 ] && ! grep -q '^clyde:' "$WORK/err" && is_empty "$t" &&
    [ "$(nfields "$(grep , "$WORK/out" | tail -1)")" = 50 ]
ok $? "--compat=2.00 -b -n 1:-1:0:2, links within one directory only: exit 0, 50 fields, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t"; } | diag

done_testing
