#!/bin/sh
# Safety: a stop signal in each of the twelve phases, a second one during
# cleanup, SIGHUP and SIGPIPE; then injected I/O errors (the fault shim):
# each gives the right exit status and message, the phases completed
# before it are still reported, and nothing is left in the target.
. "$(dirname "$0")/../lib.sh"

# hooked_run ARGS...: run (lib.sh) with the build that reads the test hooks
hooked_run() {
	CLYDE=$CLYDE_HOOKS run "$@"
}

csv_line() { tail -1 "$WORK/out"; }

# json_unwritten FILE: neither FILE nor a part of it (.FILE.XXXXXX) is there
json_unwritten() {
	[ ! -e "$1" ] && [ -z "$(ls -A "$(dirname "$1")" | grep -F "${1##*/}")" ]
}

# --- SIGINT in every phase, through the test hooks ------------------------

# the I/O phases at their smallest, 1 MiB and 64 seeks: every phase runs
# all the same, and a SIGINT as a phase starts stops it however much it
# has to do
small="-s 1:8k:64"

# clyde as built and installed has no test hooks: the variables do nothing
CLYDE_TEST_SIGNAL_PHASE=put_block CLYDE_TEST_SIGNAL_CLEANUP=1 run $small -n 0 -f
[ "$rc" = 0 ] && is_empty "$t" && ! grep -q "CLYDE_TEST" "$CLYDE"
ok $? "clyde as built ignores the test hooks and holds none of their names" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

phases="putc put_block rewrite getc get_block seeks seq_create seq_stat
	seq_del ran_create ran_stat ran_del"
for profile in "--compat=1.03" "--compat=2.00" "--compat=2.00 -c 2"; do
	failed=
	for ph in $phases; do
		# 2.00's per-char phases are a system call per byte: only where needed
		case $profile/$ph in
		*1.03/*) pc= ;;
		*/putc | */getc) pc=-f1 ;;
		*) pc=-f ;;
		esac
		CLYDE_TEST_SIGNAL_PHASE=$ph hooked_run $profile $pc $small -n 1
		if [ "$rc" != 5 ] || ! is_empty "$t" || [ -s "$WORK/out" ] ||
		    ! grep -q "^clyde: interrupted" "$WORK/err"; then
			failed="$failed $ph(rc=$rc)"
			{ ls -A "$t"; cat "$WORK/err"; } | diag
		fi
	done
	[ -z "$failed" ]
	ok $? "SIGINT in each of the 12 phases, $profile: exit 5, no output, empty target" ||
	    echo "failed:$failed" | diag
done

# a second SIGINT during cleanup ends at once and names what is left
CLYDE_TEST_SIGNAL_PHASE=seq_stat CLYDE_TEST_SIGNAL_CLEANUP=1 hooked_run $small -n 1
left=$(ls -A "$t")
[ "$rc" = 5 ] && [ -n "$left" ] &&
    grep -q "^clyde: stopped during cleanup; remove what is left with: rm -rf '$t/$left'\$" "$WORK/err"
ok $? "second SIGINT during cleanup: exit 5 at once, the path left and the command" ||
    { echo "rc=$rc left=$left"; cat "$WORK/err"; } | diag
[ -z "$left" ] || rm -rf "${t:?}/$left"

# one signal during cleanup is not a second one: cleanup finishes
CLYDE_TEST_SIGNAL_CLEANUP=1 hooked_run $small -n 1
[ "$rc" = 0 ] && is_empty "$t"
ok $? "a first SIGINT during cleanup lets cleanup finish" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# SIGTERM stops a run like SIGINT; SIGHUP is ignored, as in bonnie++
# started ARGS...: a run in the background ($pid), once it is in its
# phases: its data file is made (its handlers are in place long before),
# or it has ended
started() {
	t=$(fresh_target)
	"$CLYDE" -d "$t" $AS_USER -r 0 -q "$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	until_true 600 in_phases
}
in_phases() {
	set -- "$t"/clyde.*/Bonnie.*
	[ -e "$1" ] || gone "$pid"
}
# mid_run SIGNAL ARGS...: a run that the signal reaches in its phases
mid_run() {
	signal=$1
	shift
	started "$@"
	kill -"$signal" $pid
	wait $pid
	rc=$?
}
mid_run TERM -s 2048 -n 0
[ "$rc" = 5 ] && is_empty "$t"
ok $? "SIGTERM mid-run: exit 5 and an empty target" || echo "rc=$rc" | diag
# Ctrl-\ and the other signals whose default would end clyde with its
# scratch directory left: a stop like SIGINT's, named; SIGALRM also with
# the progress line on, whose tick is a SIGALRM of the timer's
for sig in QUIT/never USR1/never USR2/never ALRM/never ALRM/always; do
	mid_run "${sig%/*}" -s 2048 -n 0 --progress="${sig#*/}"
	[ "$rc" = 5 ] && is_empty "$t" &&
	    grep -q "^clyde: interrupted by SIG${sig%/*}; removing what the run made" "$WORK/err"
	ok $? "SIG${sig%/*} mid-run$(case $sig in */always) echo ' (progress line on)' ;; esac): exit 5, the signal named, an empty target" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
done
# 16 MiB: the run goes on well after the signal
mid_run HUP -s 16 -n 1
[ "$rc" = 0 ] && [ "$(nfields "$(csv_line)")" = 27 ] && is_empty "$t"
ok $? "SIGHUP mid-run is ignored: the run completes" || echo "rc=$rc" | diag

# Seekers that are stopped (SIGSTOP here; on a network filesystem, stuck
# in a call that no signal ends): after --stall seconds a line names the
# wait and the stopped seeker, on a line of its own after "start 'em...";
# SIGINT stops the run, a second SIGINT kills the seekers, and the run
# cleans up and exits 5.  With --stall the process started watches; its
# child measures, and the seekers are that one's.  1 MiB is enough: the
# seekers go on, 16000000 seeks, until the run ends.
t=$(fresh_target)
: >"$WORK/err"
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1:8192:16000000:3 -n 0 -f --stall=1 \
    --progress=never >"$WORK/out" 2>"$WORK/err" &
pid=$!
measurer $pid
wait_children "$meas" 3
kill -STOP $kids
until_true 600 grep -q "no progress" "$WORK/err"
kill -INT $pid
# two signals sent at once are one: the second after the first is seen
until_true 600 grep -q "^clyde: stopping: waiting" "$WORK/err"
kill -INT $pid
until_true 600 gone $pid
kill -0 $pid 2>/dev/null && kill -KILL $pid $kids
wait $pid
rc=$?
first=$(echo "$kids" | head -1)
[ "$rc" = 5 ] && is_empty "$t" && all_gone $kids &&
    grep -q "^start 'em\.\.\.\$" "$WORK/err" &&
    grep -q "^clyde: random seeks: no progress: waitpid (for the seekers) has not returned after 1 s; seeker 1 (pid $first) is stopped (SIGINT stops the run)\$" "$WORK/err" &&
    grep -q "^clyde: interrupted by SIGINT; removing what the run made\$" "$WORK/err"
ok $? "stopped seekers: the stopped seeker named on a line of its own, two SIGINTs end the run, exit 5, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag

# kill -9 of clyde mid-seeks: the seekers die with it, and the keeper of
# the --json file removes the part written (no name left but the scratch
# directory, which the next run reports)
t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -r 0 -q -s 1:8192:16000000:3 -n 0 -f \
    --json="$WORK/killed.json" >"$WORK/out" 2>"$WORK/err" &
pid=$!
# three seekers and the keeper, children of the process that measures;
# kill -9 of the one started takes that one with it (PR_SET_PDEATHSIG)
measurer $pid
wait_children "$meas" 4
kill -KILL $pid
# the shell's word on a job killed by a signal ("Killed", on wait's
# stderr) is expected here: the status says it, 137
wait $pid 2>/dev/null
rc=$?
alive() { for k in $kids; do kill -0 "$k" 2>/dev/null && return 0; done; return 1; }
until_true 600 eval '! alive'
left_alive=$(for k in $kids; do kill -0 "$k" 2>/dev/null && echo "$k"; done)
[ -z "$left_alive" ] || kill -KILL $left_alive
[ "$rc" = 137 ] && [ "$(echo "$kids" | wc -l)" = 4 ] && [ -z "$left_alive" ]
ok $? "kill -9 of clyde during the seeks: its seekers die with it" ||
    { echo "rc=$rc kids=$kids alive=$left_alive"; cat "$WORK/err"; } | diag
until_true 600 json_unwritten "$WORK/killed.json"
json_unwritten "$WORK/killed.json"
ok $? "kill -9 of clyde: no --json file, not even a part" || ls -A "$WORK" | diag
rm -rf "${t:?}"/clyde.*

# kill -9 of the whole process group (systemd, timeout -s KILL, a
# cgroup's OOM kill): nobody is left to remove the --json temporary file
# or name it.  A later run with --json in that directory names it, and
# never one of a run that still runs (as the second run here is, beside
# the first), nor a file of the user's that has the name's pattern: text
# of another, a link to the one left.  Under setsid the one started
# leads its process group.
J=$WORK/jdir
mkdir "$J"
printf 'my notes\n' >"$J/.notes.json.abc123"
if needs setsid util-linux; then
	t=$(fresh_target)
	setsid "$CLYDE" -d "$t" $AS_USER -r 0 -q -s 1:8192:16000000:3 -n 0 -f \
	    --json="$J/group.json" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	measurer $pid
	wait_children "$meas" 4
	t2=$(fresh_target)
	"$CLYDE" -d "$t2" $AS_USER -r 0 -q -s 0 -n 1 --json="$J/beside.json" \
	    >/dev/null 2>"$WORK/err_beside"
	rc_beside=$?
	# its process group from the kernel (ps is procps's, not in a bare system)
	[ "$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f3)" = $pid ] &&
	    kill -KILL -$pid
	wait $pid 2>/dev/null
	# every process of the group gone, their locks with them (the leader
	# may be reaped first: a sanitizer's shadow memory takes its time)
	until_true 600 eval "! kill -0 -$pid 2>/dev/null"
	set -- "$J"/.group.json.*
	left=$1
	[ -f "$left" ] && ln -s "$left" "$J/.link.json.abc123"
	t2=$(fresh_target)
	"$CLYDE" -d "$t2" $AS_USER -r 0 -q -s 0 -n 1 --json="$J/later.json" \
	    >/dev/null 2>"$WORK/err_later"
	rc=$?
	[ "$rc_beside" = 0 ] && ! grep -q "^clyde:" "$WORK/err_beside" &&
	    [ "$rc" = 0 ] && [ -f "$left" ] &&
	    grep -qxF "clyde: $left is the --json temporary file of an earlier run that is no longer running: its records were never put in place; remove it with: rm -f '$left'" "$WORK/err_later" &&
	    [ "$(grep -c "^clyde:" "$WORK/err_later")" = 1 ] &&
	    [ "$(cat "$J/.notes.json.abc123")" = "my notes" ]
fi
ok $? "kill -9 of the process group: a later run with --json there names the temporary file left, not a live run's nor a user's file" ||
    { echo "rc=$rc beside=$rc_beside"; cat "$WORK/err" "$WORK/err_beside" "$WORK/err_later"; ls -lA "$J"; } | diag
rm -rf "${t:?}"/clyde.* "$J"

# --stall=0: no watcher, no line
t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -r 0 -q -s 1:8192:16000000:3 -n 0 -f --stall=0 \
    >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_children $pid 3
kill -STOP $kids
sleep 2
kill -INT $pid
# two signals sent at once are one: the second after the first is seen
until_true 600 int_taken $pid
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 5 ] && is_empty "$t" && ! grep -q "no progress" "$WORK/err"
ok $? "--stall=0: no line; two SIGINTs still end the run" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# the limits of ulimit stop a run like SIGINT: SIGXFSZ (the write that
# passed the limit gets EFBIG) and SIGXCPU
# limited LIMIT-OPTION VALUE ARGS...: a run under that ulimit
limited() {
	lim=$1 val=$2
	shift 2
	t=$(fresh_target)
	(ulimit "$lim" "$val" && exec "$CLYDE" -d "$t" $AS_USER -r 0 -q "$@") \
	    >"$WORK/out" 2>"$WORK/err"
	rc=$?
}
limited -f 4096 -s 16 -n 1
[ "$rc" = 5 ] && is_empty "$t" && [ ! -s "$WORK/out" ] &&
    grep -q "^clyde: interrupted by SIGXFSZ" "$WORK/err"
ok $? "a file size limit (SIGXFSZ): exit 5, said so, an empty target" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
limited -St 1 --compat=2.00 -s 64 -f64 -n 0
[ "$rc" = 5 ] && is_empty "$t" && grep -q "^clyde: interrupted by SIGXCPU" "$WORK/err"
ok $? "a CPU time limit (SIGXCPU): exit 5, said so, an empty target" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# a --json file that cannot be written in full is never seen: no name,
# not even a part, and the runs go on: its SIGXFSZ stops nothing (dash
# counts ulimit -f in 512-byte blocks, bash in KiB: either is less than a
# record)
t=$(fresh_target)
(ulimit -f 2 && exec "$CLYDE" -d "$t" $AS_USER -m host -r 0 -s 0 -n 1 -x 2 \
    --json="$WORK/big.json") >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 3 ] && is_empty "$t" && [ "$(wc -l <"$WORK/out")" = 3 ] &&
    json_unwritten "$WORK/big.json" && ! grep -q "interrupted" "$WORK/err" &&
    grep -q "^clyde: --json $WORK/big.json: File too large; the file is not made\$" "$WORK/err"
ok $? "--json past the file size limit: both runs of -x 2 done, no file, exit 3" ||
    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; ls -A "$WORK"; } | diag
run -s 0 -n 1 --json="$WORK/big.json"
[ "$rc" = 0 ] && grep -q '"status": "ok"' "$WORK/big.json"
ok $? "--json: the same name again after the failed write: written, exit 0" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# stdout a pipe that nobody reads: an error after cleanup, not a crash
t=$(fresh_target)
{ "$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 -x 3 2>"$WORK/err"; echo $? >"$WORK/rc"; } |
    sh -c 'exec 0<&-'
rc=$(cat "$WORK/rc")
[ "$rc" = 3 ] && grep -q "writing the results: Broken pipe" "$WORK/err" &&
    is_empty "$t"
ok $? "closed stdout pipe: exit 3, a message, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- injected faults --------------------------------------------------------

# filled LINE N...: these fields have a value; empty LINE N...: these have
# none.  The shell splits the line: field() would start processes for
# each field, which cost more than the run here.
filled() { fields_are -n "$@"; }
empty() { fields_are -z "$@"; }
fields_are() { # fields_are -n|-z LINE N...
	how=$1 l=$2
	shift 2
	ns=$*
	ifs=$IFS
	IFS=,
	set -f
	set -- $l
	set +f
	IFS=$ifs
	for n in $ns; do
		eval "v=\${$n-}"
		[ "$how" "$v" ] || return 1
	done
}

# fault CALL FILE NTH ERR ARGS...: a run with the Nth CALL on a file whose
# name matches the glob FILE ('': any of clyde's) failing with ERR; what
# it hit in $WORK/hits (hits_are)
fault() {
	call=$1 file=$2 nth=$3 err=$4
	shift 4
	rm -f "$WORK/hits"
	CLYDE_FAULT_CALL=$call CLYDE_FAULT_FILE=$file CLYDE_FAULT_NTH=$nth \
	    CLYDE_FAULT_ERR=$err CLYDE_FAULT_HITS=$WORK/hits \
	    LD_PRELOAD=$SHIM run "$@"
}

# failed NAME MESSAGE FILLED EMPTY HIT: exit 3, the message (an ERE after
# "clyde: "), the table and a CSV line whose fields FILLED have values and
# EMPTY none (the failed phase and later ones), an empty target, and the
# fault's one hit, the ERE HIT (hits_are).
failed() {
	line=$(csv_line)
	[ "$rc" = 3 ] && grep -Eq "^clyde: $2\$" "$WORK/err" &&
	    grep -q '^Version ' "$WORK/out" &&
	    filled "$line" $3 && empty "$line" $4 && is_empty "$t" &&
	    hits_are "$5" 1
	ok $? "$1" || { echo "rc=$rc"; cat "$WORK/err" "$WORK/out" "$WORK/hits"; ls -A "$t"; } | diag
}

# 1.03 CSV fields: 5 block write, 7 rewrite, 11 block read, 13 seeks,
# 16 18 20 sequential create, stat, delete, 22 24 26 random.
ALL_FILES="16 18 20 22 24 26"
if ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan'; then
	skip "sanitizer build: the LD_PRELOAD fault shim runs on the normal build" 32
elif [ ! -f "$SHIM" ]; then
	ok 1 "the fault shim $SHIM is built (make build/tests/fault_shim.so)"
else
	# 1 MiB: CHUNKS writes of 8 KiB to the data file in the block write
	# and the rewrite, CHUNKS reads of it in the rewrite and the block
	# read; 1000 seeks.  DATA: the data file's name, a glob and an ERE.
	CHUNKS=128
	io="-s 1:8k:1000 -n 1 -f"
	DATA='Bonnie.*'
	DATA_ERE='Bonnie\.[0-9]+'
	fault write "$DATA" 5 EIO $io
	failed "write EIO in block write" \
	    "block write: $SCRATCH/$DATA_ERE: write: Input/output error" \
	    "" "5 7 11 13 $ALL_FILES" "write $DATA_ERE 5"
	fault write "$DATA" $((CHUNKS + 5)) ENOSPC $io --json="$WORK/run.json"
	failed "write ENOSPC in rewrite: block write still reported" \
	    "rewrite: $SCRATCH/$DATA_ERE: write: No space left on device" \
	    "5" "7 11 13 $ALL_FILES" "write $DATA_ERE $((CHUNKS + 5))"
	grep -q '^  "status": "failed",$' "$WORK/run.json" &&
	    grep -Eq "^  \"error\": \"rewrite: $SCRATCH/Bonnie\.[0-9]+: write: No space left on device\"" "$WORK/run.json" &&
	    grep -Eq '"put_block": \{"status": "(too_fast|ok)"' "$WORK/run.json" &&
	    grep -q '"rewrite": {"status": "skipped"' "$WORK/run.json"
	ok $? "--json: the record says failed, with the error and the phases done" ||
	    diag <"$WORK/run.json"
	fault read "$DATA" 10 ESTALE $io
	failed "read ESTALE in rewrite" \
	    "rewrite: $SCRATCH/$DATA_ERE: read: Stale file handle" \
	    "5" "7 11 13 $ALL_FILES" "read $DATA_ERE 10"
	# the first read that counts, on any file, is the rewrite's first:
	# what clyde reads of /sys and /proc, and its pipes, never count
	fault read '' 1 EIO $io
	failed "read EIO at the first read the shim counts: the rewrite's" \
	    "rewrite: $SCRATCH/$DATA_ERE: read: Input/output error" \
	    "5" "7 11 13 $ALL_FILES" "read $DATA_ERE 1"
	fault read "$DATA" $((CHUNKS + 5)) EIO $io
	failed "read EIO in block read" \
	    "block read: $SCRATCH/$DATA_ERE: read: Input/output error" \
	    "5 7" "11 13 $ALL_FILES" "read $DATA_ERE $((CHUNKS + 5))"
	fault fsync "$DATA" 1 EDQUOT $io
	failed "fsync EDQUOT at the end of block write" \
	    "block write: $SCRATCH/$DATA_ERE: fsync: Disk quota exceeded" \
	    "" "5 7 11 13 $ALL_FILES" "fsync $DATA_ERE 1"
	fault fsync "$DATA" 1 EIO -s 1 -n 1
	failed "fsync EIO at the end of per-char write (stdio)" \
	    "per-char write: $SCRATCH/$DATA_ERE: fsync: Input/output error" \
	    "" "3 5 7 9 11 13 $ALL_FILES" "fsync $DATA_ERE 1"
	# openat of the data file: 1-3 the block phases, 4 the seekers (each
	# counts its own from its parent's 3)
	fault openat "$DATA" 3 ENOTCONN $io
	failed "open ENOTCONN in block read" \
	    "block read: $SCRATCH/$DATA_ERE: open: Transport endpoint is not connected" \
	    "5 7" "11 13 $ALL_FILES" "openat $DATA_ERE 3"
	fault openat "$DATA" 4 EIO $io
	line=$(csv_line)
	[ "$rc" = 3 ] && is_empty "$t" && filled "$line" 5 7 11 &&
	    empty "$line" 13 $ALL_FILES &&
	    grep -Eq "^clyde: random seeks: $SCRATCH/$DATA_ERE: open at byte 0: Input/output error\$" "$WORK/err" &&
	    hits_are "openat $DATA_ERE 4"
	ok $? "open EIO in the seeker processes" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; echo "$line"; } | diag
	# the small files' 100th open: the sequential create's 100th file
	fault openat "$SEQ_FILES" 100 EROFS $io
	failed "open EROFS in sequential create: the I/O phases reported" \
	    "sequential create: $SCRATCH/files/$SEQ_NAME: open: Read-only file system" \
	    "5 7 11 13" "$ALL_FILES" "openat $SEQ_NAME 100"
	# unlinkat: 1 the data file, 2-1025 sequential delete, 1026 its
	# directory, 1027-2050 random delete (1500: its 474th); of the small
	# files alone (SEQ_FILES), the sequential delete's are the first 1024
	fault unlinkat "$SEQ_FILES" 10 EIO $io
	failed "unlink EIO in sequential delete" \
	    "sequential delete: $SCRATCH/files/$SEQ_NAME: unlink: Input/output error" \
	    "5 7 11 13 16 18" "20 22 24 26" "unlinkat $SEQ_NAME 10"
	fault unlinkat '' 1500 ESTALE $io
	failed "unlink ESTALE in random delete" \
	    "random delete: $SCRATCH/files/$RAN_NAME: unlink: Stale file handle" \
	    "5 7 11 13 16 18 20 22 24" "26" "unlinkat $RAN_NAME 1500"
	fault write "$DATA" 5 ENOSPC --compat=2.00 -f1 -s 1 -n 1
	line=$(csv_line)
	[ "$rc" = 3 ] && is_empty "$t" && [ "$(nfields "$line")" = 50 ] &&
	    grep -Eq "^clyde: per-char write: $SCRATCH/$DATA_ERE: write: No space left on device\$" "$WORK/err" &&
	    empty "$line" 10 12 14 16 18 20 && hits_are "write $DATA_ERE 5" 1
	ok $? "2.00: write ENOSPC in per-char write, 50 fields, all empty" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; echo "$line"; } | diag
	# each copy is a process, which counts its own writes: CHUNKS in the
	# block write, then those of the rewrite (the other copy may be
	# stopped before its own)
	fault write "$DATA" $((CHUNKS + 5)) EIO --compat=2.00 -c 2 $io
	line=$(csv_line)
	[ "$rc" = 3 ] && is_empty "$t" &&
	    [ "$(grep -c "^clyde: rewrite:" "$WORK/err")" = 1 ] &&
	    grep -Eq "^clyde: rewrite: $SCRATCH/copy\.[01]/$DATA_ERE: write: Input/output error\$" "$WORK/err" &&
	    filled "$line" 12 && empty "$line" 14 16 18 20 &&
	    hits_are "write $DATA_ERE $((CHUNKS + 5))"
	ok $? "2.00 -c 2: write EIO in a copy's rewrite, one line naming the copy" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; echo "$line"; } | diag

	# -c when not every copy can start (the third fork fails; --stall=0:
	# no watcher, the copies are the only children): the started ones
	# leave, one message, nothing left, exit 2
	fault fork '' 3 EAGAIN --stall=0 --compat=2.00 -c 4 -s 0 -n 1
	[ "$rc" = 2 ] && is_empty "$t" &&
	    [ "$(grep -c "^clyde: -c" "$WORK/err")" = 1 ] &&
	    grep -Eq "^clyde: -c: $SCRATCH: starting a copy's process: Resource temporarily unavailable\$" "$WORK/err" &&
	    hits_are "fork - 3" 1
	ok $? "-c 4, the third copy's fork failing: exit 2, one message, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; ls -A "$t"; } | diag

	# a full disk under the --json file as it is made (its first write,
	# the records' start, to the temporary name .full.json.XXXXXX): no
	# run, no file, exit 2
	fault write '.full.json.*' 1 ENOSPC -s 0 -n 1 -x 2 --json="$WORK/full.json"
	[ "$rc" = 2 ] && is_empty "$t" && [ ! -s "$WORK/out" ] &&
	    json_unwritten "$WORK/full.json" &&
	    [ "$(cat "$WORK/err")" = "clyde: --json $WORK/full.json: No space left on device" ] &&
	    hits_are 'write \.full\.json\.[A-Za-z0-9]{6} 1' 1
	ok $? "--json on a full disk as it is made: no run, no file, exit 2" ||
	    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err" "$WORK/hits"; ls -A "$WORK"; } | diag

	# and during the run (the first record's write): no file, the runs
	# go on
	fault write '.full.json.*' 2 ENOSPC -s 0 -n 1 -x 2 --json="$WORK/full.json"
	[ "$rc" = 3 ] && is_empty "$t" && [ "$(wc -l <"$WORK/out")" = 3 ] &&
	    json_unwritten "$WORK/full.json" &&
	    grep -q "^clyde: --json $WORK/full.json: No space left on device; the file is not made\$" "$WORK/err" &&
	    hits_are 'write \.full\.json\.[A-Za-z0-9]{6} 2' 1
	ok $? "--json on a full disk: both runs of -x 2 done, no file, exit 3" ||
	    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err" "$WORK/hits"; ls -A "$WORK"; } | diag

	# retried, not counted twice: the data file has exactly its size
	for err in short EINTR; do
		rm -f "$WORK/log"
		CLYDE_FAULT_COUNT=3 CLYDE_FAULT_LOG=$WORK/log \
		    fault write "$DATA" 5 $err $io
		[ "$rc" = 0 ] && is_empty "$t" &&
		    [ "$(awk '{ print $2 }' "$WORK/log")" = 1048576 ] &&
		    hits_are "write $DATA_ERE [567]" 3
		ok $? "write $err three times: retried, exit 0, the file 1 MiB" ||
		    { echo "rc=$rc"; cat "$WORK/err" "$WORK/log" "$WORK/hits"; } | diag
	done
	fault read "$DATA" 5 short $io
	[ "$rc" = 0 ] && is_empty "$t" && hits_are "read $DATA_ERE 5" 1
	ok $? "short read: retried, exit 0" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; } | diag

	# every read from early in the seeks on finds the file's end
	# (2 * CHUNKS reads of the data file in rewrite and block read
	# before, each seeker's counted on from there): no errno happened,
	# none is named
	CLYDE_FAULT_COUNT=0 fault read "$DATA" $((2 * CHUNKS + 304)) eof \
	    -s 1 -n 0 -f --stall=0
	[ "$rc" = 3 ] && is_empty "$t" &&
	    grep -Eq "^clyde: random seeks: $SCRATCH/$DATA_ERE: short read at byte [0-9]+: the file ended early\$" "$WORK/err" &&
	    hits_are "read $DATA_ERE [0-9]+"
	ok $? "the seekers find a file's end: exit 3, 'short read at byte N: the file ended early', no errno" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag

	# the scratch directory cannot be opened: nothing ran, nothing left
	fault openat 'clyde.*' 1 EIO -s 0 -n 1
	[ "$rc" = 2 ] && is_empty "$t" &&
	    grep -Eq "^clyde: $t/$SCRATCH: Input/output error\$" "$WORK/err" &&
	    hits_are "openat $SCRATCH 1" 1
	ok $? "the scratch directory cannot be opened: exit 2, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; } | diag

	# a target with no room: said of the target, not of the scratch
	# directory's record or the directory that met it; nothing left
	for room in "openat made-by ENOSPC full (No space left on device)" \
	    "mkdir clyde.* EDQUOT over its quota (Disk quota exceeded)"; do
		set -f; set -- $room; set +f
		call=$1 file=$2 err=$3
		shift 3
		fault $call "$file" 1 $err -s 0 -n 1
		[ "$rc" = 2 ] && is_empty "$t" &&
		    grep -Fqx "clyde: -d $t: the target is $*: there is no room to start a run" "$WORK/err" &&
		    ! grep -q made-by "$WORK/err" &&
		    hits_are "$call ${file%%.*}.* 1" 1
		ok $? "$err as the run starts: 'the target is ${*%% (*}', no file of clyde's named, exit 2, nothing left" ||
		    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hits"; } | diag
	done

	# cleanup cannot remove the data file: named, the directory left
	fault unlinkat "$DATA" 1 EIO $io --cleanup-wait=0
	left=$(ls -A "$t")
	[ "$rc" = 3 ] && [ "$(nfields "$(csv_line)")" = 27 ] &&
	    filled "$(csv_line)" 5 7 11 13 $ALL_FILES &&
	    grep -Eq "^clyde: cannot remove $SCRATCH/Bonnie\.[0-9]+: Input/output error\$" "$WORK/err" &&
	    grep -q "^clyde: cannot remove $t/$left: Directory not empty; it is left in place, remove it with: rm -rf '$t/$left'\$" "$WORK/err" &&
	    hits_are "unlinkat $DATA_ERE 1" 1
	ok $? "unlink EIO in cleanup: results, the file and the directory left named, exit 3" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	[ -z "$left" ] || rm -rf "${t:?}/$left"

	# the mount goes away: every unlink from the 3rd on (the data file's,
	# then the sequential delete's second) fails, the run still ends
	# after the wait for the server
	CLYDE_FAULT_COUNT=0 fault unlinkat '' 3 ENOTCONN $io --cleanup-wait=1
	left=$(ls -A "$t")
	[ "$rc" = 3 ] &&
	    grep -Eq "^clyde: cleanup: cannot remove $SCRATCH/files/.*: Transport endpoint is not connected; waiting up to 1 s for the filesystem \(SIGINT stops\)\$" "$WORK/err" &&
	    grep -Eq "^clyde: sequential delete: $SCRATCH/files/.*: unlink: Transport endpoint is not connected\$" "$WORK/err" &&
	    grep -Eq "^clyde: cannot remove $SCRATCH/files/.*: Transport endpoint is not connected \(and [0-9]+ more\)\$" "$WORK/err" &&
	    grep -q "^clyde: cannot remove $t/$left: Transport endpoint is not connected; it is left in place" "$WORK/err"
	ok $? "every unlink failing (a mount gone): a wait of 1 s, exit 3, what is left named" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	[ -z "$left" ] || rm -rf "${t:?}/$left"

	# a call that hangs (a server that stopped answering): the stall line
	# names the phase; once the call returns, the run goes on
	release=$WORK/release
	# hung_run: a run in the background ($pid) whose open of the
	# sequential create's 10th file hangs until $release exists, once its
	# stall line is out
	hung_run() {
		t=$(fresh_target)
		# empty before the start: the wait reads it
		: >"$WORK/err"
		rm -f "$WORK/hung.json"
		CLYDE_FAULT_CALL=openat CLYDE_FAULT_FILE=$SEQ_FILES \
		    CLYDE_FAULT_NTH=10 CLYDE_FAULT_ERR=block \
		    CLYDE_FAULT_RELEASE=$release LD_PRELOAD=$SHIM "$CLYDE" -d "$t" \
		    $AS_USER -r 0 -q -s 0 -n 1 --stall=1 --json="$WORK/hung.json" \
		    >"$WORK/out" 2>"$WORK/err" &
		pid=$!
		until_true 600 grep -q "no progress" "$WORK/err"
	}
	rm -f "$release"
	hung_run
	# while the phase runs and the watcher speaks: the one process
	# with a descriptor or its directory in the target is alone there,
	# one task, no thread sharing its descriptor table
	holders=$(holders_of "$t")
	tasks=$(ls "/proc/$holders/task" 2>/dev/null | wc -l)
	touch "$release"
	wait $pid
	rc=$?
	[ "$rc" = 0 ] && is_empty "$t" &&
	    grep -Eq "^clyde: sequential create: no progress: .* has not returned after 1 s; the filesystem is not answering \(SIGINT stops the run\)\$" "$WORK/err" &&
	    grep -Eq "\"seq_create\": \{.*\"stall\": \{\"ns\": [1-9][0-9]{9,}, \"call\": \"a call in [^\"]*$SCRATCH\"\}" "$WORK/hung.json" &&
	    [ "$(grep -c '"stall": null' "$WORK/hung.json")" = 5 ]
	ok $? "a hung call: the stall line, the stall in the phase's JSON, then the run completes when it returns" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/hung.json"; } | diag
	[ -n "$holders" ] && [ "$holders" != "$pid" ] &&
	    [ "$(echo "$holders" | wc -l)" = 1 ] && [ "$tasks" = 1 ]
	ok $? "a phase watched (--stall): the measuring process is a single task, the watcher another process outside the target" ||
	    echo "watcher $pid; in the target: $holders; tasks: $tasks" | diag

	# -c 2 held in the sequential create (each copy's open of its 10th
	# file blocks, counted in each copy's process): $pid, and $held once
	# one blocks
	held=$WORK/held
	copies_held() {
		t=$(fresh_target)
		rm -rf "$release" "$held"
		: >"$WORK/err"
		CLYDE_FAULT_CALL=openat CLYDE_FAULT_FILE=$SEQ_FILES \
		    CLYDE_FAULT_NTH=10 CLYDE_FAULT_ERR=block \
		    CLYDE_FAULT_RELEASE=$release CLYDE_FAULT_HELD=$held \
		    LD_PRELOAD=$SHIM "$CLYDE" -d "$t" $AS_USER -r 0 -q \
		    --compat=2.00 -c 2 -s 0 -n 1 "$@" >"$WORK/out" 2>"$WORK/err" &
		pid=$!
		until_true 600 test -d "$held"
		measurer $pid
		wait_children "$meas" 2
	}
	# every process that measures is one task: each copy a process of
	# its own, no thread sharing a descriptor table (the copies' or the
	# parent's, which measures nothing)
	copies_held
	holders=$(holders_of "$t")
	multi=$(for h in $holders; do
		n=$(ls "/proc/$h/task" 2>/dev/null | wc -l)
		[ "$n" = 1 ] || echo "$h:$n"
	done)
	touch "$release"
	wait $pid
	rc=$?
	[ "$rc" = 0 ] && is_empty "$t" && [ -z "$multi" ] &&
	    [ "$(echo "$holders" | wc -l)" = 3 ] &&
	    [ "$(echo "$kids" | sort)" = "$(echo "$holders" | grep -vx "$meas" | sort)" ]
	ok $? "-c 2 in a phase: the parent and two copy processes in the target, each a single task" ||
	    { echo "rc=$rc parent $meas copies $kids; in the target: $holders; more than one task: $multi"; cat "$WORK/err"; } | diag

	# a copy stopped (SIGSTOP) in a phase: the stall line names it;
	# continued, the run completes
	copies_held --stall=1
	stopped=$(echo "$kids" | tail -1)
	kill -STOP "$stopped"
	until_true 600 grep -q "is stopped" "$WORK/err"
	kill -CONT "$stopped"
	touch "$release"
	wait $pid
	rc=$?
	[ "$rc" = 0 ] && is_empty "$t" &&
	    grep -Eq "^clyde: sequential create: no progress for [0-9]+ s: copy\.[01] \(pid $stopped\) is stopped \(SIGINT stops the run\)\$" "$WORK/err"
	ok $? "-c 2, a copy stopped in a phase: the stall line names copy.K and its pid; continued, the run completes" ||
	    { echo "rc=$rc stopped $stopped"; cat "$WORK/err"; } | diag

	# a copy killed in a phase: the run fails with one line naming it,
	# the other stops, and what the killed one made is removed
	copies_held
	killed=$(echo "$kids" | head -1)
	kill -KILL "$killed"
	touch "$release"
	wait $pid
	rc=$?
	[ "$rc" = 3 ] && is_empty "$t" &&
	    [ "$(grep -c "^clyde: " "$WORK/err")" = 1 ] &&
	    grep -Eq "^clyde: sequential create: $SCRATCH/copy\.[01]: copy process \(pid $killed\) killed by signal 9\$" "$WORK/err"
	ok $? "-c 2, a copy killed in a phase: exit 3, one line naming it, nothing left" ||
	    { echo "rc=$rc killed $killed"; cat "$WORK/err"; ls -AR "$t"; } | diag
	all_gone $kids
	ok $? "-c 2, a copy killed: the other copy is gone too" || echo "$kids" | diag

	# kill -9 of the process that measures: its copies die with it
	# (PR_SET_PDEATHSIG), even one held in a call
	copies_held
	kill -KILL "$meas"
	until_true 600 all_gone $kids
	all_gone $kids
	ok $? "-c 2, kill -9 of the parent in a phase: both copies die with it" ||
	    { echo "parent $meas copies $kids"; for k in $kids; do
		    cat "/proc/$k/stat" 2>/dev/null; echo; done; } | diag
	touch "$release"
	wait $pid
	rm -rf "${t:?}"/clyde.*

	# it never returns: SIGINT, SIGINT end clyde without the cleanup that
	# would hang too, naming what to remove
	rm -f "$release"
	hung_run
	kill -INT $pid
	# two signals sent at once are one: the second after the first is seen
	until_true 600 grep -q "^clyde: stopping: waiting" "$WORK/err"
	kill -INT $pid
	until_true 600 gone $pid
	kill -0 $pid 2>/dev/null && touch "$release"
	wait $pid
	rc=$?
	left=$(ls -A "$t")
	[ "$rc" = 5 ] && [ -n "$left" ] &&
	    grep -q "^clyde: a call on the filesystem does not return; stopped without cleanup: remove what is left with: rm -rf '$t/$left'\$" "$WORK/err"
	ok $? "a call that never returns: two SIGINTs exit 5, the scratch path named" ||
	    { echo "rc=$rc left=$left"; cat "$WORK/err"; } | diag
	[ -z "$left" ] || rm -rf "${t:?}/$left"

	# a server back within the wait: cleanup tries again and leaves nothing
	for err in EIO ENOTCONN ETIMEDOUT ESTALE EAGAIN; do
		CLYDE_FAULT_COUNT=3 fault unlinkat "$DATA" 1 $err $io
		[ "$rc" = 0 ] && is_empty "$t" && hits_are "unlinkat $DATA_ERE [123]" 3 &&
		    grep -Eq "^clyde: cleanup: cannot remove $SCRATCH/Bonnie\.[0-9]+: .*; waiting up to 60 s for the filesystem \(SIGINT stops\)\$" "$WORK/err" &&
		    grep -q "^clyde: cleanup: the filesystem answers again\$" "$WORK/err" ||
		    break
	done
	ok $? "cleanup $err three times: tried again until it worked, nothing left, exit 0" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag
	[ -z "$(ls -A "$t")" ] || rm -rf "${t:?}"/*

	# an error no server recovers from is not waited for
	fault unlinkat "$DATA" 1 EACCES $io
	[ "$rc" = 3 ] && ! grep -q "waiting up to" "$WORK/err" && hits_are "unlinkat $DATA_ERE 1" 1 &&
	    grep -Eq "^clyde: cannot remove $SCRATCH/Bonnie\.[0-9]+: Permission denied\$" "$WORK/err"
	ok $? "cleanup EACCES: not tried again, named, exit 3" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	[ -z "$(ls -A "$t")" ] || rm -rf "${t:?}"/*
fi

done_testing
