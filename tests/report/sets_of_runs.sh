#!/bin/sh
# clyde report on sets of runs as an issue pastes them (two filesystems,
# five runs each, LABEL=FILE): the sets' names in every mean row, the
# layout of the input's generation, phases +++++ in some runs, latency
# intervals on a log scale, the runs each set needs (power.t.test),
# --summary in text, Markdown and HTML, the HTML page of a comparison
# (its ticks, its phases too fast, its sets panel), --latency on what
# bonnie++ 2.00a users post (each phase's maximum).  The sets are
# synthetic with a known truth (tests/tools/sets.awk).
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

# 5. --summary: a row per set and phase, the runs of each set in one
# line, what a user pastes into an issue.  sets.awk's put_block is +20 %
# in new (named xfs), rewrite unchanged.
set -- ext4="$WORK/fast_old.csv" xfs="$WORK/fast_new.csv"
report --average --compare=ext4 "$@"
full=$(wc -l < "$WORK/out")
report --summary --average --compare=ext4 "$@"
head -1 "$WORK/out" > "$WORK/runs"
grep -E '^(ext4|xfs) ' "$WORK/out" > "$WORK/rows"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && grep -qx 'Runs: ext4 5, xfs 5' "$WORK/runs" &&
    [ "$(wc -l < "$WORK/rows")" = 24 ] &&
    [ "$(grep -c '^ext4 .* base ' "$WORK/rows")" = 12 ] &&
    grep -Eq '^xfs +Block write +117m +1\.6% +5 +\+20% +\+17\.\.\+23 +4 ' "$WORK/rows" &&
    grep -Eq '^xfs +Rewrite +48\.8m +1\.6% +5 +~ +-2\.\.\+2 +3 ' "$WORK/rows" &&
    grep -Eq '^xfs +Sequential read .* 3 of 5 ' "$WORK/rows" &&
    grep -Eq '^ext4 +Sequential read +\+\+\+\+\+ .* 0 of 5 ' "$WORK/rows" &&
    ! grep -q '^box' "$WORK/out" && [ "$(wc -l < "$WORK/out")" -lt $((full / 3)) ]
ok $? "--summary: Runs: ext4 5, xfs 5, then a row per set and phase (mean, cv, runs, verdict, interval, runs for 5 %), $(wc -l < "$WORK/out") lines of $full" ||
    cat "$WORK/err" "$WORK/out" | diag
report --markdown --average --compare=ext4 "$@"
full=$(wc -l < "$WORK/out")
report --markdown --summary --average --compare=ext4 "$@"
[ "$rc" = 0 ] && [ "$(head -1 "$WORK/out")" = 'Runs: ext4 5, xfs 5' ] &&
    grep -qx '| set | phase | mean | cv | runs | vs ext4 | 95% interval | runs for 5% | latency | latency vs ext4 |' "$WORK/out" &&
    [ "$(grep -Ec '^\| (ext4|xfs) \|' "$WORK/out")" = 24 ] &&
    grep -q '^| xfs | Block write | 117m | 1.6% | 5 | \\+20% | \\+17..\\+23 | 4 |' "$WORK/out" &&
    [ "$(wc -l < "$WORK/out")" -lt 35 ]
ok $? "--markdown --summary: $(wc -l < "$WORK/out") lines (the tables: $full), the runs line, a table row per set and phase" ||
    diag < "$WORK/out"
report --html --summary --average --compare=ext4 "$@"
python3 - "$WORK/out" > "$WORK/cells" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    rows, row, cell, where = [], None, None, None
    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("class", "summary") in attrs: self.where = "t"
        if self.where and tag == "tr": self.row = []
        if self.row is not None and tag in ("td", "th"):
            self.cell = [dict(attrs).get("class", ""), ""]
    def handle_data(self, d):
        if self.cell is not None: self.cell[1] += d
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell); self.cell = None
        if tag == "tr" and self.row is not None:
            self.rows.append(self.row); self.row = None
        if tag == "table": self.where = None
p = P(); p.feed(open(sys.argv[1]).read())
for r in p.rows: print("|".join(c[1] + "@" + c[0] for c in r))
PY
[ "$rc" = 0 ] && grep -q '<p class="runs">Runs: ext4 5, xfs 5</p>' "$WORK/out" &&
    [ "$(wc -l < "$WORK/cells")" = 25 ] &&
    grep -q '^xfs@name|Block write@name|117m@|1.6%@|5@|+20%@better|+17..+23@|4@' "$WORK/cells" &&
    grep -q '^xfs@name|Block read@name|168m@|.*|-14%@worse|' "$WORK/cells" &&
    grep -q '^ext4@name|Block write@name|.*|base@base|' "$WORK/cells" &&
    grep -q '<p class="legend">k, m, g: KiB, MiB, GiB per second; cv: coefficient of variation; runs: ' "$WORK/out" &&
    ! grep -q "$(printf '\357\277\275')" "$WORK/out" && ! grep -q '<figure' "$WORK/out"
ok $? "--html --summary: the runs line and a table row per set and phase, the verdicts coloured" ||
    diag < "$WORK/cells"
# without --compare: the means alone, no verdict columns
report --summary --average "$@"
[ "$rc" = 0 ] && grep -Eq '^set +phase +mean +cv +runs +latency$' "$WORK/out" &&
    ! grep -q 'base\|vs ' "$WORK/out"
ok $? "--summary without --compare: set, phase, mean, cv, runs, latency" ||
    diag < "$WORK/out"
# --json: the same records (their compare objects hold all of it)
report --json --average --compare=ext4 "$@"
mv "$WORK/out" "$WORK/json"
report --json --summary --average --compare=ext4 "$@"
[ "$rc" = 0 ] && cmp -s "$WORK/json" "$WORK/out"
ok $? "--json --summary: the records of --json, unchanged"
# what --summary cannot go with: one line naming it, status 1, no output
for bad in "--summary" "--summary --average --csv" \
    "--summary --average --best" "--summary --average --latency"; do
	# shellcheck disable=SC2086
	report $bad "$@"
	[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] &&
	    [ "$(grep -c '^clyde report: --summary: ' "$WORK/err")" = 1 ] &&
	    [ "$(wc -l < "$WORK/err")" = 2 ]
	ok $? "clyde report $bad: refused in one line naming --summary, status 1" ||
	    diag < "$WORK/err"
done

# 6. the HTML page of the comparison.  ticks: every axis, in the unit of
# its cells, steps 1, 2 or 5 times a power of ten, each tick a multiple
# of it (100m 150m 200m, not 97.7m 146m 195m).  A chunk sweep of each set
# (chunk sizes 4k .. 64k, one a run) draws the line charts too.
ticks_round() {
	python3 - "$1" <<'PY'
import re, sys
from decimal import Decimal
page = open(sys.argv[1]).read()
svgs = re.findall(r'<svg.*?</svg>', page, re.S)
bad, axes = [], 0
for svg in svgs:
    ticks = re.findall(r'<text class="tick"[^>]*>([^<]*)</text>', svg)
    if not ticks:
        continue
    axes += 1
    vals = []
    for t in ticks:
        m = re.fullmatch(r'([0-9]+(?:\.[0-9]+)?)([kmg]?)', t)
        # zero is "0" in any unit, never "0k"
        if not m or (Decimal(m.group(1)) == 0 and m.group(2)):
            bad.append(t); continue
        vals.append((Decimal(m.group(1)), m.group(2) if t != "0" else None))
    units = {u for _, u in vals if u is not None}
    steps = {b[0] - a[0] for a, b in zip(vals, vals[1:])}
    if len(units) > 1 or len(steps) != 1:
        bad.append(" ".join(ticks)); continue
    step = steps.pop()
    mant = step.scaleb(-step.adjusted()).normalize()
    if mant not in (1, 2, 5) or any(v % step for v, _ in vals):
        bad.append(" ".join(ticks))
print(axes, "axes;", "bad:", bad if bad else "none")
sys.exit(1 if bad or axes == 0 else 0)
PY
}
for s in old new; do
	awk -F, -v OFS=, '{ split("4k 8k 16k 32k 64k", c, " "); $7 = c[NR]; print }' \
	    "$WORK/fast_$s.csv" > "$WORK/sweep_$s.csv"
done
for compat in 2.00 1.03; do
	report --html --compat=$compat --average --compare=ext4 ext4="$WORK/fast_old.csv" xfs="$WORK/fast_new.csv"
	cp "$WORK/out" "$WORK/sets.html"
	ticks_round "$WORK/sets.html" > "$WORK/ticks"
	ok $? "--compat=$compat, the sets panel: round ticks in the cells' unit ($(cat "$WORK/ticks"))" ||
	    diag < "$WORK/ticks"
	report --html --compat=$compat ext4="$WORK/sweep_old.csv" xfs="$WORK/sweep_new.csv"
	grep -c '<figure class="sweep">' "$WORK/out" > "$WORK/n"
	ticks_round "$WORK/out" > "$WORK/ticks"
	ok $? "--compat=$compat, $(cat "$WORK/n") sweep charts: round ticks in the cells' unit ($(cat "$WORK/ticks"))" ||
	    diag < "$WORK/ticks"
done
# a phase +++++ in every result is said where the charts start, not in a
# figure of no bars among the others; every figure draws something
report --html ext4="$WORK/fast_old.csv"
sed -n '/<h2>Charts<\/h2>/,$p' "$WORK/out" | sed -n 2p > "$WORK/first"
tr -d '\n' < "$WORK/out" | sed 's#</figure>#&\n#g' | grep '<figure' > "$WORK/figures"
grep -qx '<p class="unmeasured">Too fast to measure (+++++) in every result, so not charted: Sequential read.</p>' "$WORK/first" &&
    [ -s "$WORK/figures" ] && ! grep -v '<svg' "$WORK/figures" | grep -q .
ok $? "--html: Sequential read, +++++ in every run, said where the charts start; every figure a chart" ||
    cat "$WORK/first" | diag
# the sets panel keeps every set in every phase: ext4's Sequential read
# was +++++ in all 5 runs, xfs's in 2 of 5
tr -d '\n' < "$WORK/sets.html" | grep -o '<figure class="sets"><figcaption>Sequential read .*' |
    sed 's#</figure>.*##' > "$WORK/seqread"
grep -q '>ext4</text><text class="unmeasured"[^>]*>+++++ in all 5 runs: too fast to measure</text>' "$WORK/seqread" &&
    grep -q '>xfs</text><line' "$WORK/seqread"
ok $? "--html, the sets panel: ext4's Sequential read +++++ in all runs said in its row beside xfs's" ||
    diag < "$WORK/seqread"
# the runs needed, as in the text table: a row under each set's verdicts
report --html --average --compare=old old="$WORK/cv2_old.csv" new="$WORK/cv2_new.csv"
grep -q '<tr class="derived runs"><td class="name" colspan="2">runs for 1/5/10%</td><td colspan="[23]">[0-9]*/[0-9]*/[0-9]*</td>' "$WORK/out" &&
    ! grep -q 'too few runs to see a 5 % change: [^<]*put_block' "$WORK/out"
ok $? "--html: a row of the runs needed for 1/5/10 % under the verdicts" ||
    grep 'runs for' "$WORK/out" | diag
report --html --average --compare=old old="$WORK/cv2_old.csv" new="$WORK/cv2_two.csv"
grep -q '<td class="name" colspan="[0-9]*">too few runs to see a 5 % change: [^<]*put_block [0-9]* a set' "$WORK/out"
ok $? "--html: 2 runs against 5: too few runs to see a 5 % change, said" ||
    grep 'runs' "$WORK/out" | diag
# one form of the size label: the table's, as the text table writes it
report --html --average --compare=ext4 ext4="$WORK/long_old.csv" xfs="$WORK/long_new.csv"
grep -q '<td class="name">mean:ext4</td><td>768M:::200000</td>' "$WORK/out" &&
    ! grep -q '>768M<\|768M:8k' "$WORK/out"
ok $? "--html: the size label 768M:::200000, as the text table's" ||
    grep -o '<td>768M[^<]*' "$WORK/out" | sort | uniq -c | diag

# 11. --latency on what bonnie++ 2.00a users post: a 1.98 line's last
# twelve fields and a 2.00a table's Latency rows are each phase's slowest
# operation, printed as the line has them
phases='Per-char write,Block write,Rewrite,Per-char read,Block read,Random seeks,Sequential create,Sequential read,Sequential delete,Random create,Random read,Random delete'
for g in v2.00a_big v2.00a_default; do
	f=tests/fixtures/golden/$g.txt
	grep , "$f" | awk -F, -v phases="$phases" '{ split(phases, p, ",")
	    for (i = 1; i <= 12; i++) if ($(NF - 12 + i) != "")
	    printf "%-18s %12s\n", p[i], $(NF - 12 + i) }' > "$WORK/want"
	for kind in line table; do
		if [ $kind = line ]; then
			grep , "$f" > "$WORK/in"
		else
			grep -v -e '^###' -e , "$f" > "$WORK/in"
		fi
		report --latency "$WORK/in"
		sed -n '/^Phase  *Maximum$/,/^$/p' "$WORK/out" | sed '1d;$d' > "$WORK/got"
		[ "$rc" = 0 ] && [ -s "$WORK/want" ] && cmp -s "$WORK/want" "$WORK/got" &&
		    grep -q '^Maximum: the slowest operation of the phase' "$WORK/out" &&
		    ! grep -q '^No latency figures' "$WORK/out"
		ok $? "--latency on $g's $kind: the slowest operation of each phase, as bonnie++ 2.00a wrote it" ||
		    { diff "$WORK/want" "$WORK/got"; cat "$WORK/err"; } | diag
	done
done
grep , tests/fixtures/golden/v2.00a_big.txt > "$WORK/in"
report --latency --markdown "$WORK/in"
grep -qx '| Phase | Maximum |' "$WORK/out" && grep -qx '| Per-char write | 233ms |' "$WORK/out" &&
    grep -qx '| Random delete | 17426us |' "$WORK/out"
ok $? "--latency --markdown on a 1.98 line: a Phase and Maximum table" || diag < "$WORK/out"
report --html "$WORK/in"
grep -q '<tr><th>Per-char write</th><td>233ms</td></tr>' "$WORK/out"
ok $? "--html on a 1.98 line: its latency table" ||
    grep -A3 'class="latency"' "$WORK/out" | diag
grep , tests/fixtures/golden/v1.03e_default.txt > "$WORK/in"
report --latency "$WORK/in"
[ "$rc" = 0 ] && grep -q '^No latency figures: they are in clyde.s --json records and in CSV lines of$' "$WORK/out" &&
    ! grep -q '^Phase  *Maximum' "$WORK/out"
ok $? "--latency on a 1.03e line: no latency figures, said in one sentence" || diag < "$WORK/out"

done_testing
