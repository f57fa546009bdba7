#!/bin/sh
# What a new user meets first: the live progress line (its fields, cut
# to the terminal's width, in a narrow tmux pane) and the context that
# every JSON record of a run carries (schema_version, argv, host).  No
# timing is asserted: each wait is for an event, with a generous bound.
. "$(dirname "$0")/lib.sh"
export LC_ALL=C

# the lines of a live line's redraws, one a line
redraws() { tr '\r' '\n' <"$1" | sed 's/^\x1b\[K//'; }

# wait_for FILE ERE [TENTHS]: until a redraw in FILE matches (default
# bound 120 s); true when one did
wait_for() {
	i=0
	until redraws "$1" | grep -Eq "$2"; do
		[ $i -ge "${3:-1200}" ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# --- the live line, into a file (--progress=always) ---------------------
# two runs of every phase: the first redraw of each phase has its figure
# (0%), run 1 has no estimate of the whole, run 2 has one from run 1
run -s 16 -n 1 -x 2 --progress=always
redraws "$WORK/err" >"$WORK/lines"
[ "$rc" = 0 ] &&
    grep -Eq '^per-char write  0%  phase 1/12  run 1/2  0:00$' "$WORK/lines" &&
    grep -Eq '^random delete  0%  phase 12/12  run 1/2  ' "$WORK/lines" &&
    grep -Eq '^per-char write  0%  phase 1/12  run 2/2  0:00  [0-9]+:[0-9]{2} left  ETA [0-9]+:[0-9]{2}$' "$WORK/lines" &&
    [ -z "$(grep 'run 1/2' "$WORK/lines" | grep ETA |
    grep -v '^random delete')" ] && ! grep -q 'Writing intelligently' "$WORK/err"
ok $? "--progress=always -x 2: phase k/12, run k/2, 0% at each start, ETA once run 1 has been timed" ||
    diag <"$WORK/lines"
[ "$(grep -c '^block write  0%  phase 2/12  run [12]/2' "$WORK/lines")" = 2 ] &&
    [ "$(grep -c '^random seeks  0%  phase 6/12  run [12]/2' "$WORK/lines")" = 2 ]
ok $? "--progress=always: every phase of every run starts a redraw" ||
    diag <"$WORK/lines"

# a --chunks sweep: point k/P with its chunk, the phases of each point
run -s 8::500 -f -n 0 --chunks=4k,64k --progress=always
redraws "$WORK/err" >"$WORK/lines"
[ "$rc" = 0 ] &&
    grep -q '^block write  0%  phase 1/4  point 1/2 (4k)  0:00' "$WORK/lines" &&
    grep -q '^random seeks  0%  phase 4/4  point 2/2 (64k)  ' "$WORK/lines" &&
    ! grep -q 'run ' "$WORK/lines"
ok $? "--chunks: point k/2 (chunk), phase k/4 at each point, no run without -x" ||
    diag <"$WORK/lines"

# a slow phase (the 2.00 profile's per-char write, one write() per
# byte): its rate so far and its time left, once the ticks come; then
# SIGINT, which clears the live line before its message
t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -r 0 --compat=2.00 -s 64 --fast=64 -n 0 \
    --progress=always >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_for "$WORK/err" '^per-char write  [0-9]+%  [0-9.]+ (KiB|MiB|GiB)/s  phase 1/6  [0-9:]+  [0-9:]+ left$'
found=$?
kill -INT $pid
wait $pid
rc=$?
[ $found = 0 ] && [ $rc = 5 ] && is_empty "$t" &&
    grep -q "$(printf '\r\033\\[K')clyde: interrupted by SIGINT" "$WORK/err"
ok $? "a slow phase: its rate so far and time left; SIGINT clears the line (exit 5)" ||
    redraws "$WORK/err" | tail -5 | diag

# the seeks: the seekers count where the line reads them
t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -r 0 -s 16:4k:2000000 -f -n 0 --progress=always \
    >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_for "$WORK/err" '^random seeks  [0-9]+%  [0-9]+ seeks/s  phase 4/4  '
found=$?
kill -INT $pid
wait $pid
[ $found = 0 ] && is_empty "$t"
ok $? "random seeks: the seeks done, as a percentage and a rate" ||
    redraws "$WORK/err" | tail -5 | diag

# --- the live line in a narrow terminal (tmux) ---------------------------
if ! command -v tmux >/dev/null; then
	skip_all "tmux is not installed" 2
else
	sock="clyde-test-$$"
	tm() { tmux -L "$sock" "$@"; }
	# the pane's text (-J: a wrapped line joined, so it shows its
	# width; -J keeps the blanks after a line, dropped here)
	pane() { tm capture-pane -p -J -t nc | sed "s/ *$//"; }
	t=$(fresh_target)
	case $CLYDE in
	/*) abs=$CLYDE ;;
	*) abs=$(pwd)/$CLYDE ;;
	esac
	# the process started writes its pid, then is clyde, its stderr the pane
	cat >"$WORK/run.sh" <<EOF
#!/bin/sh
echo \$\$ >"$WORK/pid"
exec "$abs" -d "$t" $AS_USER -r 0 --compat=2.00 -s 64 --fast=64 -n 0 \\
    >"$WORK/out"
EOF
	chmod +x "$WORK/run.sh"
	tm new-session -d -x 40 -y 10 -s nc "$WORK/run.sh; sleep 600"
	# three redraws with a rate, each a different line: no leftovers of
	# one wrapped line may stay above the next
	i=0
	seen=""
	n=0
	while [ $i -lt 1200 ] && [ $n -lt 3 ]; do
		line=$(pane | grep -E 'per-char write  [0-9]+%  [0-9.]+ [KMG]iB/s' |
		    tail -1)
		if [ -n "$line" ] && [ "$line" != "$seen" ]; then
			seen=$line
			n=$((n + 1))
		fi
		sleep 0.1
		i=$((i + 1))
	done
	pane >"$WORK/pane"
	# every line of the pane but those before the run is the live line
	[ $n = 3 ] &&
	    [ "$(grep -v '^Using uid\|^clyde: running as root' "$WORK/pane" |
	    grep -c .)" = 1 ] &&
	    [ "$(grep -c 'per-char write' "$WORK/pane")" = 1 ] &&
	    [ "$(awk 'length($0) > 40' "$WORK/pane" | wc -l)" = 0 ] &&
	    [ "$(grep 'per-char write' "$WORK/pane" | awk '{ print length($0) }')" -le 39 ] &&
	    ! grep -q 'phase 1/6' "$WORK/pane"
	ok $? "a 40-column pane: one progress line of at most 39 columns (name, percentage, rate), no wrapped leftovers" ||
	    diag <"$WORK/pane"
	# wider: the width is read again after SIGWINCH, the fields return
	tm resize-window -t nc -x 100 -y 10
	i=0
	until pane | grep -Eq 'per-char write  [0-9]+%  [0-9.]+ [KMG]iB/s  phase 1/6  ' ||
	    [ $i -ge 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	pane >"$WORK/pane"
	grep -Eq 'per-char write  [0-9]+%  [0-9.]+ [KMG]iB/s  phase 1/6  ' "$WORK/pane" &&
	    [ "$(awk 'length($0) > 99' "$WORK/pane" | wc -l)" = 0 ]
	ok $? "the pane widened to 100 columns (SIGWINCH): the line has its phase k/6 again" ||
	    diag <"$WORK/pane"
	kill -INT "$(cat "$WORK/pid")"
	i=0
	while [ $i -lt 600 ] && ! is_empty "$t"; do
		sleep 0.1
		i=$((i + 1))
	done
	tm kill-server 2>/dev/null
fi

done_testing
