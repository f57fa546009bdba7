#!/bin/sh
# End-to-end runs of the classic profile on a temporary directory: the
# shape of the table and the CSV line for every form of -s, -n, -f, -x,
# -q; user files untouched; nothing left behind; SIGINT; stdout errors.
. "$(dirname "$0")/../lib.sh"

csv_line() { tail -1 "$WORK/out"; }

# the whole I/O and file section, small (1 MiB, as in most runs below:
# what they look at does not change with the size)
run -s 1 -n 1
line=$(csv_line)
[ "$rc" = 0 ] && [ "$(nfields "$line")" = 27 ] && is_empty "$t"
ok $? "tiny run: exit 0, 27 CSV fields, empty target" || diag < "$WORK/err"
[ "$(field "$line" 1)" = host ] && [ "$(field "$line" 2)" = 1M ] &&
    [ "$(field "$line" 15)" = 1 ]
ok $? "CSV: name, size 1M, files 1" || echo "$line" | diag
[ "$(wc -l < "$WORK/out")" = 9 ] &&
    head -1 "$WORK/out" | grep -q '^Version 1.03e       ------Sequential Output'
ok $? "table of 8 lines then the CSV line" || diag < "$WORK/out"
sed -n 4p "$WORK/out" | grep -Eq '^host             1M( +([0-9]+|\+{5}) +([0-9]+|\+{3})){5} +([0-9.]+|\+{5}) +([0-9]+|\+{3})$'
ok $? "I/O row: 19-character label, six rate/CPU pairs" || diag < "$WORK/out"
for p in "Writing with putc()...done" "Writing intelligently...done" \
    "Rewriting...done" "Reading with getc()...done" \
    "Reading intelligently...done" "start 'em...done...done...done..." \
    "Create files in sequential order...done." \
    "Delete files in random order...done."; do
	grep -qF "$p" "$WORK/err" || { echo "missing: $p"; false; } || break
done
ok $? "bonnie++'s progress lines on stderr"

# every value is a rate, +++++, a CPU figure or +++
echo "$line" | awk -F, '{ for (i = 3; i <= 27; i++) if (i != 15 &&
    $i !~ /^([0-9]+|[0-9]+\.[0-9]|\+\+\+\+\+|\+\+\+)$/) exit 1 }'
ok $? "every cell a number, +++++ or +++" || echo "$line" | diag

# -f: the per-char cells are empty
run -s 1 -n 1 -f
line=$(csv_line)
[ "$rc" = 0 ] && [ -z "$(field "$line" 3)$(field "$line" 4)$(field "$line" 9)$(field "$line" 10)" ] &&
    [ -n "$(field "$line" 5)" ] && is_empty "$t"
ok $? "-f: per-char fields empty, block fields filled" || echo "$line" | diag
sed -n 4p "$WORK/out" | grep -q '^host             1M           '
ok $? "-f: blank per-char cells in the table" || diag < "$WORK/out"
grep -q "putc" "$WORK/err"
[ $? != 0 ]
ok $? "-f: no per-char progress line"

# -s 0: no I/O section, name repeated in the file section
run -s 0 -n 1
line=$(csv_line)
case "$line" in host,,,,,,,,,,,,,,1,*) r=0 ;; *) r=1 ;; esac
[ "$rc" = 0 ] && [ "$r" = 0 ] && [ "$(nfields "$line")" = 27 ]
ok $? "-s 0: name and 13 empty fields before the file spec" || echo "$line" | diag
head -2 "$WORK/out" | tail -1 | grep -q '^host                -Create--'
ok $? "-s 0: the file section names the machine" || diag < "$WORK/out"

# -n 0: 13 empty fields at the end, no file section
run -s 1 -n 0
line=$(csv_line)
case "$line" in host,1M,*,,,,,,,,,,,,,) r=0 ;; *) r=1 ;; esac
[ "$rc" = 0 ] && [ "$r" = 0 ] && [ "$(nfields "$line")" = 27 ] &&
    [ "$(wc -l < "$WORK/out")" = 5 ]
ok $? "-n 0: 13 empty file fields, I/O section only" || diag < "$WORK/out"

# chunk size in the size field and the label
run -s 1:4k -n 0
line=$(csv_line)
[ "$(field "$line" 2)" = 1M:4k ] && grep -q '^Machine   Size:chnk K/sec' "$WORK/out" &&
    grep -q '^host          1M:4k ' "$WORK/out"
ok $? "-s 1:4k: size field 1M:4k, label and header with the chunk" || diag < "$WORK/out"

# file sizes, directories, links
run -s 0 -n 1:4096:1024:4
line=$(csv_line)
[ "$rc" = 0 ] && [ "$(field "$line" 15)" = "1:4096:1024/4" ] &&
    grep -q '^files:max:min  ' "$WORK/out" && is_empty "$t"
ok $? "-n 1:4096:1024:4: spec 1:4096:1024/4, files:max:min header" || diag < "$WORK/out"
run -s 0 -n 1:-1
[ "$rc" = 0 ] && [ "$(field "$(csv_line)" 15)" = "1:link" ] && is_empty "$t"
ok $? "-n 1:-1: hard links" || diag < "$WORK/err"
run -s 0 -n 1:-2
[ "$rc" = 0 ] && [ "$(field "$(csv_line)" 15)" = "1:symlink" ] && is_empty "$t"
ok $? "-n 1:-2: symbolic links" || diag < "$WORK/err"

# -x 2: header and two CSV lines, no table
run -s 0 -n 1 -x 2
[ "$rc" = 0 ] && [ "$(wc -l < "$WORK/out")" = 3 ] &&
    head -1 "$WORK/out" | grep -q '^name,file_size,putc,putc_cpu,.*,ran_del,ran_del_cpu$' &&
    [ "$(nfields "$(head -1 "$WORK/out")")" = 27 ]
ok $? "-x 2: 27-name header and two CSV lines" || diag < "$WORK/out"
run -s 0 -n 1 -x 1
[ "$rc" = 0 ] && [ "$(wc -l < "$WORK/out")" = 1 ]
ok $? "-x 1: one CSV line, no header, no table"

# -q: CSV alone on stdout, the table on stderr, no progress
run -s 0 -n 1 -q
[ "$rc" = 0 ] && [ "$(wc -l < "$WORK/out")" = 1 ] &&
    grep -q '^Version 1.03e' "$WORK/err" && ! grep -q 'Create files' "$WORK/err"
ok $? "-q: CSV on stdout, table on stderr, no progress" || diag < "$WORK/err"

# user files in the target are left as they were
t=$(fresh_target)
printf 'keep me\n' > "$t/user-file"
mkdir "$t/Bonnie.1" && printf 'x' > "$t/Bonnie.1/data"
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 >/dev/null 2>&1
[ $? = 0 ] && [ "$(cat "$t/user-file")" = "keep me" ] &&
    [ "$(cat "$t/Bonnie.1/data")" = x ] && [ "$(ls -A "$t" | wc -l)" = 2 ]
ok $? "files already in the target are untouched, nothing added"

# a scratch directory of a dead run is reported, not removed: one that
# says it was made here (this host, boot and PID namespace), with its
# data file and a small file
here_record() {
	printf 'host %s\nboot %s\npidns %s\n' "$(hostname)" \
	    "$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)" \
	    "$(readlink /proc/self/ns/pid 2>/dev/null)" >"$1/made-by"
}
t=$(fresh_target)
d=$t/clyde.999999998.AbCdEf
mkdir -m 700 "$d" && mkdir "$d/files" && here_record "$d" &&
    : >"$d/Bonnie.999999998" && : >"$d/files/000000002aVeryLong"
"$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 >/dev/null 2>"$WORK/err"
[ $? = 0 ] && [ -f "$d/Bonnie.999999998" ] &&
    grep -q "clyde.999999998.AbCdEf was left by an earlier run.*rm -rf" "$WORK/err"
ok $? "a stale scratch directory is reported with the command, and kept" || diag < "$WORK/err"

# only what looks like clyde's is named: not a file or a symbolic link of
# that name, a directory of another mode, one without its record (made-by),
# one holding other names; and one made on another host is never called stale
t=$(fresh_target)
printf 'notes\n' >"$t/clyde.99999.notes1"
mkdir -m 700 "$WORK/linked" && ln -s "$WORK/linked" "$t/clyde.99998.notes2"
mkdir -m 755 "$t/clyde.999999997.AbCdEf"
mkdir -m 700 "$t/clyde.999999996.AbCdEf" && : >"$t/clyde.999999996.AbCdEf/photo.jpg"
mkdir -m 700 "$t/clyde.999999999.AbCdEf"
mkdir -m 700 "$t/clyde.999999995.AbCdEf"
printf 'host elsewhere.example\nboot 1\npidns pid:[1]\n' \
    >"$t/clyde.999999995.AbCdEf/made-by"
touch -d '3 hours ago' "$t/clyde.999999995.AbCdEf/made-by" "$t/clyde.999999995.AbCdEf"
"$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && ! grep -q "left by an earlier run" "$WORK/err" &&
    ! grep -Eq "notes|999999997|999999996|999999999" "$WORK/err" &&
    grep -q "^clyde: $t/clyde.999999995.AbCdEf was made by a run on elsewhere.example, last changed 3 h ago, which this run cannot check; it is left as it is\$" "$WORK/err" &&
    [ "$(ls -A "$t" | wc -l)" = 6 ] && [ -d "$WORK/linked" ]
ok $? "leftovers: only clyde's directories are named, one of another host as such, with its age" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
rm -rf "$WORK/linked"

# the live runs of other nodes on a shared filesystem (their directories
# changed lately): one line for all of them, whatever their number
t=$(fresh_target)
for n in 2 3 4; do
	d=$t/clyde.99999999$n.AbCdEf
	mkdir -m 700 "$d" && mkdir "$d/files" &&
	    printf 'host node%s\nboot 1\npidns pid:[1]\n' $((n % 2 + 2)) >"$d/made-by"
done
"$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && [ "$(grep -c 'clyde\.9999' "$WORK/err")" = 0 ] &&
    [ "$(grep -c "^clyde: $t holds the scratch directories of 3 runs on node3, node2, the last changed [0-9]* s ago: other runs share this filesystem; they are left as they are\$\|^clyde: $t holds the scratch directories of 3 runs on node2, node3, the last changed [0-9]* s ago: other runs share this filesystem; they are left as they are\$" "$WORK/err")" = 1 ] &&
    [ "$(grep -c 'scratch director\|made by a run\|left by an earlier' "$WORK/err")" = 1 ] &&
    [ "$(ls -A "$t" | wc -l)" = 3 ]
ok $? "live runs of other hosts: one line naming their hosts, nothing else said, their directories kept" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
rm -rf "$t"/clyde.99999999*

# a user's own directories of such names, each with a record made here:
# clyde.2024.bonnie holding a file of bonnie++'s name, one holding
# files/thesis.tex, one holding copy.of-notes, one whose made-by is a
# link to a record; one whose made-by is a FIFO, which must not hold the
# run; and names with an escape or a newline: none is named, each is
# left as it is
t=$(fresh_target)
for n in 2024 2025 2026 2027 2028; do mkdir -m 700 "$t/clyde.$n.bonnie"; done
here_record "$t/clyde.2024.bonnie" && : >"$t/clyde.2024.bonnie/Bonnie.results.csv"
here_record "$t/clyde.2025.bonnie" && mkdir "$t/clyde.2025.bonnie/files" &&
    : >"$t/clyde.2025.bonnie/files/thesis.tex"
here_record "$t/clyde.2026.bonnie" && mkdir "$t/clyde.2026.bonnie/copy.of-notes"
here_record "$WORK" && ln -s "$WORK/made-by" "$t/clyde.2027.bonnie/made-by"
mkfifo "$t/clyde.2028.bonnie/made-by"
esc=$(printf 'clyde.1.\033[31mX')
nl="clyde.2.ab
cdef"
mkdir -m 700 "$t/$esc" "$t/$nl" && here_record "$t/$esc" && here_record "$t/$nl"
timeout 60 "$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && ! grep -q "left by an earlier run\|bonnie\|clyde\.[12]\." "$WORK/err" &&
    ! grep -q "$(printf '\033')" "$WORK/err" &&
    [ "$(find "$t" -mindepth 1 -maxdepth 1 -printf x | wc -c)" = 7 ] &&
    [ -p "$t/clyde.2028.bonnie/made-by" ] &&
    [ -f "$t/clyde.2025.bonnie/files/thesis.tex" ]
ok $? "a user's directories named like leftovers (other files, a linked or FIFO made-by, control characters): passed over in silence, the run not held" ||
    { echo "rc=$rc"; cat -v "$WORK/err"; } | diag

# the same with a record made here: one whose made-by goes on for a
# terabyte (sparse), which was read to its end at every start, and one
# holding a user's file in a subdirectory of files
t=$(fresh_target)
mkdir -m 700 "$t/clyde.2030.bonnie" "$t/clyde.2031.bonnie"
here_record "$t/clyde.2030.bonnie" && here_record "$t/clyde.2031.bonnie" &&
    mkdir -p "$t/clyde.2031.bonnie/files/00000" &&
    : >"$t/clyde.2031.bonnie/files/00000/thesis.tex"
truncate -s 1T "$t/clyde.2030.bonnie/made-by" 2>/dev/null ||
    truncate -s 4G "$t/clyde.2030.bonnie/made-by"
# a stop signal is not seen while the target is looked through: -k
timeout -k 5 60 "$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 >/dev/null 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && ! grep -q "left by an earlier run\|bonnie" "$WORK/err" &&
    [ -f "$t/clyde.2031.bonnie/files/00000/thesis.tex" ] &&
    [ "$(find "$t" -mindepth 1 -maxdepth 1 -printf x | wc -c)" = 2 ]
ok $? "leftover-looking directories with a made-by too large for a record, or a user's file in files/00000: passed over in silence, the run not held" ||
    { echo "rc=$rc"; cat -v "$WORK/err"; } | diag

# a live run in another PID namespace (unshare -p): its PID means nothing
# here, so its directory is not called stale
if [ "$(id -u)" = 0 ] && unshare -pf --mount-proc true 2>/dev/null; then
	t=$(fresh_target)
	rm -f "$WORK/in" && mkfifo "$WORK/in"
	# a PID that this namespace does not have
	pid=32000
	while kill -0 $((pid + 1)) 2>/dev/null; do pid=$((pid - 100)); done
	# sh is PID 1 there; clyde, its child, the PID after $pid (with
	# --stall the one that measures and names the directory is the next)
	unshare -pf --mount-proc sh -c "echo $pid >/proc/sys/kernel/ns_last_pid &&
	    \"\$0\" -d \"\$1\" -u root -r 0 -s 0 -n 1 -y p" \
	    "$(cd "$(dirname "$CLYDE")" && pwd)/${CLYDE##*/}" "$t" \
	    <"$WORK/in" >/dev/null 2>"$WORK/err1" &
	ns_pid=$!
	exec 3>"$WORK/in"
	for i in $(seq 300); do
		grep -q "press Enter" "$WORK/err1" && break
		sleep 0.1
	done
	"$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 >/dev/null 2>"$WORK/err"
	rc=$?
	exec 3>&-
	wait $ns_pid
	rc1=$?
	[ "$rc" = 0 ] && [ "$rc1" = 5 ] && ls "$WORK/err1" >/dev/null &&
	    ! grep -q "left by an earlier run" "$WORK/err" &&
	    grep -Eq "^clyde: $t/clyde\.($((pid + 1))|$((pid + 2)))\.[A-Za-z0-9]{6} is the scratch directory of a run on $(hostname) \(another PID namespace\), changed [0-9]+ s ago: another run shares this filesystem; it is left as it is\$" "$WORK/err" &&
	    is_empty "$t"
	ok $? "a live run in another PID namespace: not called stale, named as such" ||
	    { echo "rc=$rc rc1=$rc1"; cat "$WORK/err1" "$WORK/err"; } | diag
else
	skip "not root, or no unshare -p: no other PID namespace" 1
fi

# the same seed gives the same run; -Z reads numbers from a file
head -c 4096 /dev/urandom > "$WORK/random"
run -s 0 -n 1 -Z "$WORK/random"
[ "$rc" = 0 ] && is_empty "$t"
ok $? "-Z FILE: a run on numbers from a file" || { echo "rc=$rc"; ls -A "$t"; cat "$WORK/err"; } | diag

# SIGINT in the middle: exit 5, nothing left.  It is sent once the data
# file is there, so that the run is in its per-char write of 2 GiB, far
# from its end (the bound on that wait is only a safety net)
t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -r 0 -s 2048 -n 0 >/dev/null 2>"$WORK/err" &
pid=$!
i=0
while [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
	set -- "$t"/clyde.*/Bonnie.*
	[ -e "$1" ] && break
	sleep 0.05
	i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 5 ] && is_empty "$t"
ok $? "SIGINT mid-run: exit 5 and an empty target" || { echo "rc=$rc"; ls -A "$t"; } | diag

# kill -9 of the measuring process (the OOM killer's way): the process
# that watches it names the scratch directory left, with the command; it
# is the one whose PID names the data file.  (Run through a shell whose
# own stderr goes nowhere: it says "Killed".)
t=$(fresh_target)
E=$WORK/err9 sh -c '"$@" >/dev/null 2>"$E"; echo $? >"$E.rc"' sh "$CLYDE" \
    -d "$t" $AS_USER -r 0 -s 2048 -n 0 2>/dev/null &
wait_pid=$!
E=$WORK/err9
i=0
while [ $i -lt 600 ]; do
	set -- "$t"/clyde.*/Bonnie.*
	[ -e "$1" ] && break
	sleep 0.05
	i=$((i + 1))
done
data=${1##*/}
kill -KILL "${data#Bonnie.}" 2>/dev/null
wait $wait_pid
rc=$(cat "$E.rc" 2>/dev/null)
set -- "$t"/clyde.*
left=$1
[ "$rc" = 137 ] && [ -d "$left" ] &&
    grep -qxF "clyde: the measuring process (pid ${data#Bonnie.}) was killed by SIGKILL; it left $left: remove it with: rm -rf '$left'" "$E"
ok $? "kill -9 of the measuring process: exit 137, the scratch directory left is named with the command" ||
    { echo "rc=$rc data=$data"; ls -A "$t"; cat "$E"; } | diag
rm -rf "$left"

# the same while the phase's line is open and its data file's open hangs
# (the fault shim holds it): the watcher's line is a line of its own
if ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan' || [ ! -f "$SHIM" ]; then
	skip "no fault shim for this build (the sanitizer's)" 2
else
	# killed_held ACTION: a run whose open of its data file the shim
	# holds; ACTION, then kill -9 of its measuring process ($measuring,
	# whose scratch directory is $left); its exit status in $rc
	killed_held() {
		action=$1
		t=$(fresh_target)
		rm -rf "$WORK/held" "$WORK/release"
		CLYDE_FAULT_CALL=openat CLYDE_FAULT_NTH=1 CLYDE_FAULT_ERR=block \
		    CLYDE_FAULT_FILE='Bonnie.*' CLYDE_FAULT_HELD="$WORK/held" \
		    CLYDE_FAULT_RELEASE="$WORK/release" LD_PRELOAD=$SHIM \
		    E=$WORK/err9 sh -c '"$@" >/dev/null 2>"$E"; echo $? >"$E.rc"' \
		    sh "$CLYDE" -d "$t" $AS_USER -r 0 -s 2048 -n 0 2>/dev/null &
		wait_pid=$!
		i=0
		while [ ! -d "$WORK/held" ] && [ $i -lt 600 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		set -- "$t"/clyde.*
		left=$1 measuring=${1#"$t"/clyde.}
		measuring=${measuring%%.*}
		$action
		kill -KILL "$measuring" 2>/dev/null
		wait $wait_pid
		rc=$(cat "$E.rc" 2>/dev/null)
	}
	killed_held :
	[ "$rc" = 137 ] && [ -d "$left" ] && grep -qx "Writing with putc()\.\.\." "$E" &&
	    grep -qxF "clyde: the measuring process (pid $measuring) was killed by SIGKILL; it left $left: remove it with: rm -rf '$left'" "$E"
	ok $? "kill -9 while the data file's open hangs: the watcher's line after the phase's, on its own" ||
	    { echo "rc=$rc pid=$measuring"; ls -A "$t"; cat "$E"; } | diag
	rm -rf "$left"

	# the same after the scratch directory was moved away and a user's
	# directory put under its name: that one is not named for rm -rf
	users_in_place() {
		mv "$left" "$WORK/moved-scratch" && mkdir "$left" &&
		    printf 'notes\n' >"$left/thesis.tex"
	}
	killed_held users_in_place
	[ "$rc" = 137 ] && [ "$(cat "$left/thesis.tex")" = notes ] &&
	    ! grep -q "rm -rf" "$E" &&
	    grep -qxF "clyde: the measuring process (pid $measuring) was killed by SIGKILL; $left is not the directory it made: it was moved away and something else put there, which is left as it is" "$E"
	ok $? "kill -9 after the scratch directory was moved away and a user's put in its place: that one is not named for removal" ||
	    { echo "rc=$rc pid=$measuring"; ls -A "$t"; cat "$E"; } | diag
	rm -rf "$left" "$WORK/moved-scratch"
fi

# a full stdout is an error, not a silent success
if [ -w /dev/full ]; then
	t=$(fresh_target)
	"$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 >/dev/full 2>"$WORK/err"
	rc=$?
	[ "$rc" = 3 ] && grep -q "writing the results" "$WORK/err" && is_empty "$t"
	ok $? "stdout on a full device: exit 3 with a message" || diag < "$WORK/err"
fi

# SIGINT while the results wait on a full pipe (a reader that does not
# read: the pipe is filled first, to its smallest size): exit 5, the
# interruption said, not "Interrupted system call" and exit 3
# sigint_on_full_pipe ARGS...: such a run; $rc, and $blocked unless no
# process was seen waiting in pipe_write
sigint_on_full_pipe() {
	t=$(fresh_target)
	rm -f "$WORK/pipe" && mkfifo "$WORK/pipe"
	perl -e 'open(my $f, "<", $ARGV[0]) or die; fcntl($f, 1031, 4096); sleep 120' \
	    "$WORK/pipe" &
	reader=$!
	sh -c 'head -c 4096 /dev/zero; exec "$@"' sh "$CLYDE" -d "$t" $AS_USER \
	    -r 0 "$@" >"$WORK/pipe" 2>"$WORK/err" &
	pid=$!
	blocked=
	for i in $(seq 600); do
		for p in $pid $(cat /proc/$pid/task/*/children 2>/dev/null); do
			grep -q pipe_write /proc/$p/wchan 2>/dev/null && blocked=$p && break 2
		done
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	kill -INT $pid
	wait $pid
	rc=$?
	kill $reader 2>/dev/null
	wait $reader 2>/dev/null
}
sigint_on_full_pipe -s 0 -n 1
if [ -n "$blocked" ]; then
	[ "$rc" = 5 ] && is_empty "$t" &&
	    grep -qx 'clyde: interrupted by SIGINT while writing the results: what was written of them is incomplete' "$WORK/err"
	ok $? "SIGINT while the results wait on a full pipe: exit 5, the interruption said" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
else
	skip "no process seen waiting in pipe_write (/proc/PID/wchan hidden here)" 1
fi

# the same while the first of -x 2's JSON records waits (--json=-): no
# run starts after it, as one did and was stopped at once
sigint_on_full_pipe -s 0 -n 1 -x 2 --json=-
if [ -n "$blocked" ]; then
	[ "$rc" = 5 ] && is_empty "$t" &&
	    grep -qx 'clyde: interrupted by SIGINT while writing the results: what was written of them is incomplete' "$WORK/err" &&
	    ! grep -q 'removing what the run made' "$WORK/err" &&
	    [ "$(grep -c 'Create files in sequential order' "$WORK/err")" = 1 ]
	ok $? "SIGINT while -x 2's first JSON record waits on a full pipe: exit 5, said so, no second run begun" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
else
	skip "no process seen waiting in pipe_write (/proc/PID/wchan hidden here)" 1
fi

# --- the 2.00 profile ---------------------------------------------------

# per-char on 1 MiB (-f1024k, the least it takes): 2.00's is a system
# call per byte, so this one run also serves -f1024k's case and the
# record that --json's case below reads.  The file is larger, as a
# per-char size over the file size is cut to it.
run --compat=2.00 -s 2 -n 1 -f1024k --json="$WORK/run-2.00.json"
line=$(csv_line)
[ "$rc" = 0 ] && [ "$(nfields "$line")" = 50 ] && is_empty "$t" &&
    case "$line" in 1.98,2.00a,host,1,*,2M,,8192,5,*) true ;; *) false ;; esac
ok $? "2.00: 50 CSV fields, 1.98 tag, concurrency 1, 8192 seeks, 5 seekers" ||
    { echo "$line"; cat "$WORK/err"; } | diag
[ "$(wc -l < "$WORK/out")" = 11 ] &&
    sed -n 3p "$WORK/out" | grep -q '^Name:Size etc        /sec %CP' &&
    [ "$(grep -c '^Latency  ' "$WORK/out")" = 2 ] &&
    [ "$(grep -c '^Version 2.00a' "$WORK/out")" = 2 ]
ok $? "2.00: table with two Version lines and two Latency rows" || diag < "$WORK/out"
echo "$line" | awk -F, '{ for (i = 39; i <= 50; i++) if ($i !~ /^[0-9]+(us|ms|s)$/) exit 1 }'
ok $? "2.00: twelve latencies in us/ms/s" || echo "$line" | diag
grep -q "Writing a byte at a time...done" "$WORK/err"
ok $? "2.00: 2.00a's progress line for per-char"
[ "$rc" = 0 ] && grep -q '"per_char_size_mib": 1' "$WORK/run-2.00.json"
ok $? "2.00 -f1024k: per-char on 1 MiB"

run --compat=2.00 -s 1 -n 0 -f
line=$(csv_line)
[ "$rc" = 0 ] && [ -z "$(field "$line" 10)$(field "$line" 16)$(field "$line" 39)" ] &&
    [ "$(tail -2 "$WORK/out" | head -1)" = "" ]
ok $? "2.00 -f -n 0: per-char empty, a blank line after the I/O section" || diag < "$WORK/out"
run --compat=2.00 -s 1 -n 0 -f0
[ "$rc" = 0 ] && [ -z "$(field "$(csv_line)" 10)" ]
ok $? "2.00 -f0: per-char skipped"
run --compat=2.00 -s 16 -n 0 -f2 --json="$WORK/f2.json"
[ "$rc" = 0 ] && [ -n "$(field "$(csv_line)" 10)" ] &&
    grep -q '"per_char_size_mib": 2' "$WORK/f2.json"
ok $? "2.00 -f2: per-char on 2 MiB"

# -f from here on where per-char is not what is looked at
run --compat=2.00 -s 1:4k:1000:3 -n 0 -f
line=$(csv_line)
[ "$rc" = 0 ] && case "$line" in *,1M,4k,1000,3,*) true ;; *) false ;; esac &&
    grep -q '^host  1M:4k::1000:3 ' "$WORK/out"
ok $? "2.00 -s 1:4k:1000:3: chunk in its column, label keeps the seekers" ||
    { echo "$line"; cat "$WORK/out"; } | diag

run --compat=2.00 -c 2 -s 1 -n 1 -f
line=$(csv_line)
[ "$rc" = 0 ] && [ "$(field "$line" 4)" = 2 ] && grep -q '^host          1M::2 ' "$WORK/out" &&
    is_empty "$t"
ok $? "2.00 -c 2: concurrency 2 in the CSV and the label, nothing left" ||
    { echo "$line"; cat "$WORK/out" "$WORK/err"; } | diag

run --compat=2.00 -s 0 -n 1 -x 2
[ "$rc" = 0 ] && [ "$(wc -l < "$WORK/out")" = 3 ] &&
    [ "$(nfields "$(head -1 "$WORK/out")")" = 50 ] &&
    head -1 "$WORK/out" | grep -q '^format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,seeks,seek_proc_count,putc,'
ok $? "2.00 -x 2: a 50-name header and two lines" || diag < "$WORK/out"

# -D: O_DIRECT where the filesystem takes it; refused cleanly where not
run --compat=2.00 -D -s 1 -n 0 -f
direct_rc=$rc
if [ "$direct_rc" = 0 ]; then
	is_empty "$t"
	ok $? "-D: a run with O_DIRECT"
	# 256 bytes is below the block size of most filesystems, which then
	# refuse the write; tmpfs (Linux 6.6 and later) takes it: dd says which
	dd if=/dev/zero of="$t/probe" bs=256 count=1 oflag=direct 2>/dev/null &&
	    dd if="$t/probe" of=/dev/null bs=256 count=1 iflag=direct 2>/dev/null
	small_direct=$?
	rm -f "$t/probe" "$WORK/d.json"
	run --compat=2.00 -D -s 1:256 -n 0 -f --json="$WORK/d.json"
	if [ "$small_direct" = 0 ]; then
		[ "$rc" = 0 ] && is_empty "$t" && [ -s "$WORK/d.json" ]
		ok $? "-D with 256-byte chunks where the filesystem takes them: a run" ||
		    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	else
		[ "$rc" = 2 ] && grep -q "O_DIRECT" "$WORK/err" && is_empty "$t" &&
		    [ ! -e "$WORK/d.json" ]
		ok $? "-D with 256-byte chunks: refused, exit 2, nothing left, no JSON" ||
		    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	fi
else
	[ "$rc" = 2 ] && grep -q "O_DIRECT" "$WORK/err" && is_empty "$t"
	ok $? "-D where the filesystem refuses O_DIRECT: exit 2, nothing left"
fi

# -p / -y s: two runs start every phase together.  The first waits for
# the second for a second with its live line on, redrawn twice a second
# (once that wait failed with "Interrupted system call").
if "$CLYDE" $AS_USER -p 2 2>/dev/null; then
	t1=$(fresh_target) t2=$(fresh_target)
	"$CLYDE" -d "$t1" $AS_USER -r 0 -s 0 -n 1 -y s --progress=always \
	    >"$WORK/out1" 2>"$WORK/err1" &
	p1=$!
	sleep 1
	"$CLYDE" -d "$t2" $AS_USER -r 0 -s 0 -n 1 -y s -q >"$WORK/out2" 2>/dev/null
	rc2=$?
	wait $p1
	rc1=$?
	"$CLYDE" $AS_USER -p -1 2>/dev/null
	rm_rc=$?
	[ "$rc1" = 0 ] && [ "$rc2" = 0 ] && [ "$rm_rc" = 0 ] && is_empty "$t1" && is_empty "$t2"
	ok $? "-p 2, two runs with -y s, one with the live line, -p -1 removes the semaphore" ||
	    { echo "rc=$rc1 $rc2 $rm_rc"; cat "$WORK/err1"; } | diag
else
	skip "no SysV semaphores here"
fi

# --json: the record of clyde(1), OUTPUT, every key present; 2.00's is
# the one of the first 2.00 run above (per-char: a system call per byte)
for compat in 1.03 2.00; do
	[ $compat = 2.00 ] ||
	    run --compat=$compat -s 2 -n 1 --json="$WORK/run-$compat.json"
	pl 'my $r = load($ARGV[0]);
my @keys = qw(generation format_version bonnie_version name concurrency
    seed file_size file_size_mib io_chunk_size seeks
    seek_procs files tests clyde_version compat started
    target options phases status error);
my @missing = grep { !exists $r->{$_} } @keys;
check(!@missing, \@missing);
check(same($r->{compat}, $ARGV[1]) && same($r->{status}, "ok") && same($r->{name}, "host"), $r);
# bonnie++ has 12, --dirs 6
check(same([sort keys %{$r->{tests}}], [sort keys %{$r->{phases}}]) &&
    keys %{$r->{tests}} == 18, $r->{tests});
my $p = $r->{phases}{put_block};
check(same($p->{ops}, 2 << 20) && num($p->{elapsed_ns}) > 0, $p);
my $l = $p->{latency_ns};
check(num($l->{max}) >= num($l->{p99}) && $l->{p99} >= num($l->{p50}) && $l->{p50} > 0, $l);
# the filesystem, when a mount holds the target (fs_known)
check($ARGV[2] ? kind($r->{target}{fstype}) eq "string" && length $r->{target}{fstype} :
    !defined $r->{target}{fstype}, $r->{target})' \
	    "$WORK/run-$compat.json" "$compat" "$(fs_known "$WORK" && echo known)"
	ok $? "--json ($compat): every key, the phases' figures, the filesystem"
done
run -s 0 -n 1 --json="$WORK/run-1.03.json"
[ "$rc" = 2 ] && grep -q "never overwrites" "$WORK/err" && is_empty "$t"
ok $? "--json on an existing file: refused, exit 2" || diag < "$WORK/err"
run --compat=2.00 -s 0 -n 1 --json=- -q
[ "$rc" = 0 ] && head -c 1 "$WORK/out" | grep -q '{' && grep -q '^1.98,' "$WORK/err"
ok $? "--json=-: the record alone on stdout, the CSV on stderr" || diag < "$WORK/out"

# --json is opened by the user who started clyde, before -u, as a shell's
# redirection is: from a directory only root may write in, owned by root;
# only the target is touched as the -u user
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	t=$(fresh_target)
	chown nobody "$t"
	mkdir -m 700 "$WORK/rootonly"
	clyde=$(cd "$(dirname "$CLYDE")" && pwd)/${CLYDE##*/}
	(cd "$WORK/rootonly" && exec "$clyde" -d "$t" -u nobody -m host -r 0 \
	    -s 0 -n 1 -q --json=run.json) >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ "$rc" = 0 ] && [ "$(ls -A "$WORK/rootonly")" = run.json ] &&
	    [ "$(stat -c %u "$WORK/rootonly/run.json")" = 0 ] &&
	    grep -q '^  "status": "ok",$' "$WORK/rootonly/run.json" && is_empty "$t"
	ok $? "-u nobody --json=run.json in a directory of root's: written, owned by root, exit 0" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -lA "$WORK/rootonly"; } | diag
	rm -rf "$WORK/rootonly"
else
	skip "not root: no -u to run as another user" 1
fi

# --precise: measured values instead of +++++
run -s 1 -n 1 --precise --json="$WORK/precise.json"
[ "$rc" = 0 ] && ! grep -q '+++' "$WORK/out"
ok $? "--precise: no +++++ anywhere" || diag < "$WORK/out"
# ... and the JSON still says which phases were too short to trust: a
# phase under 0.5 s is "too_fast" with its rate, one over it "ok"
[ "$rc" = 0 ] && pl 'my $d = load($ARGV[0]);
my (@bad, $short);
$short = 0;
for my $name (sort keys %{$d->{phases}}) {
	my $ph = $d->{phases}{$name} // next;
	my $test = $d->{tests}{$name};
	my $want = num($ph->{elapsed_ns}) < 500000000 ? "too_fast" : "ok";
	$short++ if $want eq "too_fast";
	push @bad, [$name, $ph->{elapsed_ns}, $test->{status}, $test->{rate}]
	    if !same($test->{status}, $want) || kind($test->{rate}) ne "number";
}
print "short phases: $short\n", map { dump_json($_) . "\n" } @bad;
exit(@bad || $short == 0 ? 1 : 0)' "$WORK/precise.json" >"$WORK/py.out" 2>&1
ok $? "--precise --json: a phase under 0.5 s keeps status too_fast, with its rate" ||
    cat "$WORK/py.out" "$WORK/precise.json" | diag
# --quick implies it (its sizes here: -s and -n given)
run --quick -s 8 -n 1
[ "$rc" = 0 ] && ! grep -q '+++' "$WORK/out" && grep -q '^Version 1.03e' "$WORK/out"
ok $? "--quick: measured rates, no +++++" || diag < "$WORK/out"

# --progress=always: the redrawn line instead of bonnie++'s lines
run -s 1 -n 1 --progress=always
[ "$rc" = 0 ] && grep -q "$(printf '\r\033\[K')block write" "$WORK/err" &&
    ! grep -q "Writing intelligently" "$WORK/err"
ok $? "--progress=always: the redrawn line" || diag < "$WORK/err"
run -s 1 -n 1 --progress=always -q
[ "$rc" = 0 ] && ! grep -q "block write" "$WORK/err"
ok $? "--progress=always -q: nothing"

# a different user through -u: the scratch directory is made as that user
if [ "$(id -u)" = 0 ]; then
	t=$(fresh_target)
	chown nobody "$t"
	"$CLYDE" -d "$t" -u nobody -r 0 -s 1 -n 1 >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ "$rc" = 0 ] && grep -q "^Using uid:$(id -u nobody), gid:" "$WORK/err" && is_empty "$t"
	ok $? "-u nobody: runs as nobody" || diag < "$WORK/err"
fi

# -x 2 with a relative -d: the small-file phases work in their directory,
# and the second run's -d resolves from where the first started
t=$(fresh_target)
case $CLYDE in /*) c=$CLYDE ;; *) c=$(pwd)/$CLYDE ;; esac
(cd "${t%/*}" && "$c" -d "${t##*/}" $AS_USER -r 0 -s 0 -n 1 -x 2 -q) \
    >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && [ "$(grep -c '^[^,]*,,*1,' "$WORK/out")" = 2 ] && is_empty "$t"
ok $? "-x 2 with a relative -d: both runs, the target left empty" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag

done_testing
