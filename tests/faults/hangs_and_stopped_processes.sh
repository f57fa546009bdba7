#!/bin/sh
# Stops: a call that hangs outside a phase's timed part (the fault shim
# holds it, as a frozen filesystem or a server gone would), and the
# processes of a run stopped (SIGSTOP, as a debugger or Ctrl-Z stops
# them): the watcher of --stall names the untimed step, two SIGINTs end
# the run with exit 5, a stopped copy or measuring process does not hold
# it, and a phase that was stopped is marked.
. "$(dirname "$0")/../lib.sh"

# in_target PID...: those of the PIDs with a descriptor or their working
# directory in $t (the seekers, the copies of -c; not the keeper of the
# --json file, another child of the measuring process)
in_target() {
	holders=$(holders_of "$t")
	for p in "$@"; do
		echo "$holders" | grep -qx "$p" && echo "$p"
	done
}

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
	skip "no fault shim for this build" 4
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

# --- a phase that was stopped ----------------------------------------------

# marked PHASE LABEL: the run ended well ($rc 0, nothing left), its
# stderr says once that PHASE (LABEL) was stopped, and its --json record
# ($WORK/stopped.json) too: that test's status "stopped" with the figures
# it measured, its phase's stopped_ns, and no other phase marked
marked() {
	[ "$rc" = 0 ] && is_empty "$t" &&
	    [ "$(grep -c "stopped for" "$WORK/err")" = 1 ] &&
	    grep -Eq "^clyde: $2: the phase was stopped for [0-9]+\.[0-9] s of its [0-9]+\.[0-9] s; its rate is not valid\$" "$WORK/err" &&
	    pl 'my ($r, $ph) = (load($ARGV[0]), $ARGV[1]);
		for my $k (keys %{$r->{tests}}) {
			my ($t, $p) = ($r->{tests}{$k}, $r->{phases}{$k});
			if ($k eq $ph) {
				check($t->{status} eq "stopped" && num($t->{rate}) > 0, $t);
				check(num($p->{stopped_ns}) > 0 &&
				    $p->{stopped_ns} <= $p->{elapsed_ns}, $p);
			} else {
				check($t->{status} ne "stopped", $k, $t);
				check(!defined $p || !defined $p->{stopped_ns}, $k, $p);
			}
		}' "$WORK/stopped.json" "$1"
}

if ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan' || [ ! -f "$SHIM" ]; then
	skip "no fault shim for this build" 5
else
	# the measuring process, stopped (SIGSTOP) in the sequential create
	# (held in the open of its 10th file), continued, then the open returns
	rm -f "$WORK/stopped.json"
	held_file=$SEQ_FILES held_at openat 10 -s 0 -n 1 --json="$WORK/stopped.json"
	measurer $pid
	kill -STOP "$meas"
	until_true 600 stopped "$meas"
	kill -CONT "$meas"
	released
	marked seq_create "sequential create"
	ok $? "the measuring process stopped in a phase: marked on stderr and in the JSON record" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag

	# the whole run stopped, the watcher too (as Ctrl-Z stops a job), then
	# continued, the measuring process first or the watcher first
	for first in measuring watcher; do
		rm -f "$WORK/stopped.json"
		held_file=$SEQ_FILES held_at openat 10 -s 0 -n 1 --json="$WORK/stopped.json"
		measurer $pid
		kill -STOP $pid "$meas"
		until_true 600 stopped $pid
		until_true 600 stopped "$meas"
		# a second stopped: what it says is more than none
		sleep 1
		if [ $first = measuring ]; then
			kill -CONT "$meas"
			until_true 600 eval '! stopped $meas'
			kill -CONT $pid
		else
			kill -CONT $pid
			until_true 600 eval '! stopped $pid'
			kill -CONT "$meas"
		fi
		released
		marked seq_create "sequential create" &&
		    grep -Eq "stopped for ([1-9][0-9]*\.[0-9]|0\.[1-9]) s" "$WORK/err"
		ok $? "the whole run stopped in a phase and continued, the $first process first: marked on stderr and in the JSON record" ||
		    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	done

	# a seeker stopped while the seekers are held at their first read of
	# the data file (the first count that several processes reach: each
	# counts on from its parent's), until the stall line names it
	t=$(fresh_target)
	rm -f "$WORK/hits"
	CLYDE_FAULT_CALL=read CLYDE_FAULT_FILE='Bonnie.*' CLYDE_FAULT_ERR=delay \
	    CLYDE_FAULT_DELAY_MS=0 CLYDE_FAULT_COUNT=0 CLYDE_FAULT_HITS="$WORK/hits" \
	    LD_PRELOAD=$SHIM "$CLYDE" -d "$t" $AS_USER -r 0 -q -s 1:8192 -n 0 -f \
	    >/dev/null 2>&1
	first=$(awk '{ print $3 }' "$WORK/hits" | sort -n | uniq -d | head -1)
	rm -f "$WORK/stopped.json"
	held_file='Bonnie.*' held_at read "${first:-1}" -s 1:8192 -n 0 -f --stall=1 \
	    --json="$WORK/stopped.json"
	measurer $pid
	# the seekers and the keeper of the --json file
	wait_children "$meas" 4
	seeker=$(in_target $kids | head -1)
	kill -STOP "$seeker"
	until_true 600 grep -q "(pid $seeker) is stopped" "$WORK/err"
	kill -CONT "$seeker"
	released
	marked seeks "random seeks"
	ok $? "a seeker stopped in the seeks: marked on stderr and in the JSON record" ||
	    { echo "rc=$rc first=$first seeker $seeker"; cat "$WORK/err"; } | diag

	# -c 2, a copy stopped in the sequential create, until the stall line
	# names it
	rm -f "$WORK/stopped.json"
	held_file=$SEQ_FILES held_at openat 10 --compat=2.00 -c 2 -s 0 -n 1 \
	    --stall=1 --json="$WORK/stopped.json"
	measurer $pid
	# the copies and the keeper of the --json file
	wait_children "$meas" 3
	copy=$(in_target $kids | tail -1)
	kill -STOP "$copy"
	until_true 600 grep -q "(pid $copy) is stopped" "$WORK/err"
	kill -CONT "$copy"
	released
	marked seq_create "sequential create"
	ok $? "-c 2, a copy stopped in a phase: marked on stderr and in the JSON record" ||
	    { echo "rc=$rc copy $copy"; cat "$WORK/err"; } | diag
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
