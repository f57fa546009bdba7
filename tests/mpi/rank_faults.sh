#!/bin/sh
# clyde-mpi when a rank fails, is signalled, stopped or held: every rank
# stops within seconds, removes its own files and exits non-zero, or, a
# rank that is only slow, completes; while a phase runs each rank's
# measuring process is a single task.  Skipped without Open MPI.
MPI_CASES=9
. "$(dirname "$0")/mpi_lib.sh"

# one rank fails early in a long phase: all stop, clean, non-zero
start=$(date +%s)
t=$(mktemp -d "$base/t.XXXXXX")
chmod 755 "$t"
timeout 120 $MPIRUN -np 3 -x CLYDE_TEST_FAIL_RANK=1:put_block build/tests/clyde-mpi-hooks \
    --compat=2.00 -d "$t" $AS_USER -r 0 -s 1024 -f -n 0 -q >"$WORK/out" 2>"$WORK/err"
rc=$?
took=$(($(date +%s) - start))
[ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$took" -lt 60 ] && is_empty "$t" &&
    grep -q "rank 1 failed: block write" "$WORK/err"
ok $? "a failing rank stops every rank (exit $rc after ${took}s), nothing left" ||
    { cat "$WORK/err"; ls -A "$t"; } | diag

# three_ranks ARGS...: 3 ranks in the background ($pid, mpirun), in a
# fresh target $t, the PID of the process mpirun started for rank 2 in
# $WORK/rank2 (rank 2 is the third program of the command line); returns
# once every rank's files/ is there (no rank creates before all have made
# theirs: the meeting before the phase)
three_ranks() {
	t=$(mktemp -d "$base/t.XXXXXX")
	chmod 755 "$t"
	rm -f "$WORK/rank2"
	a="-d $t $AS_USER -r 0 -m mpi --compat=2.00 -q $*"
	timeout 120 $MPIRUN -np 2 ./clyde-mpi $a : -np 1 \
	    sh -c 'echo $$ >"$0"; exec ./clyde-mpi "$@"' "$WORK/rank2" $a \
	    >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	i=0
	until have_files 3 "$t" || [ $i -ge 3000 ]; do
		sleep 0.02
		i=$((i + 1))
	done
}

# SIGTERM to the process mpirun started for rank 2 (the one that makes
# MPI's calls; it passes the signal on to the rank's measuring process):
# every rank stops, removes its own files and exits non-zero.
three_ranks -s 0 -n 32
kill -TERM "$(cat "$WORK/rank2")"
wait $pid
rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] && is_empty "$t" &&
    grep -q '^clyde: interrupted by SIGTERM; removing what the run made$' "$WORK/err"
ok $? "SIGTERM to rank 2: every rank stops (exit $rc), nothing left" ||
    { cat "$WORK/err"; ls -A "$t"; } | diag

# A rank that is stopped (SIGSTOP: a host cut off looks the same) in the
# sequential create, with --stall=3: the others, waiting for it after the
# phase, give the run up, remove their own files and exit non-zero; rank
# 0 names the silent rank, its host and its scratch directory.  With
# --stall rank 2's process watches, and its child measures (and names
# the scratch directory): that one is stopped.
three_ranks -s 0 -n 32 --stall=3
r2=$(children_of "$(cat "$WORK/rank2" 2>/dev/null)" 2>/dev/null)
kill -STOP "$r2"
# its scratch directory, named now: when mpirun ends the job it may wake
# rank 2 (SIGCONT, SIGTERM), which then removes it
s2=$(cd "$t" && ls -d "clyde.$r2".* 2>/dev/null)
wait $pid
rc=$?
host=$(hostname)
left=$(ls -A "$t")
[ "$rc" != 0 ] && [ "$rc" != 124 ] && [ -n "$s2" ] &&
    [ "$(grep -c "^clyde: rank 2 " "$WORK/err")" = 1 ] &&
    grep -q "^clyde: rank 2 ($host) has not answered for [0-9]* s: stopping; what it made may be left: rm -rf '$t/$s2'\$" "$WORK/err" &&
    grep -q "^clyde: stopped by rank 0: rank 2 ($host) has not answered for [0-9]* s\$" "$WORK/err" &&
    { [ -z "$left" ] || [ "$left" = "$s2" ]; }
ok $? "rank 2 stopped in the sequential create, --stall=3: the others give up (exit $rc), rank 0 names it, its host and its directory, nothing of theirs left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag
kill -KILL "$r2" 2>/dev/null
rm -rf "$t"

# one_child PID: the one child of PID (a rank's MPI process: its
# measuring process), or false
one_child() {
	set -- $(children_of "$1" 2>/dev/null)
	[ $# = 1 ] && case $1 in *[!0-9]*) false ;; esac && echo "$1"
}

# Rank 2's measuring process killed with SIGKILL in a phase (what the
# OOM killer does): its MPI process, its parent, tells the others at
# once; they stop, remove their own files and exit 3, and so does it,
# once they have; rank 0 names rank 2, its host, the signal and the
# directory it left, which is left as it is (nobody else may remove it:
# rank 2's files are another host's in general); nothing else is left.
three_ranks -s 0 -n 32
m2=$(cat "$WORK/rank2" 2>/dev/null)
r2=$(one_child "$m2")
s2=$(cd "$t" && ls -d "clyde.$r2".* 2>/dev/null)
[ -n "$r2" ] && kill -KILL "$r2"
wait $pid
rc=$?
left=$(ls -A "$t")
[ "$rc" = 3 ] && [ -n "$s2" ] && [ "$left" = "$s2" ] &&
    [ "$(grep -c "$s2" "$WORK/err")" = 1 ] &&
    grep -q "^clyde: rank 2 ($host): the measuring process (pid $r2) was killed by SIGKILL: stopping; it left $t/$s2: remove it with: rm -rf '$t/$s2'\$" "$WORK/err" &&
    [ "$(grep -c "^clyde: stopped by rank 0: rank 2 ($host): the measuring process (pid $r2) was killed by SIGKILL\$" "$WORK/err")" = 1 ]
ok $? "rank 2's measuring process killed (SIGKILL) in a phase: every other rank removes its own files, exit 3, rank 0 names rank 2's directory, left alone" ||
    { echo "rc=$rc rank 2: $m2 $r2 $s2"; cat "$WORK/err"; ls -A "$t"; } | diag
rm -rf "$t"

# Rank 2's MPI process killed with SIGKILL in a phase: mpirun ends the
# job (exit 137): SIGTERM to the others, SIGKILL after
# odls_base_sigkill_timeout (1 s by default; 10 s here, so that a loaded
# host cleans up in time); the others wait for nobody then and remove
# their own files; rank 2's measuring process, its parent gone, stops and
# removes its own (after mpirun has ended): nothing is left.
mpirun_was=$MPIRUN
MPIRUN="$MPIRUN --mca odls_base_sigkill_timeout 10"
three_ranks -s 0 -n 32
MPIRUN=$mpirun_was
m2=$(cat "$WORK/rank2" 2>/dev/null)
r2=$(one_child "$m2")
[ -n "$r2" ] && kill -KILL "$m2"
wait $pid
rc=$?
# rank 2's measuring process, now another's child, ends (or is a zombie)
i=0
while [ $i -lt 600 ] && [ -n "$r2" ] && [ -e "/proc/$r2" ] &&
    ! grep -q ') Z ' "/proc/$r2/stat" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
[ "$rc" = 137 ] && [ -n "$r2" ] && is_empty "$t" &&
    [ "$(grep -c '^clyde: interrupted by SIGTERM; removing what the run made$' "$WORK/err")" -ge 2 ]
ok $? "rank 2's MPI process killed (SIGKILL) in a phase: exit $rc, every rank removes its own files, rank 2's too" ||
    { echo "rc=$rc rank 2: $m2 $r2"; cat "$WORK/err"; ls -A "$t"; } | diag
[ -n "$r2" ] && kill -KILL "$r2" 2>/dev/null
rm -rf "$t"

# A rank held in a call for 8 s (the fault shim's block), with --stall=4,
# is slow, not lost: it is heard from meanwhile, and the run completes.
t=$(mktemp -d "$base/t.XXXXXX")
chmod 755 "$t"
rm -rf "$WORK/go" "$WORK/held"
a="-d $t $AS_USER -r 0 -m mpi --compat=2.00 -q -s 0 -n 1 -b --stall=4"
# the 8 s count from the start of the hold, however long mpirun took to
# start the ranks (a minute at most)
(i=0; until [ -e "$WORK/held" ] || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
    sleep 8; touch "$WORK/go") &
releaser=$!
# fsync (-b) of the sequential create's 10th file: a call that MPI
# itself does not make, on a file of clyde's
timeout 120 $MPIRUN -np 2 ./clyde-mpi $a : -np 1 env LD_PRELOAD="$SHIM" \
    CLYDE_FAULT_CALL=fsync CLYDE_FAULT_FILE="$SEQ_FILES" CLYDE_FAULT_NTH=10 \
    CLYDE_FAULT_ERR=block \
    CLYDE_FAULT_RELEASE="$WORK/go" CLYDE_FAULT_HELD="$WORK/held" \
    ./clyde-mpi $a >"$WORK/out" 2>"$WORK/err"
rc=$?
kill "$releaser" 2>/dev/null
wait "$releaser"
[ "$rc" = 0 ] && is_empty "$t" && ! grep -q 'has not answered' "$WORK/err" &&
    grep -q '^clyde: sequential create: no progress' "$WORK/err"
ok $? "rank 2 held in a call for 8 s, --stall=4: not taken for lost, exit 0, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag

# While a phase runs, each rank's measuring process is a single task,
# and the only process with the rank's files open: MPI and its threads
# are in its parent (dist/dist.h), with --stall=0 too, where plain clyde has
# no supervisor.  A process sharing its descriptor table (a thread, or a
# clone with CLONE_FILES) would hold the same files: holders_of finds
# it.  Each rank holds its fsync of the sequential create's 10th file
# (-b) until released; the processes are looked at while both are held.
for stall in 30 0; do
	t=$(mktemp -d "$base/t.XXXXXX")
	chmod 755 "$t"
	rm -rf "$WORK/go" "$WORK/held0" "$WORK/held1"
	a="-d $t $AS_USER -r 0 -m mpi --compat=2.00 -q -s 0 -n 1 -b --stall=$stall"
	hold="env LD_PRELOAD=$SHIM CLYDE_FAULT_CALL=fsync
	    CLYDE_FAULT_FILE=$SEQ_FILES CLYDE_FAULT_NTH=10
	    CLYDE_FAULT_ERR=block CLYDE_FAULT_RELEASE=$WORK/go"
	# $hold split into words, its glob not expanded
	set -f
	timeout 120 $MPIRUN -np 1 $hold CLYDE_FAULT_HELD="$WORK/held0" ./clyde-mpi $a : \
	    -np 1 $hold CLYDE_FAULT_HELD="$WORK/held1" ./clyde-mpi $a \
	    >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	set +f
	i=0
	until [ -e "$WORK/held0" ] && [ -e "$WORK/held1" ] || [ $i -ge 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	holders=$(holders_of "$t")
	# each one's task count, and whether its files are its own scratch
	# directory's (named after the measuring process)
	seen=$(for h in $holders; do
		printf '%s:' "$(ls "/proc/$h/task" | wc -l)"
		ls -d "$t/clyde.$h".* >/dev/null 2>&1 && echo own || echo other
	done | sort | tr '\n' ' ')
	touch "$WORK/go"
	wait $pid
	rc=$?
	[ "$rc" = 0 ] && is_empty "$t" && [ "$seen" = "1:own 1:own " ]
	ok $? "--stall=$stall: while a phase runs, each rank's measuring process is one task, alone with the rank's files" ||
	    { echo "rc=$rc; in the target (tasks:whose): $seen"; cat "$WORK/err"; } | diag
done

# --dirs-shared, depth 1: the three ranks in one directory; rank 1 fails
# as its delete starts, its directories still there: every rank removes
# its own, then rank 0 the shared one; nothing left
t=$(mktemp -d "$base/t.XXXXXX")
chmod 755 "$t"
timeout 120 $MPIRUN -np 3 -x CLYDE_TEST_FAIL_RANK=1:dir_del build/tests/clyde-mpi-hooks \
    --compat=2.00 -d "$t" $AS_USER -r 0 -s 0 -n 0 --dirs=1 --dirs-shared -q \
    >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 3 ] && is_empty "$t" && grep -q "rank 1 failed: directory delete" "$WORK/err"
ok $? "--dirs-shared: rank 1 fails in the delete, its directories in the shared one: exit 3, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t"; } | diag
done_testing
