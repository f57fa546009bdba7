#!/bin/sh
# Stop signals at the start of a run and for a measuring process that a
# debugger holds (clyde(1): --stall, SAFETY).  A call that hangs as the
# run starts (making the scratch directory or its record, also the second
# run of -x) is named by --stall, and two SIGINTs end the run with exit
# status 5 and the command that removes the scratch directory it made or
# may still make; on a frozen ext4 (root, a loop device) too.  A measuring
# process stopped by a debugger, which SIGCONT cannot continue, is killed
# at the second SIGINT, and the line says so and names what is left.
. "$(dirname "$0")/../lib.sh"

# until_err ERE: wait (at most 20 s) until $WORK/err has a line matching ERE
until_err() { until_true 200 grep -Eq "$1" "$WORK/err"; }

# two_ints: SIGINT to the run $pid, and once it has said what it waits
# for, a second; $rc its exit status once it has ended (at most 20 s)
two_ints() {
	kill -INT $pid
	until_err '^clyde: stopping: '
	kill -INT $pid
	until_true 200 gone $pid
	if gone $pid; then
		wait $pid
		rc=$?
	else
		rc=running
		kill -KILL $pid
	fi
}

# named: the line of a run stopped as it starts names its scratch
# directory in $t for removal; $left is that path
named() {
	left=$(sed -n "s|.*without cleanup.*rm -rf '\($t/clyde\.[0-9]*\.[A-Za-z0-9]\{6\}\)'\$|\1|p" "$WORK/err")
	[ -n "$left" ]
}

# the fault shim cannot be preloaded into a sanitized build (the
# sanitizer's runtime must come first)
no_shim() { ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan' || [ ! -f "$SHIM" ]; }

if [ ! -r /proc/self/schedstat ]; then
	skip "the untimed steps are watched from /proc's schedstat (Linux)" 3
elif no_shim; then
	skip "no fault shim for this build" 3
else
	# 1: the mkdir of the scratch directory hangs
	held_file='clyde.*' held_at mkdir 1 --stall=1 -s 0 -n 1
	until_err '^clyde: starting: no progress'
	two_ints
	touch "$WORK/release"
	named && [ "$rc" = 5 ] &&
	    grep -q '^clyde: a call on the filesystem does not return' "$WORK/err"
	ok $? "a mkdir of the scratch directory that hangs: --stall names the start, two SIGINTs end the run (exit 5) naming the directory it may still make"
	{ echo "rc $rc"; cat "$WORK/err"; } | diag

	# 2: the scratch directory is made, its record's open hangs
	held_file='made-by' held_at openat 1 --stall=1 -s 0 -n 1
	until_err '^clyde: starting: no progress'
	two_ints
	touch "$WORK/release"
	named && [ "$rc" = 5 ] && [ -d "$left" ] && [ "$(echo "$t"/clyde.*)" = "$left" ]
	ok $? "the open of the record made-by hangs: two SIGINTs end the run (exit 5) and name the scratch directory left"
	{ echo "rc $rc"; cat "$WORK/err"; ls -la "$t"; } | diag

	# 3: -x 2, the second run's mkdir hangs
	held_file='clyde.*' held_at mkdir 2 --stall=1 -s 0 -n 1 -x 2
	until_err '^clyde: starting: no progress'
	two_ints
	touch "$WORK/release"
	named && [ "$rc" = 5 ] && is_empty "$t"
	ok $? "-x 2: the second run's mkdir of its scratch directory hangs: two SIGINTs end it (exit 5)"
	{ echo "rc $rc"; cat "$WORK/err"; } | diag
fi

# 4: a frozen ext4 as the run starts (root, a loop device)
if [ ! -r /proc/self/schedstat ]; then
	skip "the untimed steps are watched from /proc's schedstat (Linux)" 1
else
	img=$WORK/ext4.img mnt=$WORK/mnt
	if [ "$(id -u)" != 0 ]; then
		skip "fsfreeze on a loop device needs root" 1
	elif ! needs fsfreeze util-linux || ! needs mkfs.ext4 e2fsprogs; then
		ok 0 "a frozen ext4 as the run starts"
	elif ! { truncate -s 32M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 &&
	    mkdir "$mnt" && mount -o loop "$img" "$mnt" 2>/dev/null; }; then
		skip "no ext4 on a loop device here (mount -o loop failed)" 1
	else
		trap 'fsfreeze -u "$mnt" 2>/dev/null; umount "$mnt" 2>/dev/null; rm -rf "$WORK"' EXIT
		t=$mnt
		fsfreeze -f "$mnt"
		"$CLYDE" -d "$t" $AS_USER -r 0 -q --stall=1 -s 0 -n 1 \
		    >"$WORK/out" 2>"$WORK/err" &
		pid=$!
		measurer $pid
		until_err '^clyde: starting: no progress: mkdir\('
		two_ints
		fsfreeze -u "$mnt"
		# the killed mkdir may still make it as the filesystem thaws:
		# what is there is what was named
		until_true 100 gone "$meas"
		made=$(echo "$t"/clyde.*)
		named && [ "$rc" = 5 ] &&
		    { [ "$made" = "$left" ] || [ "$made" = "$t/clyde.*" ]; }
		ok $? "a frozen ext4 as the run starts: --stall names the mkdir, two SIGINTs end the run (exit 5) naming the directory the mkdir may make once thawed"
		{ echo "rc $rc"; cat "$WORK/err"; ls -la "$t"; } | diag
		until_true 100 umount "$mnt" 2>/dev/null
	fi
fi

# 5: a debugger holds the measuring process (ptrace), where SIGCONT does
# nothing: the second SIGINT kills it, and the line says why
if no_shim; then
	skip "no fault shim for this build" 1
elif ! needs python3 python3; then
	ok 0 "a measuring process that a debugger holds"
else
	t=$(fresh_target)
	rm -f "$WORK/hits"
	CLYDE_FAULT_CALL=mkdir CLYDE_FAULT_FILE=files CLYDE_FAULT_ERR=delay \
	    CLYDE_FAULT_DELAY_MS=20000 CLYDE_FAULT_HITS=$WORK/hits LD_PRELOAD=$SHIM \
	    "$CLYDE" -d "$t" $AS_USER -r 0 -q --stall=30 -s 0 -n 1 \
	    >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	measurer $pid
	until_true 200 [ -s "$WORK/hits" ]
	# PTRACE_ATTACH (16): the process stops, traced, until the tracer goes
	python3 -c 'import ctypes, sys, time
libc = ctypes.CDLL(None, use_errno=True)
if libc.ptrace(16, int(sys.argv[1]), None, None) != 0:
    sys.exit(1)
time.sleep(30)' "$meas" 2>/dev/null &
	tracer=$!
	until_true 100 stopped "$meas"
	if gone $tracer || ! stopped "$meas"; then
		kill $tracer $pid 2>/dev/null
		wait $pid
		skip "ptrace refused here (kernel.yama.ptrace_scope)" 1 "a measuring process that a debugger holds"
	else
		two_ints
		kill $tracer 2>/dev/null
		wait $tracer 2>/dev/null
		named && [ "$rc" = 5 ] && [ -d "$left" ] &&
		    grep -q "^clyde: the measuring process (pid $meas) is held by a debugger" "$WORK/err"
		ok $? "a measuring process that a debugger holds: the second SIGINT kills it (exit 5), the line says so and names what is left"
		{ echo "rc $rc"; cat "$WORK/err"; } | diag
	fi
fi

done_testing
