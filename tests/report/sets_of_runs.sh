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

done_testing
