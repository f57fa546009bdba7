#!/bin/sh
# clyde report as a new user meets it: a --chunks run's own standard
# output read back is its sweep and nothing more; every row and bar of a
# sweep names its chunk size and can be told apart; the HTML page says
# where its results came from, in the units its cells show, and keeps
# its tables within a 1200-pixel window and an A4 page.
. "$(dirname "$0")/lib.sh"

# report ARGS...: sets $rc, $WORK/out, $WORK/err
report() {
	"$CLYDE" report "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}

# A --chunks run of five chunk sizes, its stdout kept as a user keeps it,
# in each profile.  The name is longer than the label leaves room for, so
# that the rows' names are cut, each to its own width.
NAME=tmpfs-machine
for p in 1.03 2.00; do
	t=$(fresh_target)
	"$CLYDE" --compat=$p -d "$t" $AS_USER -m $NAME -r 0 -s 64 -n 0 \
	    --chunks=4k..64k >"$WORK/sweep$p" 2>"$WORK/err"
	ok $? "--compat=$p --chunks=4k..64k: a run of five chunk sizes" ||
	    diag < "$WORK/err"
done

for p in 1.03 2.00; do
	report --compat=$p "$WORK/sweep$p"
	[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] &&
	    [ "$(head -1 "$WORK/out")" = "$NAME 64M: a sweep of 5 chunk sizes, 4k to 64k" ] &&
	    [ "$(grep -c '^Version' "$WORK/out")" = 1 ] &&
	    [ "$(grep -c ' 64M' "$WORK/out")" = 6 ]
	ok $? "$p: the run's table and CSV lines read back: one sweep of its five points, no other row" ||
	    cat "$WORK/out" "$WORK/err" | diag

	report --csv --compat=$p "$WORK/sweep$p"
	[ "$rc" = 0 ] && [ "$(grep -c "^$NAME,\|,$NAME," "$WORK/out")" = 5 ] &&
	    [ "$(grep -vc "$NAME" "$WORK/out")" -le 1 ]
	ok $? "$p: --csv, five lines, each the run's full name" ||
	    cat "$WORK/out" "$WORK/err" | diag

	report --json "$WORK/sweep$p"
	python3 -c '
import json, sys
recs = json.load(open(sys.argv[1]))
assert len(recs) == 5, len(recs)
assert all(r["source"] == "csv" and r["name"] == sys.argv[2] for r in recs), recs
assert sorted(r["io_chunk_size"] for r in recs) == [4096, 8192, 16384, 32768, 65536]
' "$WORK/out" "$NAME" 2>"$WORK/err"
	ok $? "$p: --json, five records, one per chunk size, from the CSV lines" ||
	    diag < "$WORK/err"
done

# the CSV lines first, the table after (bonnie++ -q writes the table on
# stderr): the same five results
for p in 1.03 2.00; do
	{ grep , "$WORK/sweep$p"; grep -v , "$WORK/sweep$p"; } >"$WORK/flipped"
	report --json "$WORK/flipped"
	[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' \
	    "$WORK/out")" = 5 ]
	ok $? "$p: the CSV lines before the table: five results" ||
	    head -c 600 "$WORK/out" | diag
done

# Sweeps run twice (-x 2) under two long names, with a seek count in the
# 2.00 size label: no room in the 19 columns for the name and the chunk.
for n in ext4-DIRECT ext4-buffered; do
	t=$(fresh_target)
	"$CLYDE" --compat=2.00 -d "$t" $AS_USER -m $n -r 0 -s 64::1000 -n 0 -f \
	    -x 2 --chunks=4k..16k >>"$WORK/twice" 2>"$WORK/err" ||
	    diag < "$WORK/err"
done
# rows NAME: the I/O rows of the table for sweep NAME (and their means)
rows() {
	awk -v h="$1 64M: a sweep" 'index($0, h) == 1 { on = 1; next }
	    /a sweep of/ { on = 0 } on && / 64M:/' "$WORK/out"
}
for p in 1.03 2.00; do
	report --average --compat=$p "$WORK/twice"
	rows ext4-DIRECT >"$WORK/rows"
	[ "$(wc -l < "$WORK/rows")" = 9 ] &&
	    [ "$(grep -c ' 64M:\(4k\|8k\|16k\)' "$WORK/rows")" = 9 ] &&
	    [ -z "$(cut -c1-19 "$WORK/rows" | sort | uniq -d)" ] &&
	    [ -z "$(cut -c20 "$WORK/rows" | tr -d ' \n')" ]
	ok $? "$p --average: each of the sweep's nine rows says its chunk (8k too), no two alike, within 19 columns" ||
	    diag < "$WORK/out"
done
grep -q '^#2  *64M:4k::1000 ' "$WORK/rows" && grep -q '^mean  *64M:16k::1000 ' "$WORK/rows"
ok $? "2.00: a run of the sweep named by its series (#2), the mean as mean" ||
    diag < "$WORK/rows"

report --markdown --average "$WORK/twice"
grep '^| [^|]* | 64M' "$WORK/out" | cut -d'|' -f2,3 >"$WORK/rows"
[ "$(wc -l < "$WORK/rows")" = 18 ] && [ -z "$(sort "$WORK/rows" | uniq -d)" ] &&
    grep -q '^ ext4-buffered #2 | 64M:8k $' "$WORK/rows"
ok $? "--markdown: eighteen rows, each its name, series and chunk, none alike" ||
    diag < "$WORK/out"

report --html --average "$WORK/twice"
python3 - "$WORK/out" <<'PY' 2>"$WORK/err"
import re, sys
page = open(sys.argv[1]).read()
charts = re.findall(r'<figure><figcaption>(.*?)</figcaption>(.*?)</figure>', page, re.S)
assert charts, "no bar chart"
for title, svg in charts:
    labels = re.findall(r'text-anchor="end">([^<]*)</text>', svg)
    assert len(labels) == 18, (title, labels)
    assert len(set(labels)) == 18, (title, labels)
    assert all(re.search(r' 64M:(4k|8k|16k)$', l) for l in labels), labels
assert '<td class="name">ext4-DIRECT #2</td><td>64M:8k</td>' in page
PY
ok $? "--html: every bar of a chart says its name, series and chunk, none alike" ||
    diag < "$WORK/err"

done_testing
