#!/bin/sh
# The manual against the program: man/clyde.1 is read at test time
# (tests/tools/manpage.py) and set against what clyde prints and does, so that
# a JSON key, CSV field, option or exit status added on one side only
# fails here.  Also --help, the README's install paths, and the entries
# of BUGS, each with a test that shows it still happens.
. "$(dirname "$0")/../lib.sh"
export LC_ALL=C
PAGE=man/clyde.1

# the cases that read the page need python3 (needs)
page() { py3 tests/tools/manpage.py "$@"; }
# the CSV line of a real bonnie++ 2.00a run, from tests/fixtures/golden
golden_csv() { grep '^1\.98,' "tests/fixtures/golden/$1" | tail -1; }

# The exit statuses of EXIT STATUS and the test that makes each one:
# STATUS FILE NAME, the name as the file gives it to ok.
exit_tests="
0 tests/e2e/classic_profile.sh tiny run: exit 0, 27 CSV fields, empty target
1 tests/e2e/bad_options.sh an unknown option: clyde: and the option named, the hint, exit 1
2 tests/e2e/classic_profile.sh --json on an existing file: refused, exit 2
3 tests/faults/signals_and_io_errors.sh closed stdout pipe: exit 3, a message, nothing left
5 tests/e2e/classic_profile.sh SIGINT mid-run: exit 5 and an empty target
"
# Each entry of BUGS and the test that shows it still happens:
# WORDS OF THE ENTRY|FILE|NAME.
bugs_tests="
The largest Fl s is 1000g|tests/project/docs.sh|BUGS: -s above 1000g is refused in both profiles, exit 1
"

# --- JSON: every key of a run's record and of clyde report's, and no other
run --compat=1.03 -s 16 -n 1 --json="$WORK/run103.json"
rc103=$rc
run --compat=2.00 -s 16 -f -n 1 --dirs=1:2:4 --json="$WORK/run200.json"
rc200=$rc
# a sweep of --sizes by --chunks: an array of records with the sweep key
# filled, each latency record with the shares of --latency-over too
run -s ::500 -f -n 0 --sizes=8,4 --chunks=4k,64k --latency-over=50ms \
    --json="$WORK/runsweep.json"
rcsw=$rc
# --fast asks for 2 MiB (with '=' and a suffix, as OPTIONS says), the file
# is 1: stopped as the per-char write starts (its calls per byte are slow),
# the record has the size it was to use
t=$(fresh_target)
CLYDE_TEST_SIGNAL_PHASE=putc "$CLYDE_HOOKS" -d "$t" $AS_USER -r 0 \
    --compat=2.00 -s 1 --fast=2m -n 0 -q --json="$WORK/stopped.json" \
    >/dev/null 2>"$WORK/err"
rcs=$?
# a phase that went --stall seconds without progress: the fault shim
# holds an open (of the sequential create's 10th file) until the stall
# line is out, for the record's 'stall'; the measuring process is stopped
# and continued meanwhile, for a test whose status is "stopped" (the
# sanitizer build has no shim: those are then left unchecked)
t=$(fresh_target)
rcst=0
if [ -e "$SHIM" ]; then
	CLYDE_FAULT_CALL=openat CLYDE_FAULT_FILE=$SEQ_FILES CLYDE_FAULT_NTH=10 \
	    CLYDE_FAULT_ERR=block CLYDE_FAULT_RELEASE="$WORK/release" \
	    LD_PRELOAD="$SHIM" "$CLYDE" \
	    -d "$t" $AS_USER -r 0 -q -s 0 -n 1 --stall=1 \
	    --json="$WORK/stalled.json" >/dev/null 2>"$WORK/stall.err" &
	pid=$!
	i=0
	# a minute at most, on a machine busy with other work
	until grep -qs "no progress" "$WORK/stall.err" || [ $i -ge 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	meas=$(children_of $pid)
	kill -STOP $meas
	until_true 600 stopped "$meas"
	kill -CONT $meas
	touch "$WORK/release"
	wait $pid
	rcst=$?
fi
# a run on a block device, for the keys of host's device (a target on
# tmpfs has none): in /var/tmp when its filesystem has one
blk=""
if d=$(mktemp -d /var/tmp/clyde-test.XXXXXX 2>/dev/null); then
	chmod 755 "$d"
	"$CLYDE" -d "$d" $AS_USER -r 0 -q -s 0 -n 1 \
	    --json="$WORK/device.json" >/dev/null 2>&1 &&
	    pl 'my $d = load($ARGV[0])->{host}{device}; check(ref $d eq "HASH" && %$d)' \
	    "$WORK/device.json" 2>/dev/null && blk="$WORK/device.json"
	rm -rf "$d"
fi
for f in v2.00a_link.txt v2.00a_symlink.txt v2.00a_big.txt v2.00a_big.txt; do
	golden_csv "$f"
done >"$WORK/results.csv"
"$CLYDE" report --json --average --compare=bighost --best "$WORK/results.csv" \
    >"$WORK/report.json" 2>"$WORK/err"
rcr=$?
# a chunk sweep of bonnie++ 2.00a's tables (tests/fixtures/sweep), for the
# keys of 'sweep' in clyde report's records
grep -v '^1\.98,' tests/fixtures/sweep/box.txt |
    "$CLYDE" report --json - >"$WORK/sweep.json" 2>>"$WORK/err"
rcw=$?
[ "$rc103" = 0 ] && [ "$rc200" = 0 ] && [ "$rcs" = 5 ] && [ "$rcr" = 0 ] &&
    [ "$rcw" = 0 ] && [ "$rcsw" = 0 ] && [ "$rcst" = 0 ]
ok $? "records: two runs, a run's sweep, a stopped one, a stalled one, clyde report --json --average --compare, a sweep" ||
    diag < "$WORK/err"
# without a block device under /var/tmp the keys of host's device are
# in no record, and left unchecked
if [ -e "$SHIM" ]; then
	page json-keys "$PAGE" "$WORK/run103.json" "$WORK/run200.json" \
	    "$WORK/runsweep.json" "$WORK/stopped.json" "$WORK/stalled.json" \
	    "$WORK/report.json" "$WORK/sweep.json" $blk >"$WORK/diff.all"
else
	page json-keys "$PAGE" "$WORK/run103.json" "$WORK/run200.json" \
	    "$WORK/runsweep.json" "$WORK/stopped.json" "$WORK/report.json" \
	    "$WORK/sweep.json" $blk | grep -Ev ' in no record: (ns|call)$' \
	    >"$WORK/diff.all"
fi
if [ -n "$blk" ]; then
	cp "$WORK/diff.all" "$WORK/diff"
else
	grep -Ev ' in no record: (disk|model|scheduler|read_only)$' \
	    "$WORK/diff.all" >"$WORK/diff"
fi
[ ! -s "$WORK/diff" ]
ok $? "The JSON record names every key of the records, and no key they lack" ||
    diag < "$WORK/diff"

# the statuses of a test: those of runs, a 2.00a table's unknown file
# rates, a -f -n 0 table's file tests that it does not show, the phase
# that a stop cut
T=tests/fixtures/tables
grep -v -e , -e '^###' -e '^rc=' "$T/v2.00a_big.txt" |
    "$CLYDE" report --json - >"$WORK/table200.json" 2>>"$WORK/err"
"$CLYDE" report --json tests/fixtures/corpus/m013_1.03_meghan_nfs_f_n0_lkml.txt \
    >"$WORK/table103.json" 2>>"$WORK/err"
# the stalled record (stopped too) where there is the shim, else its
# status is left unchecked
if [ -e "$SHIM" ]; then
	page test-statuses "$PAGE" "$WORK/run103.json" "$WORK/run200.json" \
	    "$WORK/table200.json" "$WORK/table103.json" "$WORK/stalled.json" \
	    "$WORK/stopped.json" >"$WORK/diff"
else
	page test-statuses "$PAGE" "$WORK/run103.json" "$WORK/run200.json" \
	    "$WORK/table200.json" "$WORK/table103.json" "$WORK/stopped.json" |
	    grep -v ' in no record: stopped$' >"$WORK/diff"
fi
[ ! -s "$WORK/diff" ]
ok $? "The JSON record names every status of a test that records have, and no other" ||
    diag < "$WORK/diff"

py '
for path in sys.argv[1:3]:
    r = load(path)
    fast = 0
    for i, (ph, t) in enumerate(r["tests"].items()):
        p = r["phases"][ph]
        if t["status"] == "skipped":
            continue
        fast += t["status"] == "too_fast"
        ops = p["ops"] / 1024 if i < 5 else p["ops"]
        want = ops / (p["elapsed_ns"] / 1e9)
        assert abs(t["rate"] - want) <= want * 1e-9, (ph, t, p)
        assert t["cpu"] == int(p["cpu_ns"] / p["elapsed_ns"] * 100), (ph, t)
    assert fast > 0, "no too_fast phase to look at"
for r in load(sys.argv[3]):
    for t in r["tests"].values():
        assert t["status"] != "too_fast" or t["rate"] is None, t
' "$WORK/run103.json" "$WORK/run200.json" "$WORK/report.json"
ok $? "JSON tests: the rate is phases.ops per second, too_fast ones too; null from CSV"

pl 'my ($r103, $r200, $stopped) = map { load($_) } @ARGV;
check(same($r103->{options}{per_char_size_mib}, 16), $r103->{options});
check(same($r103->{phases}{putc}{ops}, 16 << 20), $r103->{phases}{putc});
check(!defined $r200->{options}{per_char_size_mib}, $r200->{options});
check(same($stopped->{status}, "interrupted"), $stopped->{status});
check(same($stopped->{options}{per_char_size_mib}, 1), $stopped->{options})' \
    "$WORK/run103.json" "$WORK/run200.json" "$WORK/stopped.json"
ok $? "JSON per_char_size_mib: the size used (-s 1 --fast=2m: 1; 1.03: the file; -f: null)"

pl 'my ($r103, $rep) = (load($ARGV[0]), load($ARGV[1]));
check(same($r103->{io_chunk_size}, 8192), $r103);
check(same($r103->{files}, {count => 1, max_size => 0, min_size => 0,
    dirs => 1, chunk_size => 8192, kind => "files"}), $r103);
my @link = map { $_->{files} }
    grep { same($_->{name}, "linkhost") || same($_->{name}, "symhost") } @$rep;
check(same([map { $_->{kind} } @link], ["link", "symlink"]), \@link);
check(!defined $_->{max_size} && !defined $_->{min_size}, $_) for @link' \
    "$WORK/run103.json" "$WORK/report.json"
ok $? "JSON files: the defaults of -n filled in as io_chunk_size's; links have no sizes"

"$CLYDE" report --csv --compat=2.00 --average "$WORK/results.csv" >"$WORK/csv"
"$CLYDE" report --average "$WORK/results.csv" >"$WORK/text"
pl 'my @means = grep { defined $_->{average} } @{load($ARGV[0])};
check(same([map { $_->{name} } @means], ["mean:bighost"]), \@means);
check(same($means[0]{average}{runs}, 2), $means[0]{average})' \
    "$WORK/report.json" && tail -1 "$WORK/csv" | grep -q '^1\.98,2\.00a,mean:bighost,' &&
    grep -q '^mean:bighost ' "$WORK/text"
ok $? "report --average: the mean is mean:NAME in the table, CSV and JSON"

# --- CSV: the field list and header line of each profile, the empty fields
for compat in 1.03 2.00; do
	line=$(golden_csv v2.00a_big.txt)
	header=$(printf '%s\n%s\n' "$line" "$line" |
	    "$CLYDE" report --csv --compat=$compat | head -1)
	page csv-fields "$PAGE" $compat "$header" >"$WORK/diff"
	[ -n "$header" ] && [ ! -s "$WORK/diff" ]
	ok $? "$compat CSV line: the page's field list and header line are the writer's" ||
	    diag < "$WORK/diff"
done
# the empty fields of -s 0 and -n 0 that the page gives, in clyde's lines
# and, for 2.00, in real bonnie++ 2.00a lines.  2.00's -n 0 run skips the
# slow per-char phases (-f): the field after the range, putc_latency, is
# then empty too, and bonnie++'s line shows it filled.
for compat in 1.03 2.00; do
	page csv-empty "$PAGE" $compat >"$WORK/empty"
	: >"$WORK/diff"
	while read -r opt first last; do
		case $opt in
		s0) run --compat=$compat -s 0 -n 1 -q; real=v2.00a_fileonly.txt ;;
		n0) run --compat=$compat -s 16 -n 0 -f -q; real=v2.00a_ioonly_c2.txt ;;
		esac
		[ "$rc" = 0 ] && [ -n "$last" ] || echo "$opt: rc=$rc, page: $first $last"
		line=$(tail -1 "$WORK/out")
		if [ $compat = 2.00 ]; then
			[ $opt = n0 ] && line=$(printf '%s\n' "$line" |
			    awk -F, -v OFS=, -v f="$((last + 1))" '{ $f = "x" } 1')
			page empty-check "$first" "$last" "$(golden_csv $real)"
		fi
		page empty-check "$first" "$last" "$line"
	done <"$WORK/empty" >>"$WORK/diff"
	[ "$(wc -l <"$WORK/empty")" = 2 ] && [ ! -s "$WORK/diff" ]
	ok $? "$compat CSV line: the empty fields of -s 0 and -n 0 are the page's" ||
	    cat "$WORK/empty" "$WORK/diff" | diag
done

# --- options: SYNOPSIS and the option lists against --help and the parser
"$CLYDE" --help >"$WORK/help.clyde"
"$CLYDE" report --help >"$WORK/help.report"
# same_options WHAT HELP NAME: the options of the page's WHAT (synopsis,
# options) against those of $cmd's --help (HELP: --usage, --all)
same_options() {
	page "$1" "$PAGE" $cmd >"$WORK/a"
	page help-options "$2" "$WORK/help.$cmd" >"$WORK/b"
	diff "$WORK/a" "$WORK/b" >"$WORK/diff"
	[ -s "$WORK/a" ] && [ ! -s "$WORK/diff" ]
	ok $? "$cmd: $3 (< page, > --help)" || diag < "$WORK/diff"
}
for cmd in clyde report; do
	same_options synopsis --usage "the options of SYNOPSIS are those of --help's usage"
	same_options options --all "the options the page describes are those of --help"
done
# every long option of --help is one the parser knows (the short ones are
# tests/e2e/bad_options.sh's): alone at the end, it is taken, or wants its value, but
# is never unknown
: >"$WORK/diff"
for o in $(page help-options --all "$WORK/help.clyde" | grep -e '^--'); do
	t=$(fresh_target)
	"$CLYDE" -d "$t" $AS_USER -s 0 -n 0 "$o" >/dev/null 2>"$WORK/err" </dev/null
	grep -E "unrecognized|invalid option" "$WORK/err" >>"$WORK/diff"
done
for o in $(page help-options --all "$WORK/help.report"); do
	"$CLYDE" report "$o" >/dev/null 2>"$WORK/err" </dev/null
	grep "unknown option" "$WORK/err" >>"$WORK/diff"
done
[ ! -s "$WORK/diff" ]
ok $? "every option of clyde --help and clyde report --help is known" ||
    diag < "$WORK/diff"

# OPTIONS: --fast takes its optional value with '=' only (--fast=2m is
# the run of the 2.00 record above)
run --compat=2.00 -s 16 -n 0 -q --fast 2
[ "$rc" = 1 ] &&
    grep -q "^clyde: 2: unexpected argument (a value for -f must be attached" "$WORK/err" &&
    is_empty "$t"
ok $? "--fast 2: refused with the hint that the value is attached, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --help: the exceptions the page gives for -b and the chunk of -s
grep -A1 -- '-b, --sync' "$WORK/help.clyde" | grep -q "after each seek's write" &&
    grep -A3 -- '-s, --size' "$WORK/help.clyde" | grep -q "power of two"
ok $? "--help: -b syncs the seeks' writes and the small files, the -s chunk is a power of two"

# --- the page's footer names the project and the release (.Os) that
# clyde --version starts with (0.1.0 of 0.1.0-g1a2b3c4), as man-db shows
# it; make install puts it under MANDIR/man1 as README says, its footer
# the full version of the clyde installed beside it
version=$("$CLYDE" --version)
release=${version%%-*}
grep -qx ".Os $release" "$PAGE" && needs mandoc mandoc &&
    mandoc -Tascii "$PAGE" | tail -1 | grep -q "^$release "
ok $? ".Os: the footer names '$release'" || mandoc -Tascii "$PAGE" | tail -1 | diag
make -s install DESTDIR="$WORK/inst" PREFIX=/usr MANDIR=/opt/man >/dev/null 2>&1 &&
    [ -f "$WORK/inst/opt/man/man1/clyde.1" ] && [ -x "$WORK/inst/usr/bin/clyde" ] &&
    grep -qx ".Os $("$WORK/inst/usr/bin/clyde" --version)" "$WORK/inst/opt/man/man1/clyde.1" &&
    grep -q "MANDIR/man1/clyde.1" README
ok $? "make install MANDIR=DIR: the page in DIR/man1, as README says"

# tests/bench/README says to run its scripts as ./NAME: each can be (a
# *_lib.sh is sourced by them, not run)
notx=$(for f in tests/bench/*.sh; do
	case $f in *_lib.sh) continue ;; esac
	[ -x "$f" ] || echo "$f"
done)
[ -z "$notx" ]
ok $? "every script of tests/bench can be run as tests/bench/README says" ||
    echo "not executable: $notx" | diag

# tests/README names every test, one row each: a script that runs and a
# unit_ or fuzz_ source in a folder of tests/ (not bench, tools, fixtures);
# and every row is a test that is there
find tests -mindepth 2 -maxdepth 2 -type f ! -path 'tests/bench/*' \
    ! -path 'tests/tools/*' ! -path 'tests/fixtures/*' \
    \( -perm -u=x -o -name 'unit_*.c' -o -name 'fuzz_*.c' \) |
    sed 's|^tests/||' | sort >"$WORK/tests.there"
sed -n 's/^| \([a-z0-9_]*\/[^ |]*\) |.*/\1/p' tests/README | sort >"$WORK/tests.named"
diff "$WORK/tests.there" "$WORK/tests.named" >"$WORK/diff"
[ -s "$WORK/tests.there" ] && [ ! -s "$WORK/diff" ]
ok $? "tests/README names every test, and no test that is not there (< there, > named)" ||
    diag < "$WORK/diff"

# src/README maps every source file (as FOLDER/NAME.c, or FOLDER/NAME.{c,h}
# for a pair) and names none that is not there; README's "Inside clyde"
# names every folder of src/
for f in src/*/*.[ch]; do
	r=${f#src/}
	grep -qF "$r" src/README || grep -qF "${r%.*}.{c,h}" src/README ||
	    echo "< $r"
done >"$WORK/diff"
sed -n 's/^    \([a-z]*\/[a-z_]*\)\(\.[ch]\|\.{c,h}\) .*/\1\2/p' src/README |
    while read -r r; do
	case $r in
	*.{c,h}) [ -f "src/${r%.*}.c" ] && [ -f "src/${r%.*}.h" ] ;;
	*) [ -f "src/$r" ] ;;
	esac || echo "> $r"
    done >>"$WORK/diff"
for d in src/*/; do
	d=${d%/}
	grep -q "^    $d " README || echo "README: $d"
done >>"$WORK/diff"
[ -s src/README ] && [ ! -s "$WORK/diff" ]
ok $? "src/README maps every source file and no file that is not there (< not named, > not there); README names every folder" ||
    diag < "$WORK/diff"

# make deps installs what a skip line names, and CI installs through it:
# every Debian package that a test names for a missing tool is in
# tests/tools/deps.sh's list, which .ci/run runs
# the tests' scripts and lib.sh (not the bench's)
scripts=$(ls tests/*.sh tests/*/*.sh | grep -v '^tests/bench/')
named=$({ grep -hoE '(^|[;&|({]|if |! )[[:space:]]*needs(_all)? ("[^"]*"|[^ ]+) [a-z0-9][a-z0-9.+-]*' $scripts |
    awk '{ print $NF }'
    grep -hoE '\(Debian package [a-z0-9][a-z0-9.+-]*\)' $scripts | tr -d ')' | awk '{ print $3 }'; } | sort -u)
listed=$(tests/tools/deps.sh -n | awk '{ print $2 }' | sort -u)
missing=$(printf '%s\n' "$named" | while read -r p; do
	printf '%s\n' "$listed" | grep -qxF "$p" || echo "$p"
done)
[ -n "$named" ] && printf '%s\n' "$named" | grep -qx python3 && [ -z "$missing" ] &&
    grep -qx 'tests/tools/deps.sh' .ci/run && grep -q 'make deps' README &&
    tests/tools/deps.sh -n nosuchgroup 2>"$WORK/err" >/dev/null; rc=$?
[ "$rc" = 2 ] && [ -z "$missing" ] && grep -q '^tests/tools/deps.sh: nosuchgroup: no such group' "$WORK/err"
ok $? "every package a skip line names is in tests/tools/deps.sh, which .ci/run and make deps run" ||
    { echo "named: $named" ; echo "not in tests/tools/deps.sh: $missing"; cat "$WORK/err"; } | diag

# --- EXIT STATUS: each status has its test, each test exists
page exit-statuses "$PAGE" >"$WORK/a"
printf '%s\n' "$exit_tests" | awk 'NF { print $1 }' >"$WORK/b"
diff "$WORK/a" "$WORK/b" >"$WORK/diff"
printf '%s\n' "$exit_tests" | while read -r status file name; do
	[ -n "$status" ] || continue
	case $name in *"exit $status"*) ;; *) echo "$name: not about exit $status" ;; esac
	grep -qF "ok \$? \"$name\"" "$file" || echo "$file: no test '$name'"
done >>"$WORK/diff"
[ -s "$WORK/a" ] && [ ! -s "$WORK/diff" ]
ok $? "EXIT STATUS: every status listed is made by a named test (< page, > map)" ||
    diag < "$WORK/diff"

# --- DIAGNOSTICS: each message the page gives is one clyde prints
page diagnostics "$PAGE" src/*/*.c >"$WORK/diff"
[ ! -s "$WORK/diff" ]
ok $? "DIAGNOSTICS: every message listed is in the source" || diag < "$WORK/diff"

# --- BUGS: each entry has its test, each test exists
page bugs "$PAGE" >"$WORK/a"
: >"$WORK/diff"
while read -r entry; do
	n=$(printf '%s\n' "$bugs_tests" | awk -F'|' -v e="$entry" \
	    'NF && index(e, $1) == 1' | wc -l)
	[ "$n" = 1 ] || echo "no test (or several) for: $entry"
done <"$WORK/a" >>"$WORK/diff"
printf '%s\n' "$bugs_tests" | while IFS='|' read -r words file name; do
	[ -n "$words" ] || continue
	grep -qF "$words" "$WORK/a" || echo "no entry '$words' in BUGS"
	grep -qF "ok \$? \"$name\"" "$file" || echo "$file: no test '$name'"
done >>"$WORK/diff"
[ ! -s "$WORK/diff" ]
ok $? "BUGS: every entry has a named test that shows it" || diag < "$WORK/diff"

for compat in 1.03 2.00; do
	run --compat=$compat -s 1001g -n 0
	[ "$rc" = 1 ] && grep -q "^clyde: -s 1001g: size out of range (MiB, 0 to 1000G)" "$WORK/err" &&
	    is_empty "$t" || echo "$compat: rc=$rc $(cat "$WORK/err")"
done >"$WORK/diff"
[ ! -s "$WORK/diff" ]
ok $? "BUGS: -s above 1000g is refused in both profiles, exit 1" || diag < "$WORK/diff"

# --- what BUGS used to say and clyde no longer does: -c counts the space
# of every copy (the -y s entries are tests/e2e/classic_profile.sh's and tests/e2e/bad_options.sh's)
t=$(fresh_target)
free=$(df -Pk "$t" | awk 'NR == 2 { print int($4 / 1024) }')
size=$((free * 2 / 3))
if [ "$size" -ge 64 ] && [ "$size" -le 1024000 ]; then
	"$CLYDE" -d "$t" $AS_USER --compat=2.00 -r 0 -n 0 -s "$size" -c 2 \
	    >/dev/null 2>"$WORK/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q "not enough free space: the test needs $((size * 2)) MiB" "$WORK/err" &&
	    is_empty "$t"
	ok $? "-c 2: the free space checked is that of both copies, exit 2" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
else
	skip "$free MiB free: no size fits the check"
fi

done_testing
