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

# field N of result NAME's "compare" in $WORK/out (--json), as Python
# prints it: compare mean:xfs latency ci_percent put_block
json_at() {
	python3 -c 'import json, sys
r = [x for x in json.load(open(sys.argv[1])) if x["name"] == sys.argv[2]][0]
v = r["compare"]
for k in sys.argv[3:]:
    v = v[k]
print(v)' "$WORK/out" "$@"
}

# 4. latency verdicts are of ratios: Welch's t on the logarithms, back
# from the log scale.  sets.awk's put_block latencies are 50000 us times
# 0.98 .. 1.02 against half that, in another order: the change is -50 %,
# and its interval exp(ln 0.5 +- t(0.975, 8 df) s sqrt(2/5)) - 1 with s
# the sd of ln 0.98 .. ln 1.02 (0.0158135): -51.14 .. -48.83; get_block's
# 1.4 times: +36.81 .. +43.27
for s in old new; do
	awk -v name=box -v set="$s" -v format=1.98 -f tests/tools/sets.awk > "$WORK/lat_$s.csv"
done
report --json --average --compare=old old="$WORK/lat_old.csv" new="$WORK/lat_new.csv"
[ "$(json_at mean:new latency ci_percent put_block)" = "[-51.14, -48.83]" ] &&
    [ "$(json_at mean:new latency ci_percent get_block)" = "[36.81, 43.27]" ] &&
    [ "$(json_at mean:new latency percent put_block)" = -50 ]
ok $? "latency intervals on a log scale: -51.14..-48.83 and +36.81..+43.27, as computed by hand" ||
    { json_at mean:new latency; cat "$WORK/err"; } | diag
# a latency that fell from 2 ms .. 500 ms to about 1 ms: the change and
# its interval stay above -100 %, where the interval of a difference of
# means went to -120 %
awk -F, -v OFS=, '{ split("2000 100000 500000 300000 50000", l, " ");
    $40 = l[NR] "us"; print }' "$WORK/lat_old.csv" > "$WORK/wide_old.csv"
awk -F, -v OFS=, '{ $40 = (1000 + 10 * NR) "us"; print }' "$WORK/lat_new.csv" > "$WORK/wide_new.csv"
report --json --average --compare=old old="$WORK/wide_old.csv" new="$WORK/wide_new.csv"
json_at mean:new latency ci_percent put_block | tr -d '[],' > "$WORK/ci"
read -r lo hi < "$WORK/ci"
awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo > -100 && hi > lo && hi < 0) }'
ok $? "a latency 2..500 ms against 1 ms: its interval ($lo..$hi %) inside -100..0" ||
    { json_at mean:new latency; cat "$WORK/err"; } | diag

# runs needed: two sets of 5 runs whose rates have a cv of exactly 2 %
# (1e6 times 1 + c k, k = -2 .. 2, c = 0.02 / sqrt(2.5)), put_block 5 %
# higher in the second, rewrite unchanged.  R's power.t.test(delta =
# .05, sd = .02, power = .8) gives n = 3.87, 4 a set, with delta = .01
# 63.77, 64: within one run of those (put_block's 1 % figure is of the
# two sets' pooled sd, 2.05 %).
for s in old new; do
	awk -v name=box -v set="$s" -v format=1.98 -f tests/tools/sets.awk |
	    awk -F, -v OFS=, -v s=$s 'BEGIN { split("-2 -1 0 1 2", o, " ")
	    split("1 -2 2 -1 0", n, " "); c = 0.02 / sqrt(2.5) }
	    { k = s == "old" ? o[NR] : n[NR]
	      $12 = sprintf("%d", 1e6 * (s == "old" ? 1 : 1.05) * (1 + c * k) + 0.5)
	      $14 = sprintf("%d", 1e6 * (1 + c * k) + 0.5); print }' > "$WORK/cv2_$s.csv"
done
report --json --average --compare=old old="$WORK/cv2_old.csv" new="$WORK/cv2_new.csv"
rw=$(json_at mean:new runs_needed rewrite) pb=$(json_at mean:new runs_needed put_block)
within() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a - b <= 1 && b - a <= 1) }'; }
set -- $(echo "$rw" | tr -d '[],') && within "$1" 64 && within "$2" 4 &&
    set -- $(echo "$pb" | tr -d '[],') && within "$2" 4 &&
    [ "$(json_at mean:new significant put_block)" = True ] &&
    [ "$(json_at mean:new significant rewrite)" = False ]
ok $? "cv 2 %: 1 % and 5 % changes need 64 and 4 runs a set (rewrite $rw, put_block $pb), as power.t.test" ||
    { json_at mean:new runs_needed; cat "$WORK/err"; } | diag
report --average --compare=old old="$WORK/cv2_old.csv" new="$WORK/cv2_new.csv"
sed -n '/^mean:new  *1G/,/^  min/p' "$WORK/out" > "$WORK/io"
grep -q '^  runs for 1/5/10%  ' "$WORK/io" &&
    ! grep -q 'too few runs to see a 5 % change' "$WORK/io"
ok $? "the text table: a row of the runs needed under the verdicts, 5 runs enough for 5 %" ||
    diag < "$WORK/out"
# 2 runs of 2 %: enough for a figure, too few for 5 %
head -2 "$WORK/cv2_new.csv" > "$WORK/cv2_two.csv"
report --average --compare=old old="$WORK/cv2_old.csv" new="$WORK/cv2_two.csv"
grep -q '^  too few runs to see a 5 % change: .*put_block [0-9]* a set' "$WORK/out"
ok $? "2 runs against 5: too few runs to see a 5 % change, said" ||
    diag < "$WORK/out"

# 3. a mean of some runs only says so: sets.awk's new has seq_stat
# +++++ in 2 of its 5 runs, 20000 in the other 3
for s in old new; do
	awk -v name=box -v set="$s" -v format=1.98 -f tests/tools/sets.awk > "$WORK/fast_$s.csv"
done
for f in text markdown html; do
	report --$f --average --compare=old old="$WORK/fast_old.csv" new="$WORK/fast_new.csv"
	grep -q 'seq_stat 3 of 5 runs measured, 2 too fast (+++++)' "$WORK/out"
	ok $? "--$f: seq_stat of mean:new, 3 of 5 runs measured, 2 too fast, said" ||
	    diag < "$WORK/out"
done

done_testing
