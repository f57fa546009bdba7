#!/bin/sh
# Network filesystem behaviour of the small-file phases, shown with the
# fault shim instead of a real network mount: a readdir() that skips
# names (read again, readdir_passes in the JSON), names clyde did not
# make in files/ (left in place and named), a directory that is busy for
# a moment (rmdir tried again) and NFS silly-renames (.nfsXXXX) that stay.
. "$(dirname "$0")/../lib.sh"

# shim CALL FILE ERR ARGS...: a run with the fault shim, CALL on a file
# whose name matches the glob FILE ('': any of clyde's) failing with ERR;
# what it hit in $WORK/hits (hits_are)
shim() {
	call=$1 file=$2 err=$3
	shift 3
	rm -f "$WORK/hits"
	CLYDE_FAULT_CALL=$call CLYDE_FAULT_FILE=$file CLYDE_FAULT_ERR=$err \
	    CLYDE_FAULT_HITS=$WORK/hits LD_PRELOAD=$SHIM run "$@"
}
# the glob of the subdirectories of files/ (-n N:M:m:DIRS)
SUBDIR='[0-9][0-9][0-9][0-9][0-9]'

# passes PHASE: its "readdir_passes" in $WORK/run.json (a number or null)
passes() {
	sed -n "s/^ *\"$1\": {\"ops\".*\"readdir_passes\": \([0-9a-z]*\)}.*/\1/p" \
	    "$WORK/run.json"
}

# paused ARGS...: a run held at its 10th stat of a small file (in the
# sequential stat, when files/ is complete) until $io/go exists, its output in $io/out
# and $io/err (io: $WORK, or a directory of the run's own); $files is
# then the path of its files/.  Finish it with: touch "$io/go"; finish
io=$WORK
paused() {
	t=$(fresh_target)
	rm -f "$io/go"
	CLYDE_FAULT_CALL=fstatat CLYDE_FAULT_FILE=$SEQ_FILES \
	    CLYDE_FAULT_NTH=10 CLYDE_FAULT_ERR=block \
	    CLYDE_FAULT_RELEASE="$io/go" LD_PRELOAD=$SHIM \
	    "$CLYDE" -d "$t" $AS_USER -m host -r 0 "$@" >"$io/out" \
	    2>"$io/err" &
	pid=$!
	i=0
	# at most a minute for the create phase
	while ! ls -d "$t"/clyde.*/files >/dev/null 2>&1 && [ $i -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	files=$(echo "$t"/clyde.*/files)
}
finish() {
	wait $pid
	rc=$?
}

# what is left in the target, as paths inside it, sorted
left_in() { (cd "$1" && find . -mindepth 1 | sed 's|^\./||' | sort); }

if [ -n "${CLYDE_SANITIZED:-}" ] ||
    ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan'; then
	skip "sanitizer build: the LD_PRELOAD fault shim runs on the normal build" 20
	done_testing
fi
if [ ! -f "$SHIM" ]; then
	ok 1 "the fault shim $SHIM is built (make build/tests/fault_shim.so)"
	done_testing
fi

# --- begun first: a silly-rename that stays --------------------------------

# Its run waits 10 s for the .nfsXXXX to go (clyde(1), SAFETY) before it
# names it: begun here, with a directory of its own, it waits while the
# other cases run, and is looked at in its place below.
io=$WORK/stays
mkdir "$io"
paused -s 0 -n 1:0:0:2
: >"$files/00001/.nfs00000000000a1b2d"
touch "$io/go"
stays_pid=$pid stays_t=$t
io=$WORK

# --- a readdir() that skips names --------------------------------------

# each unlink makes the next readdir() pass over a name, as NFS-Ganesha's
rm -f "$WORK/run.json"
shim readdir_skip '' '' -s 0 -n 1 --json="$WORK/run.json"
del=$(passes seq_del)
[ "$rc" = 0 ] && is_empty "$t" && [ "$del" -ge 2 ] 2>/dev/null &&
    [ "$(passes seq_stat)" = 1 ] && [ "$(passes seq_create)" = null ] &&
    [ "$(passes ran_del)" = null ] &&
    grep -Eq "^clyde: sequential delete: $SCRATCH/files: the directory read skipped [1-9][0-9]* names; read again \($del passes\)\$" "$WORK/err"
ok $? "readdir skipping names in sequential delete: read again, exit 0, nothing left, readdir_passes $del" ||
    { echo "rc=$rc"; cat "$WORK/err"; grep readdir_passes "$WORK/run.json"; ls -AR "$t"; } | diag

# three readdir() calls in the sequential stat each pass over a name:
# the 100th to 102nd of files/ (1024 names and . and .., read first
# there)
rm -f "$WORK/run.json"
CLYDE_FAULT_NTH=100 CLYDE_FAULT_COUNT=3 \
    shim readdir files skip -s 0 -n 1 --json="$WORK/run.json"
[ "$rc" = 0 ] && is_empty "$t" && [ "$(passes seq_stat)" = 2 ] &&
    hits_are 'readdir files 10[012]' 3 &&
    [ "$(passes seq_del)" = 1 ] &&
    grep -Eq "^clyde: sequential stat: $SCRATCH/files: the directory read skipped 3 names; read again \(2 passes\)\$" "$WORK/err" &&
    [ "$(field "$(tail -1 "$WORK/out")" 18)" != "" ]
ok $? "readdir skipping 3 names in sequential stat: 2 passes, every file stat'ed once" ||
    { echo "rc=$rc"; cat "$WORK/err"; grep readdir_passes "$WORK/run.json"; } | diag
grep -Eq '"seq_stat": \{"ops": 1024,' "$WORK/run.json"
ok $? "the stat counted 1024 files, none twice" ||
    grep seq_stat "$WORK/run.json" | diag

# several directories, and -c 2 (each copy's own directories)
rm -f "$WORK/run.json"
shim readdir_skip '' '' --compat=2.00 -c 2 -s 0 -n 1:0:0:4 --json="$WORK/run.json"
[ "$rc" = 0 ] && is_empty "$t" && [ "$(passes seq_del)" -ge 2 ] 2>/dev/null &&
    grep -Eq "^clyde: sequential delete: $SCRATCH/copy\.[01]/files: the directory read skipped" "$WORK/err"
ok $? "readdir skipping names, 4 directories, -c 2: read again, exit 0, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t"; } | diag

# every readdir() of files/ passes over a name: each pass returns the
# same half of the names, never the other, and the phase that reads it
# first fails
CLYDE_FAULT_COUNT=0 shim readdir files skip -s 0 -n 1
[ "$rc" = 3 ] && is_empty "$t" && hits_are 'readdir files [0-9]+' &&
    grep -Eq "^clyde: sequential stat: $SCRATCH/files/[0-9a-f]{10}[A-Za-z0-9]*: not found by readdir in [0-9]+ passes \([0-9]+ of clyde's files missing\)\$" "$WORK/err"
ok $? "a name readdir never returns: named with the count missing, exit 3, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- errors of a network mount on the calls the walks make ----------------

# the 50th readdir() of files/, and the 5th stat of a small file: both
# in the sequential stat, the first phase to read and stat them
CLYDE_FAULT_NTH=50 shim readdir files ESTALE -s 0 -n 1
[ "$rc" = 3 ] && is_empty "$t" && hits_are 'readdir files 50' 1 &&
    grep -Eq "^clyde: sequential stat: $SCRATCH/files: readdir: Stale file handle\$" "$WORK/err"
ok $? "readdir ESTALE in sequential stat: exit 3, named, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; } | diag
CLYDE_FAULT_NTH=5 shim fstatat "$SEQ_FILES" ESTALE -s 0 -n 1
[ "$rc" = 3 ] && is_empty "$t" && hits_are "fstatat $SEQ_NAME 5" 1 &&
    grep -Eq "^clyde: sequential stat: $SCRATCH/files/$SEQ_NAME: stat: Stale file handle\$" "$WORK/err"
ok $? "stat ESTALE in sequential stat: exit 3, named, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; } | diag

# --- names clyde did not make ------------------------------------------------

# someone else's file appears in files/ during the run; then the same
# where rmdir of a directory that is not empty answers EEXIST (AFS;
# POSIX allows it or ENOTEMPTY): said as not empty all the same
for eexist in 0 1; do
	[ $eexist = 1 ] && export CLYDE_FAULT_RMDIR_EEXIST=1
	paused -s 0 -n 1
	unset CLYDE_FAULT_RMDIR_EEXIST
	: >"$files/foo"
	touch "$WORK/go"
	finish
	s=$(ls -A "$t")
	[ "$rc" = 3 ] && [ "$(left_in "$t")" = "$(printf '%s\n' "$s" "$s/files" "$s/files/foo")" ] &&
	    { [ $eexist = 1 ] || grep -Eq "^clyde: sequential (stat|delete): $SCRATCH/files/foo: not made by clyde; left in place\$" "$WORK/err"; } &&
	    grep -Eq "^clyde: cannot remove $SCRATCH/files: Directory not empty; it holds foo, not made by clyde\$" "$WORK/err" &&
	    grep -q "^clyde: cannot remove $t/$s: Directory not empty; it is left in place, remove it with: rm -rf '$t/$s'\$" "$WORK/err" &&
	    ! grep -q 'File exists' "$WORK/err"
	got=$?
	what="a file clyde did not make: left in place and named, exit 3, all of clyde's removed"
	[ $eexist = 1 ] && what="rmdir answering EEXIST for a directory that is not empty: said as not empty, exit 3"
	ok $got "$what" || { echo "rc=$rc"; cat "$WORK/err"; left_in "$t"; } | diag
	rm -rf "${t:?}"/clyde.*
done

# the same in the sequential delete (held at its 10th unlink of a small
# file), 1.03 and 2.00
for compat in 1.03 2.00; do
	t=$(fresh_target)
	rm -f "$WORK/go"
	CLYDE_FAULT_CALL=unlinkat CLYDE_FAULT_FILE=$SEQ_FILES \
	    CLYDE_FAULT_NTH=10 CLYDE_FAULT_ERR=block \
	    CLYDE_FAULT_RELEASE="$WORK/go" LD_PRELOAD=$SHIM \
	    "$CLYDE" -d "$t" $AS_USER -m host -r 0 --compat=$compat -s 0 -n 1 \
	    >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	# held: the sequential delete has begun and removed 9 of 1024 files
	i=0
	while ! { grep -q "^Delete files in sequential order" "$WORK/err" &&
	    [ "$(ls "$t"/clyde.*/files | wc -l)" = 1015 ]; } 2>/dev/null &&
	    [ $i -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	files=$(echo "$t"/clyde.*/files)
	: >"$files/0000000000zz"
	touch "$WORK/go"
	finish
	s=$(ls -A "$t")
	[ "$rc" = 3 ] && [ "$(left_in "$t")" = "$(printf '%s\n' "$s" "$s/files" "$s/files/0000000000zz")" ] &&
	    grep -Eq "^clyde: sequential delete: $SCRATCH/files(/0000000000zz: not made by clyde; left in place|: rmdir: Directory not empty; it holds 0000000000zz, not made by clyde)\$" "$WORK/err"
	ok $? "$compat: a name like clyde's in the sequential delete: left in place and named, exit 3" ||
	    { echo "rc=$rc"; cat "$WORK/err"; left_in "$t"; } | diag
	rm -rf "${t:?}"/clyde.*
done

# --- directories that do not empty at once -----------------------------------

# the first rmdir of files/ (the sequential delete's) sees it busy, as
# while a silly-rename goes
shim rmdir files ENOTEMPTY -s 0 -n 1
[ "$rc" = 0 ] && is_empty "$t" && hits_are 'rmdir files 1' 1
ok $? "rmdir ENOTEMPTY once: tried again, exit 0, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; ls -AR "$t"; } | diag
# the sequential delete's rmdir of its second subdirectory
CLYDE_FAULT_NTH=2 shim rmdir "$SUBDIR" EBUSY -s 0 -n 1:0:0:2
[ "$rc" = 0 ] && is_empty "$t" && hits_are 'rmdir 00001 2' 1
ok $? "rmdir EBUSY once on a subdirectory: tried again, exit 0, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; ls -AR "$t"; } | diag

# a silly-rename that its holder closes a second later: waited for
paused -s 0 -n 1
: >"$files/.nfs00000000000a1b2c"
touch "$WORK/go"
(sleep 1; rm -f "$files/.nfs00000000000a1b2c") &
gone=$!
finish
wait $gone
[ "$rc" = 0 ] && is_empty "$t"
ok $? "an .nfsXXXX file that goes a second later: waited for, exit 0, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t"; } | diag

# a silly-rename that stays: never removed, named after the wait (the
# run begun first, above)
pid=$stays_pid t=$stays_t
finish
s=$(ls -A "$t")
[ "$rc" = 3 ] &&
    [ "$(left_in "$t")" = "$(printf '%s\n' "$s" "$s/files" "$s/files/00001" "$s/files/00001/.nfs00000000000a1b2d")" ] &&
    grep -Eq "^clyde: sequential delete: $SCRATCH/files/00001: rmdir: Directory not empty; it holds \.nfs00000000000a1b2d, not made by clyde\$" "$WORK/stays/err" &&
    grep -q "^clyde: cannot remove $t/$s: Directory not empty; it is left in place, remove it with: rm -rf '$t/$s'\$" "$WORK/stays/err"
ok $? "an .nfsXXXX file that stays: never removed, named, exit 3" ||
    { echo "rc=$rc"; cat "$WORK/stays/err"; left_in "$t"; } | diag
rm -rf "${t:?}"/clyde.*

# --- answers cleanup cannot take at their word -----------------------------

# While a GlusterFS brick is down, unlink of a file on it answers ENOENT
# and leaves the file; rmdir answers ENOTCONN until the brick is back,
# then ENOTEMPTY.  Here: the first four unlinks say "gone" and leave the
# file (the delete's first, which fails the run, and three of cleanup's),
# the first rmdir is ENOTCONN.  Cleanup, having waited, reads the
# directory again and removes clyde's names.
lying() { # lying UNLINKS ARGS...: that many unlinks answer ENOENT (0: all)
	n=$1
	shift
	CLYDE_FAULT2_CALL=rmdir CLYDE_FAULT2_ERR=ENOTCONN \
	    CLYDE_FAULT_COUNT=$n shim unlink "$SEQ_FILES" ENOENT -s 0 "$@"
}
for n in 1 1:0:0:3; do
	lying 4 -n $n --cleanup-wait=10
	[ "$rc" = 3 ] && is_empty "$t" &&
	    grep -Eq "^clyde: sequential delete: $SCRATCH/files/([0-9]{5}/)?[0-9a-f]{10}[A-Za-z0-9]*: unlink: No such file or directory\$" "$WORK/err" &&
	    grep -Eq "^clyde: cleanup: cannot remove $SCRATCH/files(/[0-9]{5})?: Transport endpoint is not connected; waiting up to 10 s" "$WORK/err" &&
	    grep -Eq "^clyde: cleanup: $SCRATCH/files(/[0-9]{5})? still holds 3 of clyde's names that the filesystem had answered were gone; removing them again\$" "$WORK/err" &&
	    grep -q "^clyde: cleanup: the filesystem answers again\$" "$WORK/err"
	ok $? "-n $n: unlink says gone and leaves the file, rmdir ENOTCONN then not empty: cleanup removes clyde's names again, exit 3, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err"; left_in "$t"; } | diag
done

# a filesystem that never removes them: within --cleanup-wait, then named
lying 0 -n 1 --cleanup-wait=1
s=$(ls -A "$t")
[ "$rc" = 3 ] && [ "$(ls -A "$t/$s/files" | wc -l)" = 1024 ] &&
    grep -q "^clyde: cannot remove $s/files: Directory not empty\$" "$WORK/err" &&
    grep -q "^clyde: cannot remove $t/$s: Directory not empty; it is left in place, remove it with: rm -rf '$t/$s'\$" "$WORK/err" &&
    ! grep -q "answers again" "$WORK/err"
ok $? "unlink always says gone and leaves the file: cleanup stops at --cleanup-wait=1, the directory named, exit 3" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
rm -rf "${t:?}"/clyde.*

# the same lies without a wait: cleanup has no reason to doubt ENOENT
CLYDE_FAULT_COUNT=4 shim unlink "$SEQ_FILES" ENOENT -s 0 -n 1 --cleanup-wait=10
s=$(ls -A "$t")
[ "$rc" = 3 ] && [ "$(ls -A "$t/$s/files" | wc -l)" = 3 ] &&
    ! grep -q "removing them again" "$WORK/err" &&
    grep -q "^clyde: cannot remove $t/$s: Directory not empty; it is left in place, remove it with: rm -rf '$t/$s'\$" "$WORK/err"
ok $? "unlink says gone and leaves the file, no wait: not removed again, named, exit 3" ||
    { echo "rc=$rc"; cat "$WORK/err"; left_in "$t"; } | diag
rm -rf "${t:?}"/clyde.*

# The directory phases, the same lies: while a brick is down, DHT answers
# rmdir of a directory that is on it with ENOENT and leaves it; its
# parent's rmdir is ENOTCONN, and once the brick is back ENOTEMPTY.
# Here 0000000010 (a child of 0000000000) answers ENOENT twice: in the
# delete, which fails the run, and in cleanup, whose rmdir of 0000000000
# then fails ENOTCONN once.  Cleanup, having waited, removes clyde's
# names again (check-cluster saw it, a distributed brick killed during
# --dirs: "cannot remove .../dirs/0000000000: Directory not empty").
CLYDE_FAULT2_CALL=rmdir CLYDE_FAULT2_FILE=0000000000 CLYDE_FAULT2_ERR=ENOTCONN \
    CLYDE_FAULT_COUNT=2 shim rmdir 0000000010 ENOENT -s 0 -n 0 --dirs=1:2:8 --cleanup-wait=10
[ "$rc" = 3 ] && is_empty "$t" &&
    grep -Eq "^clyde: directory delete: $SCRATCH/dirs/0000000000/0000000010: rmdir: No such file or directory\$" "$WORK/err" &&
    grep -Eq "^clyde: cleanup: cannot remove $SCRATCH/dirs/0000000000: Transport endpoint is not connected; waiting up to 10 s" "$WORK/err" &&
    grep -Eq "^clyde: cleanup: $SCRATCH/dirs/0000000000 still holds 1 of clyde's names that the filesystem had answered were gone; removing them again\$" "$WORK/err" &&
    grep -q "^clyde: cleanup: the filesystem answers again\$" "$WORK/err" &&
    [ "$(grep -c '^rmdir 0000000010 ' "$WORK/hits")" = 2 ]
ok $? "--dirs: rmdir says gone and leaves the directory, its parent's ENOTCONN then not empty: cleanup removes clyde's names again, exit 3, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; left_in "$t"; } | diag
rm -rf "${t:?}"/clyde.*

done_testing
