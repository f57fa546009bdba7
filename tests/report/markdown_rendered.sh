#!/bin/sh
# clyde report --markdown, rendered by a GitHub-flavoured Markdown
# renderer (cmark-gfm with its table extension): the HTML must have one
# table per section, the header of the text table's columns, one row per
# result (and per Latency, mean, spread and --compare row), every row as
# wide as the header, and the cells of the text table.  Skipped with the
# reason when cmark-gfm is not installed (Debian: cmark-gfm).
. "$(dirname "$0")/../lib.sh"

C=tests/fixtures/corpus
needs_all cmark-gfm cmark-gfm 7

# render ARGS...: clyde report --markdown ARGS into $WORK/md and $WORK/html
render() {
	"$CLYDE" report --markdown "$@" >"$WORK/md" 2>"$WORK/err"
	rc=$?
	cmark-gfm -e table "$WORK/md" >"$WORK/html"
}

# shape: per table "TABLE th=N rows=R", and "BAD" for a row of other width
shape() {
	awk '/<table>/ { th = 0; rows = 0; w = 0 }
	    /<th[ >]/ { th++ }
	    /<tbody>/ { body = 1 }
	    body && /<tr>/ { rows++; w = 0 }
	    body && /<td/ { w++ }
	    body && /<\/tr>/ && w != th { print "BAD row " rows ": " w " cells" }
	    /<\/table>/ { print "TABLE th=" th " rows=" rows; body = 0 }' "$WORK/html"
}

# cells N: the text of the cells of body row N of the first table, one a line
cells() {
	awk -v n="$1" '/<tbody>/ { body = 1 } body && /<tr>/ { r++ }
	    body && r == n && /<td/ { sub(/<td[^>]*>/, ""); sub(/<\/td>/, "");
	    print }' "$WORK/html"
}

# the forum thread: 15 CSV results and one table, both sections
f001=$C/f001_mixed_1.03c-1.03e-1.96_ubuntuforums_post_your_hdd_results.txt
"$CLYDE" report --csv "$f001" 2>/dev/null | grep -v '^name,' > "$WORK/csv"
io=$(awk -F, '$1 !~ /^1\.9/ && $2 != "" || $1 ~ /^1\.9/ && $6 != ""' "$WORK/csv" | wc -l)
files=$(awk -F, '$1 !~ /^1\.9/ && $15 != "" || $1 ~ /^1\.9/ && $20 != ""' "$WORK/csv" | wc -l)
render --compat=1.03 "$f001"
[ "$(shape)" = "$(printf 'TABLE th=14 rows=%d\nTABLE th=14 rows=%d' "$io" "$files")" ]
ok $? "f001: two tables of 14 columns, $io and $files rows, every row whole" ||
    shape | diag
grep '<th[ >]' "$WORK/html" | sed 's/<[^>]*>//g' | tr '\n' '|' > "$WORK/head"
[ "$(cat "$WORK/head")" = "Machine|Size|Out Per Chr K/sec|%CP|Out Block K/sec|%CP|Rewrite K/sec|%CP|In Per Chr K/sec|%CP|In Block K/sec|%CP|Seeks /sec|%CP|Machine|Files|Seq Create /sec|%CP|Seq Read /sec|%CP|Seq Delete /sec|%CP|Ran Create /sec|%CP|Ran Read /sec|%CP|Ran Delete /sec|%CP|" ]
ok $? "f001: the text table's columns and units in the headers" ||
    diag < "$WORK/head"
grep -q '^CSV generations: 1.96, 1.0x$' "$WORK/md"
ok $? "f001: a line with the CSV generations"

# a row's cells are the text table's, +++++ included
m003=$C/m003_1.02c_galaxy_lkml_wrapped.txt
render "$m003"
"$CLYDE" report "$m003" | sed -n 4p | tr -s ' ' '\n' > "$WORK/want"
cells 1 > "$WORK/got"
cmp -s "$WORK/want" "$WORK/got"
ok $? "galaxy: the cells of the text table's row, in order" ||
    diff "$WORK/want" "$WORK/got" | diag

# 2.00 layout: units and a Latency row under each result
m006=$C/m006_2.00_nfs_SERVER_CLIENT_linux-nfs_QPdecoded.txt
render --compat=2.00 "$m006"
[ "$(shape)" = "$(printf 'TABLE th=14 rows=4\nTABLE th=14 rows=4')" ] &&
    [ "$(cells 3 | sed -n 5p)" = 111m ] && [ "$(cells 4 | head -1)" = Latency ]
ok $? "--compat=2.00: rates with units, a Latency row under each of 2 results" ||
    { shape; cells 1; } | diag

# --average and --compare: the mean, its spread and the percentage rows
rr=tests/fixtures/dameth_rrobin.txt
render --average --compare=avg-rr "$rr"
# 8 results, 7 of them with a vs row; the mean, its vs row, the line
# that one run of avg-rr is too few for a verdict, min, max, cv, median;
# in the file table also the bimodal row (seq_create, 5 runs near 800
# and 2 near 71) and the line of the phases +++++ in some runs
[ "$(shape)" = "$(printf 'TABLE th=14 rows=22\nTABLE th=14 rows=24')" ] &&
    grep -q '^| seq_stat 2 of 7 runs measured, 5 too fast (+++++); ran_stat 5 of 7 runs measured, 2 too fast (+++++) |' "$WORK/md" &&
    grep -q '^| mean:spyder | 1G | 5826 | 63 | 13527 | 11 |' "$WORK/md" &&
    grep -q '^| too few runs (1): no verdict |' "$WORK/md" &&
    grep -q '^| bimodal | | yes | |  | |' "$WORK/md"
ok $? "--average --compare: mean, spread and percentage rows" ||
    { shape; cat "$WORK/md"; } | diag

# names cannot break the table or add markup
printf '%s\n' 'a|b*c<i>,2G,1,1,1,1,1,1,1,1,1,1,1.0,1,16,1,1,1,1,1,1,1,1,1,1,1,1' > "$WORK/odd"
render "$WORK/odd"
[ "$(shape)" = "$(printf 'TABLE th=14 rows=1\nTABLE th=14 rows=1')" ] &&
    [ "$(cells 1 | head -1)" = 'a|b*c&lt;i&gt;' ] && ! grep -q '<i>\|<em>' "$WORK/html"
ok $? "a name with | * < >: one cell, no markup" || diag < "$WORK/html"

done_testing
