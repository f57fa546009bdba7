#!/bin/sh
# Stops: a call that hangs outside a phase's timed part (the fault shim
# holds it, as a frozen filesystem or a server gone would), and the
# processes of a run stopped (SIGSTOP, as a debugger or Ctrl-Z stops
# them): the watcher of --stall names the untimed step, two SIGINTs end
# the run with exit 5, and a stopped copy or measuring process does not
# hold it.
. "$(dirname "$0")/lib.sh"

# ended: the run in the background ($pid) ends, within a minute, or is
# killed; its exit status in $rc
ended() {
	until_true 600 gone $pid
	if ! gone $pid; then
		echo "still running after a minute" >>"$WORK/err"
		kill -KILL $pid $meas $kids 2>/dev/null
	fi
	wait $pid
	rc=$?
}

# two_sigints: SIGINT to the run ($pid), and once the watcher has it, a
# second one; then ended
two_sigints() {
	kill -INT $pid
	# two signals sent at once are one: the second after the first is seen
	until_true 600 int_taken $pid
	kill -INT $pid
	ended
}

# held_stall CALL N FILE ARGS...: held_at (lib.sh) with --stall=1 on the
# calls on FILE, once the stall line is out; the stall line in $line
held_stall() {
	call=$1 nth=$2 held_file=$3
	shift 3
	held_at "$call" "$nth" --stall=1 "$@"
	held_file=
	until_true 600 grep -q "no progress" "$WORK/err"
	line=$(grep "no progress" "$WORK/err" | head -1)
}

# left: what a run left in $t, removed; its name in $left
left() {
	left=$(ls -A "$t")
	[ -z "$left" ] || rm -rf "${t:?}/$left"
}

if ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan' || [ ! -f "$SHIM" ]; then
	skip_all "no fault shim for this build" 4
else
	# --- a call that hangs outside the timed part ------------------------

	# the mkdir of files/ in the sequential create's prepare, the data
	# file's open before the block write, the seekers' open of it, the
	# removal of the scratch directory's record in cleanup: the stall line
	# names the step; two SIGINTs end the run (exit 5), naming what to
	# remove when the hung call is the measuring process's own
	for spec in "mkdir 1 files|preparing the sequential create|-s 0 -n 1" \
	    "openat 1 Bonnie.*|preparing the block write|-s 1 -n 0 -f" \
	    "unlink 1 made-by|cleanup|-s 0 -n 1"; do
		call=${spec%%|*} rest=${spec#*|}
		step=${rest%%|*} args=${rest#*|}
		held_stall $call $args
		two_sigints
		touch "$WORK/release"
		if [ "$step" = cleanup ]; then
			want="clyde: stopped during cleanup; remove what is left with: rm -rf"
		else
			want="clyde: a call on the filesystem does not return; stopped without cleanup: remove what is left with: rm -rf"
		fi
		scratch_left=$(ls -A "$t")
		left
		[ "$rc" = 5 ] && [ -n "$scratch_left" ] &&
		    printf '%s\n' "$line" | grep -Eq "^clyde: $step: no progress: .* has not returned after 1 s; the filesystem is not answering \(SIGINT stops the run\)\$" &&
		    grep -q "^clyde: stopping: waiting for the call that hangs; a second SIGINT stops waiting\$" "$WORK/err" &&
		    grep -qxF "$want '$t/$scratch_left'" "$WORK/err"
		ok $? "a call that hangs, $step (${call%% *}): the stall line names the step, two SIGINTs exit 5 and name what is left" ||
		    { echo "rc=$rc left=$scratch_left"; cat "$WORK/err"; } | diag
	done

	# a seeker's open of the data file hangs as the seekers start: the
	# stall line names the step; the seekers' parent is not hung, and two
	# SIGINTs end the run with its cleanup
	held_stall openat 4 'Bonnie.*' -s 1 -n 0 -f
	two_sigints
	touch "$WORK/release"
	[ "$rc" = 5 ] && is_empty "$t" &&
	    printf '%s\n' "$line" | grep -Eq "^clyde: preparing the random seeks: no progress: .* has not returned after 1 s; the filesystem is not answering \(SIGINT stops the run\)\$" &&
	    grep -q "^clyde: interrupted by SIGINT; removing what the run made\$" "$WORK/err"
	ok $? "a seeker's open that hangs as the seekers start: the stall line names the step, two SIGINTs exit 5, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag
	left
fi

# --- a stopped measuring process, a stopped copy --------------------------

# seeks_run ARGS...: a run in the background ($pid) whose measuring
# process ($meas) has N seekers ($kids) that go on for 16000000 seeks on
# 1 MiB, until the run is stopped; N is 3, or with -c the copies' count
seeks_run() {
	t=$(fresh_target)
	: >"$WORK/err"
	"$CLYDE" -d "$t" $AS_USER -r 0 -q -s 1:8192:16000000:3 -n 0 -f "$@" \
	    >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	measurer $pid
}

# the measuring process stopped (SIGSTOP) during the seeks: two SIGINTs
# to the run continue it, it stops, cleans up and exits 5
seeks_run --stall=300
wait_children "$meas" 3
seekers=$kids
kill -STOP "$meas"
until_true 600 stopped "$meas"
kids=$seekers
two_sigints
[ "$rc" = 5 ] && is_empty "$t" && all_gone $seekers &&
    grep -q "^clyde: stopping: the measuring process (pid $meas) is stopped; a second SIGINT continues it, and the run stops\$" "$WORK/err" &&
    grep -q "^clyde: interrupted by SIGINT; removing what the run made\$" "$WORK/err"
ok $? "the measuring process stopped: two SIGINTs continue it, it cleans up, exit 5" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag
left

# -c 2, a copy stopped (SIGSTOP) during its seeks, before --stall passes
# and after: the first SIGINT says it is stopped, the second kills it;
# what it made is removed, exit 5
for stall in 300 1; do
	seeks_run --compat=2.00 -c 2 --stall=$stall
	wait_children "$meas" 2
	copies=$kids
	copy=$(echo "$copies" | tail -1)
	wait_children "$copy" 3
	seekers=$kids
	if [ "$stall" = 1 ]; then
		# its seekers too, or the copy's meter would still move
		kill -STOP "$copy" $seekers
		until_true 600 grep -q "is stopped" "$WORK/err"
	else
		kill -STOP "$copy"
	fi
	until_true 600 stopped "$copy"
	kids="$copies $seekers"
	two_sigints
	# the seekers of the copy killed go with it, reaped by init
	until_true 600 all_gone $copies $seekers
	[ "$rc" = 5 ] && is_empty "$t" && all_gone $copies $seekers &&
	    grep -Eq "^clyde: stopping: waiting for (copy\.[01]|seeker [0-9]) \(pid [0-9]+\), which is stopped; a second SIGINT ends it\$" "$WORK/err" &&
	    ! grep -q "a call on the filesystem does not return" "$WORK/err" &&
	    grep -q "^clyde: interrupted by SIGINT; removing what the run made\$" "$WORK/err"
	ok $? "-c 2, a copy stopped (--stall=$stall): two SIGINTs kill it, what it made is removed, exit 5" ||
	    { echo "rc=$rc copies $copies stopped $copy seekers $seekers"
	      for p in $copies $seekers; do gone "$p" || echo "alive: $p"; done
	      cat "$WORK/err"; ls -AR "$t"; } | diag
	left
done

done_testing
