#!/bin/sh
# clyde report on sets of runs as an issue pastes them (two filesystems,
# five runs each, LABEL=FILE): the sets' names in every mean row, the
# layout of the input's generation, phases +++++ in some runs, latency
# intervals on a log scale, the runs each set needs (power.t.test),
# --summary in text, Markdown and HTML.  The sets are synthetic with a
# known truth (tests/tools/sets.awk).
. "$(dirname "$0")/../lib.sh"

# report ARGS...: sets $rc, $WORK/out, $WORK/err
report() {
	"$CLYDE" report "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}

# sets.awk's old and new as 2.00a lines with -s 768M, 200000 seeks and
# -n 32:4096:1024:4, whose size labels leave a name no room
for s in old new; do
	awk -v name=box -v set="$s" -v format=1.98 -f tests/tools/sets.awk |
	    awk -F, -v OFS=, '{ $6 = "768M"; $8 = 200000; $22 = 32;
	    $23 = 4096; $24 = 1024; $25 = 4; print }' > "$WORK/long_$s.csv"
done
set -- ext4="$WORK/long_old.csv" xfs="$WORK/long_new.csv"

# 1. a mean row keeps its set's name whole, in both sections
for compat in 1.03 2.00; do
	report --compat=$compat --average --compare=ext4 "$@"
	[ "$rc" = 0 ] && [ "$(grep -c '^mean:ext4\( \|$\)' "$WORK/out")" = 2 ] &&
	    [ "$(grep -c '^mean:xfs\( \|$\)' "$WORK/out")" = 2 ] &&
	    ! grep -q '^mean[: ] *[0-9]' "$WORK/out"
	ok $? "--compat=$compat: the mean rows say mean:ext4 and mean:xfs whole, not a cut name" ||
	    diag < "$WORK/out"
done

# 2. one CSV line prints exactly its run's table: bonnie++'s own output
# (tests/fixtures/golden) in the layout of the line's generation
for g in v2.00a_default v1.03e_default; do
	f=tests/fixtures/golden/$g.txt
	grep , "$f" > "$WORK/line.csv"
	grep -v -e '^###' -e , "$f" > "$WORK/want"
	report "$WORK/line.csv"
	[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && cmp -s "$WORK/want" "$WORK/out"
	ok $? "$g: clyde report on its CSV line alone prints bonnie++'s table, no --compat" ||
	    diff "$WORK/want" "$WORK/out" | diag
done
# a mix takes the layout of most, says which in one line; --compat forces
grep -h , tests/fixtures/golden/v2.00a_default.txt \
    tests/fixtures/golden/v2.00a_default.txt \
    tests/fixtures/golden/v1.03e_default.txt > "$WORK/mix.csv"
report "$WORK/mix.csv"
[ "$rc" = 0 ] && [ "$(wc -l < "$WORK/err")" = 1 ] &&
    grep -qx 'clyde report: 1 results of 1.0x and 2 of 1.9x or later: printed in the 2.00a layout (--compat=1.03 for 1.03e'"'"'s)' "$WORK/err" &&
    [ "$(grep -c '^Version 2.00a' "$WORK/out")" = 2 ]
ok $? "a mix of 1.0x and 1.98 lines: 2.00a's layout, said in one line" ||
    cat "$WORK/err" "$WORK/out" | diag
report --compat=1.03 "$WORK/mix.csv"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && grep -q '^Version 1.03e' "$WORK/out" &&
    ! grep -q '^Version 2.00a' "$WORK/out"
ok $? "--compat=1.03 forces 1.03e's layout on the mix, without a word" ||
    cat "$WORK/err" "$WORK/out" | diag

done_testing
