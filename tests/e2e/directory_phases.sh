#!/bin/sh
# --dirs: the directory phases (clyde(1), --dirs and Directories): the
# table's third section, the JSON record and clyde report on it, the CSV
# line as bonnie++ writes it, the tree's shape, and the promises of the
# small-file phases: only clyde's names touched, directory reads read
# again, cleanup after faults and signals, nothing left.
. "$(dirname "$0")/../lib.sh"

csv_line() { tail -1 "$WORK/out"; }
hooked_run() { CLYDE=$CLYDE_HOOKS run "$@"; }
# the directory phases in the record, for the checks (lib.sh's pl)
DIRS=dir_create,dir_stat,dir_del,ran_dir_create,ran_dir_stat,ran_dir_del
dpl() {
	code=$1
	shift
	pl "my @DIRS = split /,/, '$DIRS';
$code" "$@"
}
# a run that lets the shim fail or slow chosen calls, what they hit in
# $WORK/hits (hits_are); a fault on the tree's directories alone names
# them: CLYDE_FAULT_FILE=$HEX10
shim_run() {
	rm -f "$WORK/hits"
	CLYDE_FAULT_HITS=$WORK/hits LD_PRELOAD=$SHIM run "$@"
}
# held_run ARGS...: a run in the background ($pid) whose first stat of a
# directory (dir_stat's first) waits until $WORK/release exists; returns
# once it waits there
held_run() { held_file=$HEX10; held_at fstatat 1 "$@"; held_file=; }

# --- the run of the issue: 2.00, the directory phases alone --------------
run --compat=2.00 -s 0 -n 0 --dirs=4:2:8 --json="$WORK/run.json"
line=$(csv_line)
# bonnie++ 2.00a's line of a run without its phases: the 1.98 tag, the
# version, name, concurrency and seed, every other field of the 50 empty
# (the directory rates never enter it)
[ "$rc" = 0 ] && is_empty "$t" && [ "$(nfields "$line")" = 50 ] &&
    case "$line" in 1.98,2.00a,host,1,*) true ;; *) false ;; esac &&
    [ -z "$(printf '%s\n' "$line" | cut -d, -f6-50 | tr -d ,)" ]
ok $? "2.00 -s 0 -n 0 --dirs=4:2:8: exit 0, the 50-field CSV line with no \
figure, nothing left" || { echo "rc=$rc $line"; cat "$WORK/err"; ls -A "$t"; } | diag

# the table: the directory section alone, its header, a row and Latency
grep -q '^Version 2.00a       --Directories in Tree Order-- -Directories in Random Order-$' "$WORK/out" &&
    grep -q '^host                -Create-- ---Stat-- -Delete-- -Create-- ---Stat-- -Delete--$' "$WORK/out" &&
    grep -q '^dirs:depth:fanout    /sec %CP  /sec %CP  /sec %CP' "$WORK/out" &&
    grep -Eq '^ {14}4:2:8( +[0-9+]+ +[0-9+]+){6}$' "$WORK/out" &&
    [ "$(grep -c '^Latency  ' "$WORK/out")" = 1 ] &&
    ! grep -q 'Sequential' "$WORK/out"
ok $? "the table: a directory section with its rows, Latency in 2.00" ||
    diag < "$WORK/out"

# the record: the settings, and each of the six phases with 4096
# directories, a rate, latencies of 4096 operations and its time
dpl '
my $r = load($ARGV[0]);
check(same($r->{dirs}, {count => 4, depth => 2, fanout => 8, shared => false}), $r->{dirs});
for my $ph (@DIRS) {
	my ($t, $p) = ($r->{tests}{$ph}, $r->{phases}{$ph});
	check((same($t->{status}, "ok") || same($t->{status}, "too_fast")) &&
	    num($t->{rate}) > 0, $ph, $t);
	check(num($t->{cpu}) >= 0 && defined $t->{latency_us}, $ph, $t);
	check(same($p->{ops}, 4096) && num($p->{elapsed_ns}) > 0, $ph, $p);
	my $lat = $p->{latency_ns};
	check(same($lat->{count}, 4096) && num($lat->{p50}) <= num($lat->{p99}) &&
	    $lat->{p99} <= num($lat->{max}), $ph, $lat);
	check(abs($t->{rate} - 4096e9 / $p->{elapsed_ns}) <= 1e-6 * $t->{rate}, $ph, $t, $p);
}
for my $ph (qw(dir_stat dir_del)) {
	check(same($r->{phases}{$ph}{readdir_passes}, 1), $ph, $r->{phases}{$ph});
}
for my $ph (qw(putc seq_create)) {
	check(same($r->{tests}{$ph}{status}, "skipped"), $ph);
}' "$WORK/run.json"
ok $? "the JSON record: dirs, and six phases with 4096 operations, rates, \
latency percentiles and elapsed" || { cat "$WORK/run.json"; echo; } | diag

# clyde report reads them back from the JSON: the same rates, the text
# table's section, Markdown's and the HTML page's
"$CLYDE" report --json "$WORK/run.json" >"$WORK/back.json" 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && dpl '
my ($a, $b) = (load($ARGV[0]), load($ARGV[1]));
$b = $b->[0] if ref $b eq "ARRAY";
check(same($b->{dirs}, $a->{dirs}), $b->{dirs});
for my $ph (@DIRS) {
	check(same($b->{tests}{$ph}{rate}, $a->{tests}{$ph}{rate}), $ph);
	check(same($b->{phases}{$ph}{ops}, 4096), $ph);
}' "$WORK/run.json" "$WORK/back.json"
ok $? "clyde report --json: the six directory phases read back" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
"$CLYDE" report --text "$WORK/run.json" >"$WORK/text" 2>&1 &&
    grep -Eq '^ +4:2:8( +[0-9+]+ +[0-9+]+){6}$' "$WORK/text" &&
    "$CLYDE" report --markdown "$WORK/run.json" >"$WORK/md" 2>&1 &&
    grep -q '^Directories in Tree Order' "$WORK/md" &&
    grep -q '^| host | 4:2:8 |' "$WORK/md" &&
    "$CLYDE" report --html "$WORK/run.json" >"$WORK/html" 2>&1 &&
    grep -q '<h2>Directories</h2>' "$WORK/html" &&
    grep -q 'Random directory delete' "$WORK/html"
ok $? "clyde report --text, --markdown, --html: the directory section" ||
    cat "$WORK/text" "$WORK/md" | diag

# --average of two runs (--precise: a mean of +++++ is +++++): each
# directory rate the mean of the two
run --compat=2.00 -s 0 -n 0 --dirs=1:2:8 --precise --json="$WORK/a.json"
rca=$rc
run --compat=2.00 -s 0 -n 0 --dirs=1:2:8 --precise --json="$WORK/b.json"
[ "$rca" = 0 ] && [ "$rc" = 0 ] &&
    "$CLYDE" report --average --json "$WORK/a.json" "$WORK/b.json" \
    >"$WORK/avg.json" 2>"$WORK/err" && dpl '
my ($a, $b, $m) = map { load($_) } @ARGV;
my @mean = grep { defined $_->{average} } @$m;
check(@mean == 1, $m);
for my $ph (@DIRS) {
	my $want = (num($a->{tests}{$ph}{rate}) + num($b->{tests}{$ph}{rate})) / 2;
	my $got = num($mean[0]{tests}{$ph}{rate});
	check(abs($got - $want) <= 1e-6 * $want + 0.5, $ph, $got, $want);
	check(same($mean[0]{average}{spread}{$ph}{runs}, 2), $ph);
}' "$WORK/a.json" "$WORK/b.json" "$WORK/avg.json"
ok $? "clyde report --average: the directory rates averaged" ||
    { cat "$WORK/err"; head -c 2000 "$WORK/avg.json"; echo; } | diag
"$CLYDE" report --compare=host --text "$WORK/a.json" host2="$WORK/b.json" \
    >"$WORK/cmp" 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && [ "$(grep -c '^  vs host' "$WORK/cmp")" = 1 ] &&
    sed -n '/Directories in Tree Order/,$p' "$WORK/cmp" | grep -q '^  vs host'
ok $? "clyde report --compare: the directory rates against the base's" ||
    { cat "$WORK/err" "$WORK/cmp"; } | diag

# --- with bonnie++'s phases: their table and line as without --dirs ------
run --compat=1.03 -s 0 -n 1 --dirs=1 --json="$WORK/both.json"
line=$(csv_line)
[ "$rc" = 0 ] && is_empty "$t" && [ "$(nfields "$line")" = 27 ] &&
    [ "$(sed -n '/Sequential Create/=' "$WORK/out")" -lt \
      "$(sed -n '/Directories in Tree Order/=' "$WORK/out")" ] &&
    grep -Eq '^ +1:1:10( +[0-9+]+ +[0-9+]+){6}$' "$WORK/out" &&
    ! grep -q '^Latency' "$WORK/out" &&
    dpl 'my $r = load($ARGV[0]); check(same($r->{dirs}{depth}, 1) && same($r->{dirs}{fanout}, 10), $r->{dirs})' "$WORK/both.json"
ok $? "1.03 -n 1 --dirs=1: 27 CSV fields, the section after the files, \
defaults 1:10, no Latency row" || { echo "rc=$rc $line"; cat "$WORK/out" "$WORK/err"; } | diag

# -x 3's summary with the directory phases, whose titles are the longest
# ("Random directory create"): every figure, +++++ or a rate, in the same
# column.  A line is "  TITLE +++++ in N runs" or "  TITLE %10.0f UNIT",
# TITLE padded to one width: "+++++" starts 4 columns after it, the unit 15.
run -s 0 -n 1 --dirs=1 -x 3
sed -n '/^clyde: 3 runs: /,$p' "$WORK/err" | grep '^  [A-Z]' >"$WORK/summary"
[ "$rc" = 0 ] && [ "$(wc -l <"$WORK/summary")" = 12 ] &&
    awk '/ \+\+\+\+\+ in / { w = index($0, "+++++") - 4 }
	!/ \+\+\+\+\+ in / { w = match($0, / (K\/s|\/s) /) + 1 - 15 }
	NR == 1 { first = w } w != first || w < 18 { bad = 1 }
	END { exit bad }' "$WORK/summary"
ok $? "-x 3 with --dirs: the summary's figures in one column" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- bad values: one line naming the option, exit 1, nothing made --------
bad=
for v in 0x 1:0 1:65 1:2:0 1:2:65537 1:2:3:4 ""; do
	run -s 0 -n 0 --dirs="$v"
	if [ "$rc" != 1 ] || ! is_empty "$t" ||
	    [ "$(grep -c "^clyde: --dirs" "$WORK/err")" != 1 ]; then
		bad="$bad [$v] rc=$rc"
		diag < "$WORK/err"
	fi
done
[ -z "$bad" ]
ok $? "--dirs with a bad number, depth, fanout or field: exit 1, the option named" ||
    echo "$bad" | diag
run -s 0 -n 0 --dirs=1 -y s
[ "$rc" = 1 ] && grep -q "^clyde: -y s: .*not with --dirs 1$" "$WORK/err"
ok $? "-y s with --dirs: refused, exit 1" || cat "$WORK/err" | diag
# --dirs-shared: the ranks of clyde-mpi share a tree; plain clyde has none
# (tests/mpi/ranks.sh runs it), and without --dirs there is no tree to share
run -s 0 -n 0 --dirs=1 --dirs-shared
rc1=$rc
err1=$(head -1 "$WORK/err")
run -s 0 -n 1 --dirs-shared
[ "$rc1" = 1 ] && [ "$rc" = 1 ] && is_empty "$t" &&
    case "$err1" in "clyde: --dirs-shared: shares one tree between the ranks of clyde-mpi;"*) true ;; *) false ;; esac &&
    grep -q "^clyde: --dirs-shared: shares the tree of --dirs .*: give --dirs too$" "$WORK/err"
ok $? "--dirs-shared in plain clyde, or without --dirs: refused, exit 1, the option named" ||
    { echo "$err1"; cat "$WORK/err"; } | diag

# each directory that has children is held open: a tree with more than
# the limit allows is refused before the run; as many as it allows run
t=$(fresh_target)
(ulimit -n 64 && exec "$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 0 --dirs=1:2:128 \
    -q) >"$WORK/out" 2>"$WORK/err"
rc=$?
(ulimit -n 160 && exec "$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 0 --dirs=1:2:128 \
    -q) >"$WORK/out2" 2>"$WORK/err2"
rc2=$?
[ "$rc" = 2 ] && [ "$rc2" = 0 ] && is_empty "$t" && [ ! -s "$WORK/out" ] &&
    grep -Eq "^clyde: the run needs [0-9]+ open files at once, and the limit is 64 \(ulimit -n\): raise it, or a --dirs tree with fewer directories that have children \(each is held open\)\$" "$WORK/err"
ok $? "--dirs=1:2:128 with 64 descriptors: exit 2 before the run, --dirs named; \
with 160 it runs" || { echo "rc=$rc rc2=$rc2"; cat "$WORK/err" "$WORK/err2"; } | diag

# --- the tree: its shape while it stands ----------------------------------
# dir_stat's first stat waits (the shim's block) until the tree is seen
if [ -n "${CLYDE_SANITIZED:-}" ]; then
	skip "sanitizer build: the fault shim runs on the normal build" 8
else
	held_run -s 0 -n 0 --dirs=1:3:4
	top=$(echo "$t"/clyde.*/dirs)
	# 1024 directories, 3 levels of fanout 4: 4, 16, then 1004 over the 16
	l1=$(find "$top" -mindepth 1 -maxdepth 1 -type d | wc -l)
	l2=$(find "$top" -mindepth 2 -maxdepth 2 -type d | wc -l)
	l3=$(find "$top" -mindepth 3 -maxdepth 3 -type d | wc -l)
	deeper=$(find "$top" -mindepth 4 | wc -l)
	most=$(find "$top" -mindepth 2 -maxdepth 2 -type d -exec sh -c \
	    'ls "$1" | wc -l' sh {} \; | sort -n | sed -n '1p;$p' | tr '\n' ' ')
	touch "$WORK/release"
	wait $pid
	rc=$?
	[ "$rc" = 0 ] && is_empty "$t" && [ "$l1" = 4 ] && [ "$l2" = 16 ] &&
	    [ "$l3" = 1004 ] && [ "$deeper" = 0 ] && [ "$most" = "62 63 " ] &&
	    [ -z "$(find "$top" -mindepth 1 -maxdepth 1 ! -name '000000000[0-3]' 2>/dev/null)" ]
	ok $? "--dirs=1:3:4: 4, 16 and 1004 directories on three levels, 62 or 63 \
under each parent, named by number" ||
	    { echo "rc=$rc levels $l1 $l2 $l3 deeper $deeper most $most"; cat "$WORK/err"; } | diag

	# a directory read that skips names after each rmdir (as NFS's): read
	# again, every directory removed, the passes in the record and said
	CLYDE_FAULT_CALL=readdir_skip_dirs shim_run -s 0 -n 0 --dirs=1:2:8 \
	    --json="$WORK/skip.json"
	[ "$rc" = 0 ] && is_empty "$t" &&
	    grep -q "^clyde: directory delete: .*/dirs: the directory read skipped [0-9]* names; read again ([0-9]* passes)$" "$WORK/err" &&
	    dpl '
my $r = load($ARGV[0]);
check(num($r->{phases}{dir_del}{readdir_passes}) > 1, $r->{phases}{dir_del});
check(same($r->{phases}{dir_del}{ops}, 1024));
check(same($r->{phases}{dir_stat}{readdir_passes}, 1))' "$WORK/skip.json"
	ok $? "readdir skipping names during dir_del: read again, 1024 removed, passes > 1" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag

	# mkdir failing in the middle of dir_create (its 600th directory of
	# 1024): exit 3, the path and the error named, the tree made so far
	# removed
	CLYDE_FAULT_CALL=mkdir CLYDE_FAULT_FILE=$HEX10 CLYDE_FAULT_NTH=600 \
	    CLYDE_FAULT_ERR=ENOSPC \
	    shim_run -s 0 -n 0 --dirs=1:2:8 --json="$WORK/fail.json"
	[ "$rc" = 3 ] && is_empty "$t" && hits_are 'mkdir [0-9a-f]{10} 600' 1 &&
	    grep -Eq "^clyde: directory create: $SCRATCH/dirs/[0-9a-f]{10}/[0-9a-f]{10}: mkdir: No space left on device$" "$WORK/err" &&
	    dpl '
my $r = load($ARGV[0]);
check(same($r->{status}, "failed"), $r->{status});
check(same($r->{tests}{dir_create}{status}, "skipped"))' "$WORK/fail.json"
	ok $? "mkdir failing in dir_create: exit 3, the directory named, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t" | head; } | diag

	# rmdir failing in each delete phase: exit 3, cleanup removes the
	# rest (the 5th directory of dir_del's 1024, of ran_dir_del's)
	bad=
	for n in 5 $((1024 + 5)); do
		case $n in 5) phase="directory delete" ;; *) phase="random directory delete" ;; esac
		CLYDE_FAULT_CALL=rmdir CLYDE_FAULT_FILE=$HEX10 CLYDE_FAULT_NTH=$n \
		    CLYDE_FAULT_ERR=EIO shim_run -s 0 -n 0 --dirs=1:2:8
		if [ "$rc" != 3 ] || ! is_empty "$t" ||
		    ! hits_are "rmdir [0-9a-f]{10} $n" 1 ||
		    ! grep -Eq "^clyde: $phase: $SCRATCH/dirs/.*: rmdir: Input/output error$" "$WORK/err"; then
			bad="$bad rmdir#$n:rc=$rc"
			{ cat "$WORK/err" "$WORK/hits"; ls -A "$t"; } | diag
		fi
	done
	[ -z "$bad" ]
	ok $? "rmdir failing in dir_del and in ran_dir_del: exit 3, nothing left" ||
	    echo "$bad" | diag

	# a name clyde did not make, put in the tree while dir_stat waits: left
	# in place and named, the phase failed, everything of clyde's removed;
	# cleanup names it too, as what keeps its directory
	held_run -s 0 -n 0 --dirs=1:2:8
	set -- "$t"/clyde.*/dirs/0000000003
	echo mine > "$1/precious"
	touch "$WORK/release"
	wait $pid
	rc=$?
	[ "$rc" = 3 ] && [ "$(cat "$1/precious" 2>/dev/null)" = mine ] &&
	    grep -Eq "^clyde: directory stat: $SCRATCH/dirs/0000000003/precious: not made by clyde; left in place$" "$WORK/err" &&
	    grep -Eq "^clyde: cannot remove $SCRATCH/dirs/0000000003: Directory not empty; it holds precious, not made by clyde \(and 1 more\)$" "$WORK/err" &&
	    [ -z "$(find "$t"/clyde.*/dirs -mindepth 1 ! -name 0000000003 ! -name precious)" ]
	ok $? "a name put in the tree: left in place and named, exit 3, the \
rest of the tree removed" || { echo "rc=$rc"; cat "$WORK/err"; find "$t" | head; } | diag
	rm -rf "${t:?}"/clyde.*

	# dirs/0000000000 moved aside and a link to a decoy put in its place
	# while dir_create makes its children (held at the mkdir of the third,
	# the 12th: dirs/ is the first): no directory made through the link,
	# the next phase names it, and it is left in place
	held_at mkdir 12 -s 0 -n 0 --dirs=1:2:8
	link_for dirs/0000000000
	released
	[ "$rc" = 3 ] && decoy_untouched && [ -L "$scratch/dirs/0000000000" ] &&
	    grep -Eq "^clyde: directory stat: $SCRATCH/dirs/0000000000: a symbolic link, not the directory clyde made; left in place\$" "$WORK/err"
	ok $? "a link put in place of a parent during dir_create: nothing made \
through it, named by the next phase, left in place" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$WORK/decoy" | wc -l; } | diag
	rm -rf "${t:?}"/clyde.* "$WORK/decoy"

	# --stall: a stat that hangs is named by the watcher
	t=$(fresh_target)
	rm -f "$WORK/release"
	CLYDE_FAULT_CALL=fstatat CLYDE_FAULT_FILE=$HEX10 CLYDE_FAULT_NTH=100 \
	    CLYDE_FAULT_ERR=block \
	    CLYDE_FAULT_RELEASE="$WORK/release" LD_PRELOAD=$SHIM "$CLYDE" \
	    -d "$t" $AS_USER -r 0 -s 0 -n 0 --dirs=1 --stall=1 -q \
	    --json="$WORK/stall.json" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	i=0
	while ! grep -q "no progress" "$WORK/err" && [ $i -lt 600 ] &&
	    kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	touch "$WORK/release"
	wait $pid
	rc=$?
	[ "$rc" = 0 ] && is_empty "$t" &&
	    grep -q "directory stat.*no progress" "$WORK/err" &&
	    dpl '
my $r = load($ARGV[0]);
check(num($r->{phases}{dir_stat}{stall}{ns}) >= 1e9, $r->{phases}{dir_stat})' "$WORK/stall.json"
	ok $? "--stall: a hung stat in dir_stat said, and in the record" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
fi

# --- a stop signal in each of the six phases: exit 5, nothing left --------
# stopped_in PHASE: a run that a SIGINT stops as PHASE starts ends clean
stopped_in() {
	CLYDE_TEST_SIGNAL_PHASE=$1 hooked_run --compat=2.00 -s 0 -n 0 --dirs=1:2:8
	[ "$rc" = 5 ] && is_empty "$t" && [ ! -s "$WORK/out" ] &&
	    grep -q "^clyde: interrupted" "$WORK/err"
}
failed=
for ph in $(echo "$DIRS" | tr , ' '); do
	stopped_in "$ph" || failed="$failed $ph(rc=$rc): $(ls -A "$t") $(cat "$WORK/err")"
done
[ -z "$failed" ]
ok $? "SIGINT in each of the six directory phases: exit 5, no output, empty target" ||
    echo "failed:$failed" | diag

# -c 2: each copy its own tree, the rates summed; the row's label says
# how many trees, as the size label of the file phases does (64M::2)
run --compat=2.00 -c 2 -s 0 -n 0 --dirs=1:2:8 --json="$WORK/c2.json"
[ "$rc" = 0 ] && is_empty "$t" &&
    grep -Eq '^ +1:2:8:2 ' "$WORK/out" && dpl '
my $r = load($ARGV[0]);
for my $ph (@DIRS) {
	check(same($r->{phases}{$ph}{ops}, 2048), $ph, $r->{phases}{$ph});
}' "$WORK/c2.json"
ok $? "-c 2 --dirs=1:2:8: two trees, 2048 directories in each phase, the label 1:2:8:2, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; } | diag

done_testing
