#!/bin/sh
# clyde report on text tables as posts leave them (clyde(1), REPORT, Text
# tables): the line of column heads cut, bonnie++'s table split in two by
# hand, more rows than a table holds, bonnie++'s header lines with no row
# under them and a row with no header line (named, never skipped), the
# Version label kept, a section the post did not show "absent"; and the
# tables of other programs, which are neither read nor named.  The posts are in tests/fixtures/table_posts
# (INDEX.md), the real runs in tests/fixtures/tables.
. "$(dirname "$0")/../lib.sh"

P=tests/fixtures/table_posts
C=tests/fixtures/corpus
T=tests/fixtures/tables

# report ARGS...: sets $rc, $WORK/out, $WORK/err
report() {
	"$CLYDE" report "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}
# the result lines of --csv (a header comes first for several)
csv_lines() { grep -v '^name,\|^format_version,' "$WORK/out"; }
# a real CSV line of tests/fixtures/tables, the seed left out as a table
# does (it never shows one)
csv_of() {
	grep '^1\.9' "$T/$1" | awk -F, -v OFS=, '{ $5 = "" } 1'
}

# --- the line of column heads cut
# A mail with two 1.0x tables whose Machine column the poster removed,
# and with it the Version line: "Size K/sec %CP ..." under the titles.
report --csv "$P/vim3_1.0x_no_machine_column_linux-arm-kernel.txt"
printf '%s\n' ',4G,93865,99,312837,96,194487,23,102808,97,415501,21,+++++,+++,,,,,,,,,,,,,' \
    ',4G,52144,95,71766,21,47302,10,57078,98,415469,44,+++++,+++,,,,,,,,,,,,,' >"$WORK/want"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && csv_lines | cmp -s "$WORK/want" -
ok $? "a table with no Machine column and no Version line: both rows read" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag

# m013 quoted once more ("> > "), its "Machine  Size K/sec" line cut: the
# Version and -Per Chr- lines and the row's shape tell the table
sed -e '/^Machine /d' -e 's/^/> > /' "$C/m013_1.03_meghan_nfs_f_n0_lkml.txt" >"$WORK/m013"
report --csv "$WORK/m013"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] &&
    [ "$(cat "$WORK/out")" = 'meghan,512M,,,118985,30,5173,99,,,294404,25,+++++,+++,,,,,,,,,,,,,' ]
ok $? "m013 quoted '> > ' without its column heads: its row, the cells that did not run empty" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag
# m001, wrapped by its mail client, without its CSV line and without the
# column heads of both sections (each wrapped onto two lines): the line
# the post gives
grep -v -e , -e '^> Machine ' -e '^> /sec %CP' -e '^>  *files  */sec' \
    "$C/m001_1.03_txiki_lkml_formatflowed.txt" >"$WORK/m001"
report --csv "$WORK/m001"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] &&
    [ "$(cat "$WORK/out")" = 'txiki,2G,21270,87,32856,11,10533,3,10962,51,28744,5,157.0,0,16,21675,96,+++++,+++,23523,100,23700,99,+++++,+++,13062,61' ] &&
    ! grep -q 'Machine\|files\|/sec' "$WORK/m001"
ok $? "m001 wrapped, without the column heads of either section: the post's CSV line" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag

# --- the Version label kept; a section the table does not show: absent
report --json "$WORK/m013" "$C/m009_1.03_acrypto_csv2txt_atversion_lkml.txt"
# recs CODE: a check in Perl of the records of $WORK/out, $recs
recs() { pl 'my $recs = load($ARGV[0]);
'"$1" "$WORK/out"; }
recs '
my $m013 = $recs->[0];
check(same($m013->{bonnie_version}, "1.03"), $m013->{bonnie_version});
check(same($m013->{generation}, "1.0x") && !defined $m013->{format_version});
my $t = $m013->{tests};
my %st = map { $t->{$_}{status} => 1 } grep { /^(seq|ran)_/ } keys %$t;
check(same([keys %st], ["absent"]), $t);
check(same($t->{putc}{status}, "skipped"), $t->{putc});
# bon_csv2txt left its @version@ unsubstituted: the label as it stands,
# the generation the table's shape's
check(same([map { [$_->{bonnie_version}, $_->{generation}] } @$recs[1 .. $#$recs]],
    [map { ["\@version\@", "1.0x"] } 1 .. 3]), $recs)'
ok $? "--json: a 1.03 table's version \"1.03\" (@version@ kept, 1.0x by its shape), the file tests it does not show \"absent\", -f's putc skipped"
# with a table that has a file section: meghan's row there says n/a
grep -v -e , -e '^###' -e '^rc=' "$T/v1.03e_default.txt" >"$WORK/full"
report --markdown "$WORK/m013" "$WORK/full"
grep -q '^| meghan | 512M |  |  | 118985 | 30 |' "$WORK/out" &&
    grep -q '^| meghan | n/a | n/a | n/a | n/a | n/a |' "$WORK/out" &&
    grep -q '^| testhost | 1 | +++++ | +++ |' "$WORK/out"
ok $? "--markdown: tests the table did not show are n/a, those that did not run empty" ||
    diag < "$WORK/out"
report --html "$WORK/m013" "$WORK/full"
grep -q '<td class="name">meghan</td><td>n/a</td><td title="not in the table it was read from">n/a</td><td>n/a</td>' "$WORK/out"
ok $? "--html: tests the table did not show are n/a, with the reason" ||
    grep -n 'meghan' "$WORK/out" | head -5 | diag

# --- hand-split tables: two real 1.97 runs, the I/O rows in one table,
# the file rows in another under its own Version line, text between
report --csv "$P/split_1.97_old_new.txt"
{ csv_of v1.97.3_default.txt; csv_of v1.97.3_big.txt; } >"$WORK/want"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && csv_lines | cmp -s "$WORK/want" -
ok $? "an I/O table and a file table of the same names: one result per name, the runs' CSV lines" ||
    { echo "rc=$rc"; cat "$WORK/err"; csv_lines | diff "$WORK/want" -; } | diag
# the file rows in the other order: not the same names, four halves, each
# with the section it lacks absent
awk '/^testhost  *1 /, /^Latency/ { held = held $0 "\n"; next }
    { print } /^bighost  *16 /{ getline; print; printf "%s", held }' \
    "$P/split_1.97_old_new.txt" >"$WORK/swapped"
report --json "$WORK/swapped"
recs '
my @got = map { [$_->{name}, defined $_->{file_size} ? 1 : 0, defined $_->{files} ? 1 : 0,
    $_->{tests}{putc}{status}, $_->{tests}{seq_create}{status}] } @$recs;
check(same(\@got, [["testhost", 1, 0, "ok", "absent"],
    ["bighost", 1, 0, "ok", "absent"],
    ["bighost", 0, 1, "absent", "ok"],
    ["testhost", 0, 1, "absent", "too_fast"]]), \@got)' && [ "$rc" = 0 ]
ok $? "the file rows in another order: four half results, each section it lacks absent" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- more rows than a table holds: bon_csv2txt's table of 40 real
# 2.00a runs (one line of tests/fixtures/tables, named host01 to host40;
# the run with no +++++ in its I/O section, which bon_csv2txt prints as
# "0k +++")
if needs bon_csv2txt bonnie++; then
	line=$(grep '^1\.98,' "$T/v2.00a_big.txt")
	for i in $(seq -w 1 40); do
		printf '%s\n' "$line" | awk -F, -v OFS=, -v n="host$i" '{ $3 = n } 1'
	done | bon_csv2txt >"$WORK/forty" 2>/dev/null
	first=$(grep -n '^host33 ' "$WORK/forty" | head -1 | cut -d: -f1)
	report --csv "$WORK/forty"
	[ "$rc" = 1 ] && [ "$(csv_lines | wc -l)" = 32 ] &&
	    [ "$(csv_lines | tail -1 | cut -d, -f3)" = host32 ] &&
	    [ "$(wc -l <"$WORK/err")" = 1 ] &&
	    grep -q "^$WORK/forty:$first: table row: the table's rows from here to line [0-9]* ([0-9]*) are not read: a table has at most 32 rows$" "$WORK/err"
fi
ok $? "a table of 40 rows: 32 read, the rest named at line ${first:-?}, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- never silent: bonnie++'s header lines with no row that reads
{ echo 'Results (the rows did not survive the paste):'; echo
  grep -v -e , -e '^###' -e '^rc=' -e '^testhost ' -e '^  *1 ' "$T/v1.97.3_default.txt"; } >"$WORK/norows"
report --csv "$WORK/norows"
[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] &&
    [ "$(cat "$WORK/err")" = "$WORK/norows:3: table: bonnie++'s header lines, and no row under them that reads" ]
ok $? "a 1.97 table without its rows: named at its Version line, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# a data row with none of its table's lines (g005's I/O row and its
# Latency row): named, for no line says which version wrote it; next to
# the CSV line of its run it is that line's result, and no complaint
g005=$C/g005_1.97_cunnie_vsphere_nvme.txt
{ echo 'The run:'; grep -e '^vsphere_nvme  *16G ' -e '^Latency  *146ms' "$g005"; } >"$WORK/bare"
report --csv "$WORK/bare"
[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] &&
    [ "$(cat "$WORK/err")" = "$WORK/bare:2: table row: bonnie++'s figures without a header line of its table, which would say the version: not read" ]
ok $? "a bonnie++ row without its table: named, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag
grep '^1\.97,' "$g005" >"$WORK/line"
cat "$WORK/line" >>"$WORK/bare"
report --json "$WORK/line"
mv "$WORK/out" "$WORK/want"
report --json "$WORK/bare"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && grep -q '"source": "csv"' "$WORK/out" &&
    cmp -s "$WORK/want" "$WORK/out"
ok $? "and with the CSV line of its run: that line, nothing named" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag

# --- the tables and figures of other programs: no result, no line named;
# only the file, as having no result (exit 1)
report --csv "$P/not_bonnie.txt"
[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] &&
    [ "$(cat "$WORK/err")" = "$P/not_bonnie.txt: no bonnie++ results found" ]
ok $? "hdparm, dbench, iperf, iozone, iostat, dd and Bonnie output: nothing read, no line named" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag

done_testing
