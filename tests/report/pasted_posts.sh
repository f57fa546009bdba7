#!/bin/sh
# clyde report on results as posts paste them (clyde(1), REPORT, Text
# tables), one case a kind, each made here from real bonnie++ output
# (tests/fixtures/tables) by sed and awk: two runs pasted as a diff, a
# result behind comment marks, a Latency line cut or with a cell that is
# none, a table of a -s 0 run, a table split by hand between two
# machines, a Version label of @version@, and a table with the CSV line
# of its run far below it.
. "$(dirname "$0")/../lib.sh"

T=tests/fixtures/tables

# report ARGS...: sets $rc, $WORK/out, $WORK/err
report() {
	"$CLYDE" report "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}
# the result lines of --csv (a header comes first for several)
csv_lines() { grep -v '^name,\|^format_version,' "$WORK/out"; }
# table_of FILE: the text table of a run of tests/fixtures/tables alone
table_of() { grep -v -e ',' -e '^###' -e '^rc=' "$T/$1"; }
# line_of FILE: its CSV line
line_of() { grep ',' "$T/$1" | grep -v '^format_version,'; }
# recs CODE: a check in Perl of the records of $WORK/out, $recs
recs() { pl 'my $recs = load($ARGV[0]);
'"$1" "$WORK/out"; }
# fails: what clyde said and wrote, for a failed case
fails() { { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag; }
# all_read_as FILE...: each read with --json as $WORK/want, nothing said;
# what differs in $WORK/diag
all_read_as() {
	fail=0
	for f in "$@"; do
		report --json "$f"
		[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && cmp -s "$WORK/want" "$WORK/out" ||
		    { fail=1; echo "$f: rc=$rc"; cat "$WORK/err"; diff "$WORK/want" "$WORK/out"; }
	done >"$WORK/diag"
	[ "$fail" = 0 ]
}

# --- Version @version@: a bonnie++ built where configure never ran; the
# label as it stands, the generation the table's shape's
table_of v1.97.3_default.txt | sed 's/^Version  1\.97   /Version @version@/' >"$WORK/at197"
table_of v2.00a_default.txt | sed 's/^Version 2\.00a   /Version @version@/' >"$WORK/at200"
report --json "$WORK/at197" "$WORK/at200"
recs 'my @got = map { [$_->{bonnie_version}, $_->{generation}, $_->{format_version}] } @$recs;
check(same(\@got, [["\@version\@", "1.97", "1.97"], ["\@version\@", "1.98", "1.98"]]), \@got)' &&
    [ "$rc" = 0 ] && [ ! -s "$WORK/err" ]
ok $? "Version @version@ on a 1.97 and a 2.00a table: the label kept, generations 1.97 and 1.98" || fails

# --- a table of a -s 0 run (files:max, no I/O section): the I/O phases
# skipped, as the CSV line of the run says, not absent
table_of v2.00a_maxonly.txt >"$WORK/maxonly"
line_of v2.00a_maxonly.txt >"$WORK/maxonly.csv"
report --json "$WORK/maxonly"
mv "$WORK/out" "$WORK/table.json"
report --json "$WORK/maxonly.csv"
pl 'my ($t, $c) = (load($ARGV[0])->[0], load($ARGV[1])->[0]);
my @io = qw(putc put_block rewrite getc get_block seeks);
check(same([map { $t->{tests}{$_}{status} } @io], [("skipped") x 6]), $t->{tests});
check(same([map { $t->{tests}{$_}{status} } @io], [map { $c->{tests}{$_}{status} } @io]));
check(!defined $t->{file_size} && same($t->{files}, $c->{files}), $t->{files})' \
    "$WORK/table.json" "$WORK/out"
ok $? "a -s 0 table (files:max): its I/O phases skipped, as its CSV line's are" ||
    diag <"$WORK/table.json"

# --- a Latency line that does not read: a 2.00a table whose paste ended
# inside its last Latency line, a 1.97 table with a cell that is no
# latency; each row reads as it would without that line, the line named
# once
table_of v2.00a_default.txt >"$WORK/full200"
last=$(wc -l <"$WORK/full200")
awk -v n="$last" 'NR == n { $0 = substr($0, 1, 38) } 1' "$WORK/full200" >"$WORK/cut"
sed "${last}d" "$WORK/full200" >"$WORK/without"
table_of v1.97.3_default.txt | sed 's/ 37464us / 403m /' >"$WORK/bad403"
table_of v1.97.3_default.txt | sed 5d >"$WORK/without403"
fail=0
for c in "cut|$last|cut after 2 of its cells|file|without" \
    "bad403|5|'403m' is not a latency|I/O|without403"; do
	f=${c%%|*} c=${c#*|} line=${c%%|*} c=${c#*|} what=${c%%|*} c=${c#*|}
	section=${c%%|*} w=${c#*|}
	report --json "$WORK/$w"
	mv "$WORK/out" "$WORK/want"
	report --json "$WORK/$f"
	[ "$rc" = 1 ] && cmp -s "$WORK/want" "$WORK/out" &&
	    [ "$(cat "$WORK/err")" = "$WORK/$f:$line: Latency row: dropped ($what): the $section row above it is read without its latencies" ] ||
	    { fail=1; echo "$f: rc=$rc"; cat "$WORK/err"; diff "$WORK/want" "$WORK/out"; }
done >"$WORK/diag"
[ "$fail" = 0 ]
ok $? "a Latency line cut or with a cell '403m': the row read as without it, one line 'Latency row: dropped'" ||
    diag <"$WORK/diag"

# --- a result inside a comment block: a script's header with the table
# and the CSV line of a run behind "# ", and the same behind "// ", "; ",
# "-- " and mail's "> ": one result, the CSV line's, as the run's own
# output reads
sed 's/testhost/bach/g' "$T/v1.97.3_default.txt" | grep -v -e '^###' -e '^rc=' >"$WORK/bach"
report --json "$WORK/bach"
mv "$WORK/out" "$WORK/want"
i=0
for mark in '#' '//' ';' '--' '>'; do
	i=$((i + 1))
	{ echo '#!/bin/sh'; echo "$mark bonnie++ -d /srv -s 64 -r 32 -n 1 -m bach, last night:"
	  echo "$mark"; sed "s|^|$mark |" "$WORK/bach"; echo "$mark"
	  echo 'exec bonnie++ "$@"'; } >"$WORK/commented$i"
done
all_read_as "$WORK"/commented[1-5]
ok $? "a table and its CSV line behind '# ', '// ', '; ', '-- ', '> ': one result, the CSV line's" ||
    diag <"$WORK/diag"

# --- two runs of one machine compared as a diff: the old run's table
# behind '-', the new one's behind '+' (a 1.97 and a 2.00a table), then
# their CSV lines the same way: each side its run, named without the
# mark, in the sets "(-) prod" and "(+) prod"
table_of v1.97.3_default.txt | sed 's/testhost/prod    /' >"$WORK/old"
table_of v2.00a_default.txt | sed 's/testhost/prod    /' >"$WORK/new"
{ echo 'Before and after the new controller:'; echo
  sed 's/^/-/' "$WORK/old"; sed 's/^/+/' "$WORK/new"; } >"$WORK/diff"
report --json "$WORK/old" "$WORK/new"
mv "$WORK/out" "$WORK/want"
report --json "$WORK/diff"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && cmp -s "$WORK/want" "$WORK/out"
ok $? "two tables as a diff ('-' old, '+' new): each side read as its table alone, the names without the mark" ||
    { fails; diff "$WORK/want" "$WORK/out" | diag; }
report --average "$WORK/diff"
[ "$rc" = 0 ] && grep -q '^(-) prod ' "$WORK/out" && grep -q '^(+) prod ' "$WORK/out"
ok $? "--average of the diff: the sides are the sets '(-) prod' and '(+) prod'" || fails
{ line_of v1.97.3_default.txt | sed 's/testhost/prod/; s/^/-/'
  line_of v1.97.3_big.txt | sed 's/bighost/prod/; s/^/+/'; } >"$WORK/csvdiff"
# and 1.03e's, which have no format tag
{ line_of v1.03e_default.txt | sed 's/testhost/prod/; s/^/-/'
  line_of v1.03e_big.txt | sed 's/bighost/prod/; s/^/+/'; } >"$WORK/csvdiff103"
# each as its line alone reads (together, one name and two sizes would
# be a sweep; two sides are two sets, never one sweep)
line_of v1.97.3_default.txt | sed 's/testhost/prod/' >"$WORK/line1"
line_of v1.97.3_big.txt | sed 's/bighost/prod/' >"$WORK/line2"
report --json "$WORK/line1"
mv "$WORK/out" "$WORK/want1"
report --json "$WORK/line2"
mv "$WORK/out" "$WORK/want2"
report --json "$WORK/csvdiff"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] &&
    pl 'my ($d, $a, $b) = map { load($_) } @ARGV;
check(same($d, [$a->[0], $b->[0]]), $d)' "$WORK/out" "$WORK/want1" "$WORK/want2"
ok $? "two CSV lines as a diff: each read as its line alone, named without the mark" || fails
report --json "$WORK/csvdiff103"
recs 'my @got = map { [$_->{name}, $_->{file_size}] } @$recs;
check(same(\@got, [["prod", "64M"], ["prod", "2G"]]), \@got)' &&
    [ "$rc" = 0 ] && [ ! -s "$WORK/err" ]
ok $? "two 1.03e CSV lines as a diff: named without the mark" || fails

# --- tables split by hand: each machine's I/O section, then each one's
# file section, text between (two real 1.97 runs): one result per name,
# the runs' CSV lines; never across two names
# csv_of FILE: a CSV line of tests/fixtures/tables as a table gives it
# (no seed)
csv_of() { line_of "$1" | awk -F, -v OFS=, '{ $5 = "" } 1'; }
table_of v1.97.3_default.txt >"$WORK/a"
table_of v1.97.3_big.txt >"$WORK/b"
io_of() { sed -n '1,/^Latency/p' "$1"; }
files_of() { sed '1,/^Latency/d' "$1"; }
{ echo 'The disks first:'; io_of "$WORK/a"; echo; echo 'and on the big box:'
  io_of "$WORK/b"; echo; echo 'Now the file tests, in the same order.'; echo
  files_of "$WORK/a"; echo; echo 'and'; echo; files_of "$WORK/b"; } >"$WORK/split"
report --csv "$WORK/split"
{ csv_of v1.97.3_default.txt; csv_of v1.97.3_big.txt; } >"$WORK/want"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && csv_lines | cmp -s "$WORK/want" -
ok $? "two machines' I/O sections, then their file sections: one result per name" ||
    { fails; csv_lines | diff "$WORK/want" - | diag; }
sed 's/^bighost          2G /bighost2         2G /' "$WORK/split" >"$WORK/split2"
report --json "$WORK/split2"
recs 'my @got = map { [$_->{name}, defined $_->{file_size} ? 1 : 0, defined $_->{files} ? 1 : 0] } @$recs;
check(same(\@got, [["testhost", 1, 1], ["bighost2", 1, 0], ["bighost", 0, 1]]), \@got)' &&
    [ "$rc" = 0 ]
ok $? "an I/O section of bighost2 and a file section of bighost: not joined" || fails

# --- a table and the CSV line of its run far apart in one post (prose
# between them), either first: one result, the CSV line's; with a rate
# that differs, two
line_of v1.97.3_default.txt >"$WORK/line"
report --json "$WORK/line"
mv "$WORK/out" "$WORK/want"
prose() { for i in 1 2 3 4 5 6; do echo "Some words on the run, line $i."; done; }
{ cat "$WORK/a"; prose; cat "$WORK/line"; } >"$WORK/far1"
{ cat "$WORK/line"; prose; cat "$WORK/a"; } >"$WORK/far2"
all_read_as "$WORK/far1" "$WORK/far2"
ok $? "a table and its CSV line with prose between, either first: one result, the CSV line's" ||
    diag <"$WORK/diag"
{ sed 's/^testhost        64M   475 /testhost        64M   476 /' "$WORK/a"; prose; cat "$WORK/line"; } >"$WORK/far3"
report --json "$WORK/far3"
recs 'check(same([map { [$_->{source}, $_->{tests}{putc}{rate}] } @$recs],
    [["table", 476], ["csv", 475]]), $recs)' && [ "$rc" = 0 ]
ok $? "and with a rate that differs: two results, the table's and the CSV line's" || fails

done_testing
