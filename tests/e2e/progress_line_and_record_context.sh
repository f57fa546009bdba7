#!/bin/sh
# What a new user meets first: the live progress line (its fields, cut
# to the terminal's width, in a narrow tmux pane) and the context that
# every JSON record of a run carries (schema_version, argv, host).  No
# timing is asserted: each wait is for an event, with a generous bound.
. "$(dirname "$0")/../lib.sh"
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
	skip "needs tmux (Debian package tmux)" 2
else
	sock="clyde-test-$$"
	# the pane's command through sh, whatever the user's login shell:
	# nobody's is nologin, which would end the session at once
	tm() { SHELL=/bin/sh tmux -L "$sock" "$@"; }
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
	# every line of the pane but those before the run is the live line;
	# "  phase 1/6" is dropped only when it does not fit: on a slow
	# machine "0%  94 KiB/s" leaves it room
	len=$(grep 'per-char write' "$WORK/pane" | awk '{ print length($0) }' | head -1)
	if grep -q 'phase 1/6' "$WORK/pane"; then
		room=0
	else
		room=11
	fi
	[ $n = 3 ] &&
	    [ "$(grep -v '^Using uid\|^clyde: running as root' "$WORK/pane" |
	    grep -c .)" = 1 ] &&
	    [ "$(grep -c 'per-char write' "$WORK/pane")" = 1 ] &&
	    [ "$(awk 'length($0) > 40' "$WORK/pane" | wc -l)" = 0 ] &&
	    [ "${len:-99}" -le 39 ] &&
	    { [ "$room" = 0 ] || [ $((len + room)) -gt 39 ]; }
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

# --- the context of a JSON record -----------------------------------------
# py CODE ARGS...: a Python check; an assertion fails it
py() {
	code=$1
	shift
	python3 -c "import json, os, sys
def load(p):
    with open(p) as f:
        return json.load(f)
$code" "$@"
}
needs_all python3 python3 4


# the host and the block device as the system tells them: what a record
# of a run in TARGET must say
expect_host='
import re, stat
def expected_device(target):
    dev = os.stat(target).st_dev
    link = "/sys/dev/block/%d:%d" % (os.major(dev), os.minor(dev))
    if not os.path.exists(link):
        return None
    path = os.path.realpath(link)
    disk = os.path.dirname(path) if os.path.exists(path + "/partition") else path
    with open(disk + "/queue/scheduler") as f:
        m = re.search(r"\[(.*?)\]", f.read())
    with open(path + "/ro") as f:
        ro = f.read().strip() == "1"
    return {"name": os.path.basename(path), "disk": os.path.basename(disk),
            "scheduler": m.group(1) if m else None, "read_only": ro}
def check_host(r, target):
    h = r["host"]
    u = os.uname()
    assert h["name"] == u.nodename and h["kernel"] == u.release, h
    cpu = None
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    assert h["cpu"] == cpu, h
    assert isinstance(h["ram_mib"], int) and h["ram_mib"] > 0, h
    want = expected_device(target)
    if r["target"]["fstype"] == "btrfs":
        return
    if want is None:
        assert h["device"] is None, h
    else:
        d = h["device"]
        for k, v in want.items():
            assert d[k] == v, (k, d, want)
        assert set(d) == {"name", "disk", "model", "scheduler", "read_only"}, d
'
run -s 16 -n 1 -f --json="$WORK/run.json"
rc1=$rc
t1=$t
run -s 8 -f -n 0 -x 2 --chunks=4k,64k --json="$WORK/runs.json"
[ "$rc1" = 0 ] && [ "$rc" = 0 ] && py "$expect_host"'
r = load(sys.argv[1])
assert list(r)[0] == "schema_version" and r["schema_version"] == 1, list(r)[:2]
assert type(r["schema_version"]) is int
assert r["argv"] == [sys.argv[3], "-d", sys.argv[2]] + sys.argv[4].split() + \
    ["-m", "host", "-r", "0", "-s", "16", "-n", "1", "-f",
     "--json=" + sys.argv[1]], r["argv"]
check_host(r, sys.argv[2])
rs = load(sys.argv[5])
assert len(rs) == 4
for x in rs:
    assert x["schema_version"] == 1
    assert "--chunks=4k,64k" in x["argv"] and x["host"] == rs[0]["host"]
' "$WORK/run.json" "$t1" "$CLYDE" "$AS_USER" "$WORK/runs.json" 2>"$WORK/py"
ok $? "--json: schema_version 1 first, argv as given, host (name, kernel, cpu, ram_mib, device as /sys tells it); in every record of -x and --chunks" ||
    diag <"$WORK/py"

# on a block device, when /var/tmp is on one: its name, disk, scheduler
if d=$(mktemp -d /var/tmp/clyde-test.XXXXXX 2>/dev/null); then
	chmod 755 "$d"
	"$CLYDE" -d "$d" $AS_USER -r 0 -q -s 0 -n 1 --json="$WORK/dev.json" \
	    >/dev/null 2>"$WORK/err"
	rc=$?
	py "$expect_host"'
r = load(sys.argv[1])
check_host(r, sys.argv[2])
print("device" if r["host"]["device"] else "none")
' "$WORK/dev.json" "$d" >"$WORK/py" 2>&1
	pyrc=$?
	rm -rf "$d"
	if [ "$(cat "$WORK/py")" = device ]; then
		[ $rc = 0 ] && [ $pyrc = 0 ]
		ok $? "--json on a block device: host.device names it, its disk, scheduler and read-only flag" ||
		    diag <"$WORK/py"
	elif [ $pyrc = 0 ] && [ $rc = 0 ]; then
		skip "/var/tmp is on no block device" 1
	else
		ok 1 "--json in /var/tmp: host.device as /sys tells it" ||
		    diag <"$WORK/py"
	fi
else
	skip "/var/tmp cannot be written" 1
fi

# the reader: a record written before the keys existed reads, and says
# null for them; a new one keeps them through clyde report --json
py '
r = load(sys.argv[1])
for k in ("schema_version", "argv", "host"):
    del r[k]
with open(sys.argv[2], "w") as f:
    json.dump(r, f)
' "$WORK/run.json" "$WORK/old.json"
"$CLYDE" report --json "$WORK/old.json" >"$WORK/old.out" 2>"$WORK/err" &&
    "$CLYDE" report --json "$WORK/run.json" >"$WORK/new.out" 2>>"$WORK/err" &&
    "$CLYDE" report "$WORK/old.json" >"$WORK/old.txt" 2>>"$WORK/err" &&
    "$CLYDE" report "$WORK/run.json" >"$WORK/new.txt" 2>>"$WORK/err" &&
    cmp -s "$WORK/old.txt" "$WORK/new.txt" && py '
old, new, run = load(sys.argv[1])[0], load(sys.argv[2])[0], load(sys.argv[3])
assert old["schema_version"] == 1 and old["argv"] is None and old["host"] is None
assert new["argv"] == run["argv"] and new["host"] == run["host"], new
' "$WORK/old.out" "$WORK/new.out" "$WORK/run.json" 2>>"$WORK/err"
ok $? "clyde report reads records without schema_version, argv, host (null), and keeps them from a new one" ||
    diag <"$WORK/err"

# a CSV line has no command line and no host
printf 'box,1G,100,10,200,20,300,30,400,40,500,50,60.0,5,16,1,1,2,2,3,3,4,4,5,5,6,6\n' |
    "$CLYDE" report --json - >"$WORK/csv.json" 2>"$WORK/err" && py '
r = load(sys.argv[1])[0]
assert r["schema_version"] == 1 and r["argv"] is None and r["host"] is None, r
' "$WORK/csv.json" 2>>"$WORK/err"
ok $? "clyde report --json of a CSV line: schema_version 1, argv and host null" ||
    diag <"$WORK/err"

done_testing
