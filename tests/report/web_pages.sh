#!/bin/sh
# clyde report on results as web pages hold them (tests/fixtures/pages,
# INDEX.md there): inline markup around a table's figures, the pages
# bon_csv2html wrote (1.0x, 1.97 and 2.00a layouts, in BBCode or bare),
# a text table piped through bon_csv2html, and a page whose line breaks
# were lost.
. "$(dirname "$0")/../lib.sh"

P=tests/fixtures/pages

# report ARGS...: sets $rc, $WORK/out, $WORK/err
report() { "$CLYDE" report "$@" >"$WORK/out" 2>"$WORK/err"; rc=$?; }
# --csv of several results, without its header line
body() { grep -v '^name,\|^format_version,' "$WORK/out"; }
# read_as WANT NAME: exit 0, nothing on stderr, the results of --csv
# those of the file WANT, or the one line WANT
read_as() {
	if [ -f "$1" ]; then body | cmp -s "$1" -; else [ "$(body)" = "$1" ]; fi &&
	    [ "$rc" = 0 ] && [ ! -s "$WORK/err" ]
	ok $? "$2" || { echo "rc=$rc"; cat "$WORK/err"; body |
	    if [ -f "$1" ]; then diff "$1" -; else cat; fi; } | diag
}

# 1. <b style="color: red;"> around two cells of each row, in <pre>: the
# rows read as if the markup were absent; the dstat table after them,
# marked the same way, is no result
report --csv --compat=1.03 "$P/drobo_1.03c_pre_bold.txt"
cat > "$WORK/want" <<'CSV'
spongebob,4G,10260,40,14116,8,8107,5,16746,57,18169,3,61.5,0,16,10085,40,+++++,+++,+++++,+++,26325,98,+++++,+++,+++++,+++
spongebob,4G,42271,94,55788,31,28871,14,50686,96,71219,16,128.7,1,16,22504,96,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++
CSV
read_as "$WORK/want" "<b> around cells of a <pre> table: both rows whole, nothing else"
# the same rows with the markup of a forum: BBCode colour, font and bold
sed 's|<b style="color: *red;">\([0-9]*\)</b>|[color=red][b]\1[/b][/color]|g
    s|^    spongebob|[font=Courier New]spongebob[/font]|' \
    "$P/drobo_1.03c_pre_bold.txt" > "$WORK/bbcode"
report --csv --compat=1.03 "$WORK/bbcode"
read_as "$WORK/want" "[color=red][b] and [font=...] around cells: the same rows"

# 3. bon_csv2html pages.  1.03b's, posted in [HTML] on a forum: its row
# is the CSV line it was made from
report --csv "$P/ubuntuforums_1.03b_csv2html_bbcode.txt"
read_as 'MyHardySrvr,12G,12292,28,13040,6,9985,3,34330,74,63192,8,540.2,1,16,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++' \
    "a 1.03b bon_csv2html page in [HTML]: its one row, the CSV line"
report --json "$P/ubuntuforums_1.03b_csv2html_bbcode.txt"
grep -q '"source": "table"' "$WORK/out"
ok $? "--json says it came from a table" || diag < "$WORK/out"

# bonnie++ 1.03e's own bon_csv2html (perl) on the 1.0x lines of the
# corpus: every row reads back as its line
report --csv --compat=1.03 "$P/csv2html_1.03e.csv"
cp "$WORK/out" "$WORK/want"
report --csv --compat=1.03 "$P/csv2html_1.03e.html"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && [ "$(body | wc -l)" = 11 ] &&
    cmp -s "$WORK/want" "$WORK/out"
ok $? "1.03e bon_csv2html of eleven 1.0x lines: the eleven lines" ||
    { echo "rc=$rc"; cat "$WORK/err"; diff "$WORK/want" "$WORK/out"; } | diag

# 1.97's page of three runs (a blog): rows and their Latency rows; the
# seed is not on the page
report --csv "$P/zfs_mac_1.97_csv2html.txt"
cat > "$WORK/want" <<'CSV'
1.97,1.97,SSD,1,,999M,,898,99,504473,33,507579,22,2123,99,+++++,+++,+++++,+++,16,,,,,26658,91,+++++,+++,28598,84,23456,88,+++++,+++,15481,57,10082us,20351us,21497us,4014us,7us,1962us,1160us,25us,1241us,2175us,12us,13363us
1.97,1.97,raidz,1,,999M,,150,99,277823,38,380660,50,421,99,+++++,+++,1431,12,16,,,,,91,5,+++++,+++,92,1,87,4,+++++,+++,91,1,55520us,3179us,2616us,19770us,90us,324ms,251ms,58us,281ms,448ms,15us,298ms
CSV
read_as "$WORK/want" "a 1.97 bon_csv2html page: each row with its latencies, a 1.97 line"

# the same page as a browser copies it: a line per row, its cells
# between tabs
sed -n '/<table/,/<\/table>/{
	s|</tr><tr>|\n|g
	s|</td><td[^>]*>|	|g
	s|<[^>]*>||g
	p
}' "$P/zfs_mac_1.97_csv2html.txt" > "$WORK/copied"
report --csv "$WORK/copied"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && body | cmp -s "$WORK/want" - &&
    [ "$(grep -c '	' "$WORK/copied")" = 10 ]
ok $? "the 1.97 page copied from a browser, tabs between cells: the same lines" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/copied"; body | diff "$WORK/want" -; } | diag

# 2.00a's bon_csv2html on 1.98 lines of the corpus and of 2.00a runs:
# the optional columns (concurrency, max size) as its header names them,
# the block rates in MiB/s rounded, +++++ printed 0 there; the seed, the
# seeks and the version (2.00 or 2.00a: the page's Version is its
# converter's) are not on the page.  Each row reads as its line with
# those fields empty and those rates whole MiB/s.
report --csv "$P/csv2html_2.00a.html"
awk -F, -v OFS=, '{
	$2 = ""; $5 = ""; $8 = ""; $9 = ""
	for (i = 12; i <= 18; i += 2)
		if (i != 16 && $i ~ /^[0-9.]+$/)
			$i = int($i / 1024 + 0.5) * 1024
	print }' "$P/csv2html_2.00a.csv" > "$WORK/want"
read_as "$WORK/want" "2.00a bon_csv2html of nine 1.98 lines: the lines, MiB/s rounded"
report --json "$P/csv2html_2.00a.html"
grep -q '"put_block": {"status": "ok", "rate": 388096, "cpu": 64, "latency_us": 38609, "rate_precision": 512}' "$WORK/out" &&
    grep -q '"rewrite": {"status": "too_fast"' "$WORK/out"
ok $? "--json: 379 M/sec is 388096 +- 512 KiB/s; a 0 with +++ is +++++" ||
    diag < "$WORK/out"

# a page whose row cannot be read is named at the row, never dropped
sed 's|>29005</td><td bgcolor="#01FE00">41</td>|>29005</td><td>4x1</td>|' \
    "$P/csv2html_2.00a.html" > "$WORK/bad.html"
line=$(grep -n '>bighost<' "$WORK/bad.html" | cut -d: -f1)
report --csv "$WORK/bad.html"
[ "$rc" = 1 ] && [ "$(body | wc -l)" = 8 ] &&
    grep -q "^$WORK/bad.html:$line: bon_csv2html row: seq_create_cpu: '4x1'" "$WORK/err"
ok $? "a bad cell in a bon_csv2html row: FILE:LINE named, exit 1, the rest read" ||
    { echo "rc=$rc line=$line"; cat "$WORK/err"; } | diag
sed 's|<td>+++++</td><td>+++</td><td class="size" bgcolor="#FFFFFF">16</td>|<td class="size" bgcolor="#FFFFFF">16</td>|' \
    "$P/zfs_mac_1.97_csv2html.txt" > "$WORK/short.html"
report --csv "$WORK/short.html"
[ "$rc" = 1 ] && [ "$(body | wc -l)" = 1 ] &&
    grep -q "^$WORK/short.html:14: bon_csv2html row: 25 cells, where its table has 27" "$WORK/err"
ok $? "a bon_csv2html row short of two cells: named, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# CSV lines of the corpus in the cells of a wiki's table and in <p>: read,
# never named for the markup around them
c=tests/fixtures/csv_lines.tsv
l103=$(awk -F'\t' '$2 == "1.0x" { print $6; exit }' "$c")
l197=$(awk -F'\t' '$2 ~ /1\.97/ { print $6; exit }' "$c")
printf '<table><tr><td>%s</td></tr>\n<tr><td>%s</td></tr></table>\n<p>%s</p>\n' \
    "$l103" "$l197" "$l103" > "$WORK/cells.html"
printf '%s\n' "$l103" "$l197" "$l103" > "$WORK/lines"
report --csv "$WORK/lines"
cp "$WORK/out" "$WORK/want"
report --csv "$WORK/cells.html"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && [ "$(body | wc -l)" = 3 ] &&
    cmp -s "$WORK/want" "$WORK/out"
ok $? "CSV lines in <td> and <p>: the lines, as read bare" ||
    { echo "rc=$rc"; cat "$WORK/err"; diff "$WORK/want" "$WORK/out"; } | diag

# 4. a text table piped through 1.03c's bon_csv2html: each line a row of
# three cells, the same text; the file row lost (the perl script died on
# its +++++).  One result, read once
report --csv "$P/ubuntuforums_1.03c_text_through_csv2html.txt"
read_as 'myserver.domain.com,4G,66660,98,114886,15,22326,5,32802,42,46934,5,214.7,0,,,,,,,,,,,,,' \
    "a text table through bon_csv2html: its one row, once"

# 5. the table, its CSV line, dd and hdparm on one line: the CSV line
# read out of the run, its name without the %CP before it
report --csv "$P/nas_1.03d_runon.txt"
read_as 'server,2G,10862,91,63699,27,29931,12,11483,91,83455,22,196.7,0,16,2693,67,+++++,+++,3467,37,2948,47,+++++,+++,3131,38' \
    "a page run onto one line: its CSV line read, 'server' its name"
# with the line cut short the message says what the line is
sed 's/3131,38## sync/3131## sync/' "$P/nas_1.03d_runon.txt" > "$WORK/cut"
report --csv "$WORK/cut"
[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] && [ "$(cat "$WORK/err")" = \
    "$WORK/cut:9: 30 fields and a bonnie++ table on one line (its line breaks lost?): no CSV line in it reads" ]
ok $? "a run-on line with no whole CSV line: named for what it is, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

done_testing
