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

done_testing
