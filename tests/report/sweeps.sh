#!/bin/sh
# clyde report on chunk sweeps: real bonnie++ 2.00a runs of one file size
# at three chunk sizes (tests/fixtures/sweep/INDEX.md) are recognised as a
# sweep and printed as one table by chunk size; --average, --compare per
# chunk size, --json's sweep key, and the line charts of --html in
# headless Chromium (skipped when it is not installed).
. "$(dirname "$0")/../lib.sh"

S=tests/fixtures/sweep
# the text tables alone: 2.00a's CSV line leaves io_chunk_size empty
# whatever the chunk, and a CSV line next to its table is the result
tables() { grep -hv '^1\.98,' "$@"; }
tables "$S/box.txt" >"$WORK/box"
tables "$S/disk.txt" >"$WORK/disk"
tables "$S/box_4g.txt" >"$WORK/box_4g"

# report ARGS...: sets $rc, $WORK/out, $WORK/err
report() {
	"$CLYDE" report "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}
# the names and size labels of the I/O rows, in order
labels() { awk '$3 ~ /^8G/ && $4 ~ /^[0-9]/ { print $1, $2, $3 }' "$WORK/out" | tr '\n' ' '; }

report --compat=1.03 "$WORK/box"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] &&
    [ "$(head -1 "$WORK/out")" = "box 8G: a sweep of 3 chunk sizes, 4k to 32k, 2 runs" ] &&
    [ "$(labels)" = "box #1 8G:4k box #2 8G:4k box #1 8G:8k box #2 8G:8k box #1 8G:32k box #2 8G:32k " ]
ok $? "six runs at 4k, 8k (the default) and 32k: one sweep, rows by chunk size, each its series and chunk" ||
    cat "$WORK/out" "$WORK/err" | diag
# the file test ran at the first chunk size only: it does not split the sweep
[ "$(grep -c '^ *1 +++++' "$WORK/out")" = 2 ] &&
    [ "$(grep -c '^Version' "$WORK/out")" = 1 ]
ok $? "the small-file rows of the 4k runs in the same table" ||
    diag < "$WORK/out"

# a rate of each row: the runs' own, read back in the order of the sweep
report --compat=2.00 "$WORK/box"
awk '$1 == "box" && $3 ~ /^8G/ && $4 ~ /^[0-9]/ { print $3, $4 }' "$WORK/out" >"$WORK/rows"
printf '%s\n' "8G:4k 192m" "8G:4k 294m" "8G:8k 377m" "8G:8k 194m" "8G:32k 832m" \
    "8G:32k 418m" >"$WORK/want"
cmp -s "$WORK/rows" "$WORK/want"
ok $? "2.00 rows: the block writes of the tables, 4k, 8k, 32k, each in its order read" ||
    diff "$WORK/want" "$WORK/rows" | diag

# not a sweep: another file size, another name
report "$WORK/box_4g" "$WORK/disk" "$WORK/box"
grep '^[a-z].*a sweep of\|^box  *4G' "$WORK/out" | awk '{ print $1, $2 }' |
    tr '\n' ' ' >"$WORK/rows"
[ "$rc" = 0 ] && [ "$(cat "$WORK/rows")" = "box 4G:32k disk 4G: box 8G: " ] &&
    grep -q '^disk 4G: a sweep of 3 chunk sizes, 4k to 32k$' "$WORK/out"
ok $? "box 4G alone first, no sweep; then disk and box 8G, each a sweep of its own" ||
    diag < "$WORK/out"

# --average: the mean of each chunk size after its runs, with its spread
report --average --compat=2.00 "$WORK/box"
awk '$1 ~ /^(box|mean:box)$/ { for (i = 2; i <= 3; i++) if ($i ~ /^8G:/ && $i !~ /:$/) print $1, $i }' "$WORK/out" | tr '\n' ' ' >"$WORK/rows"
[ "$(cat "$WORK/rows")" = "box 8G:4k box 8G:4k mean:box 8G:4k box 8G:8k box 8G:8k mean:box 8G:8k box 8G:32k box 8G:32k mean:box 8G:32k " ] &&
    [ "$(grep -c '^  min ' "$WORK/out")" = 4 ]
ok $? "--average: a mean per chunk size (the 4k files' too), each under its runs" ||
    diag < "$WORK/out"
report --json --average "$WORK/box"
pl 'my $recs = load($ARGV[0]);
for my $m (grep { defined $_->{average} } @$recs) {
	my @runs = grep { !defined $_->{average} &&
	    same($_->{io_chunk_size}, $m->{io_chunk_size}) } @$recs;
	check(@runs == 2, \@runs);
	for my $ph (qw(put_block rewrite get_block)) {
		my @rates = map { num($_->{tests}{$ph}{rate}) } @runs;
		check(same($m->{tests}{$ph}{rate}, round_even(($rates[0] + $rates[1]) / 2)),
		    $ph, $m, \@rates);
		my $sp = $m->{average}{spread}{$ph};
		check(same([$sp->{min}, $sp->{max}], [sort { $a <=> $b } @rates]), $ph, $sp);
	}
}' "$WORK/out"
ok $? "--average: each mean and its band are of the two runs of its chunk size" ||
    diag < "$WORK/err"

# --compare per chunk size: disk's 4k against box's 4k, and so on
report --compat=1.03 --compare=box "$WORK/box" "$WORK/disk"
grep -A1 '^disk  *4G' "$WORK/out" | grep '^  vs box' >"$WORK/pct"
[ "$rc" = 0 ] && [ "$(wc -l <"$WORK/pct")" = 3 ] &&
    [ "$(grep -c '^  vs box' "$WORK/out")" = 7 ]
ok $? "--compare=box: a row under each of disk's, and under box's second series and its 4k files" ||
    diag < "$WORK/out"
report --json --compare=box "$WORK/box" "$WORK/disk"
pl 'my $recs = load($ARGV[0]);
my %box;
for (grep { same($_->{name}, "box") && same($_->{sweep}{series}, 1) } @$recs) {
	$box{num($_->{io_chunk_size})} = num($_->{tests}{put_block}{rate});
}
for my $r (grep { same($_->{name}, "disk") } @$recs) {
	my $chunk = num($r->{io_chunk_size});
	check(exists $box{$chunk}, $chunk, \%box);
	my $want = round_even((num($r->{tests}{put_block}{rate}) / $box{$chunk} - 1) * 100);
	check(same($r->{compare}{percent}{put_block}, $want), $r, $want);
	check(same($r->{sweep}{index}, 1) && same($r->{sweep}{runs}, 1), $r->{sweep});
}
check(keys %box == 3, \%box)' "$WORK/out"
ok $? "--compare: each of disk's rates against box's first run at the same chunk size" ||
    diag < "$WORK/err"

report --json --compare=box "$WORK/box" "$WORK/box_4g"
pl 'my $recs = load($ARGV[0]);
my ($lone) = grep { same($_->{file_size}, "4G") } @$recs;
my ($base) = grep { same($_->{file_size}, "8G") && same($_->{io_chunk_size}, 32768) } @$recs;
check(defined $lone && defined $base, $recs);
check(!defined $lone->{sweep}, $lone->{sweep});
my $want = round_even((num($lone->{tests}{get_block}{rate}) /
    num($base->{tests}{get_block}{rate}) - 1) * 100);
check(same($lone->{compare}{percent}{get_block}, $want), $lone->{compare}, $want)' "$WORK/out"
ok $? "--compare: box 4G:32k, in no sweep, against the base sweep's 32k" ||
    head -50 "$WORK/out" | diag

# --json: the sweep key of every record, and of the means
report --json --average "$WORK/box"
pl 'my $recs = load($ARGV[0]);
my @runs = grep { !defined $_->{average} } @$recs;
my @means = grep { defined $_->{average} } @$recs;
check(@runs == 6 && @means == 3, scalar @runs, scalar @means);
for my $r (@$recs) {
	my $s = $r->{sweep};
	check(same($s->{index}, 0) && same($s->{chunks}, [4096, 8192, 32768]) &&
	    same($s->{runs}, 2), $s);
	check(num($s->{point}) >= 1 && $s->{point} <= @{$s->{chunks}}, $s);
	check(same($s->{chunks}[$s->{point} - 1], $r->{io_chunk_size}), $s, $r->{io_chunk_size});
}
my @pairs = sort { $a->[0] <=> $b->[0] || $a->[1] <=> $b->[1] }
    map { [num($_->{sweep}{point}), num($_->{sweep}{series})] } @runs;
check(same(\@pairs, [[1, 1], [1, 2], [2, 1], [2, 2], [3, 1], [3, 2]]), \@pairs);
check(same([map { $_->{sweep}{series} } @means], [undef, undef, undef]))' "$WORK/out"
ok $? "--json: sweep index, chunks, point, series and runs; a mean has no series" ||
    diag < "$WORK/err"

# --csv: every line as read, unchanged by the sweep
report --csv --compat=2.00 "$WORK/box" "$WORK/disk"
[ "$(grep -c '^1\.98,' "$WORK/out")" = 9 ]
ok $? "--csv: nine lines"

# --markdown: the same tables, under a bold heading
report --markdown "$WORK/box"
grep -q '^\*\*box 8G: a sweep of 3 chunk sizes, 4k to 32k, 2 runs\*\*$' "$WORK/out" &&
    [ "$(grep -c '^| box #[12] | 8G' "$WORK/out")" = 6 ]
ok $? "--markdown: the sweep's heading and rows" || diag < "$WORK/out"

# --- the line charts, in a real browser
browser=$(command -v chromium || command -v chromium-browser)
needs_all "${browser:-chromium}" chromium 3
needs_all python3 python3 3
# chrome [PAGE [dom=FILE] [shot=FILE] [size=W,H]]...: the pages in one
# headless browser, no network (tests/tools/browser.py: a browser costs seconds
# to start); its messages, the console's among them, on stderr
chrome() { timeout 120 python3 tests/tools/browser.py "$browser" "$WORK/profile" "$@"; }
# charts DOM: per sweep chart "TITLE lines POINTS-PER-LINE bands", one a line
charts() {
	python3 -c '
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts, self.cap = [], False
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "figure" and a.get("class") == "sweep":
            self.charts.append(["", [], 0])
            self.cap = True
        elif tag == "polyline" and self.charts:
            self.charts[-1][1].append(len(a["points"].split()))
        elif tag == "polygon" and self.charts:
            self.charts[-1][2] += 1
    def handle_endtag(self, tag):
        if tag == "figcaption":
            self.cap = False
    def handle_data(self, d):
        if self.cap and self.charts:
            self.charts[-1][0] += d
p = P()
p.feed(open(sys.argv[1]).read())
for t, lines, bands in p.charts:
    print(t.split(" by ")[0], len(lines), ",".join(map(str, lines)), bands)
' "$1"
}

# the page of both sweeps, and its line charts alone on a page of their
# own, for a screenshot of the first (a small image, decoded here in
# Python); the browser builds the DOM of the one, takes the screenshot of
# the other
"$CLYDE" report --html "$WORK/box" "$WORK/disk" >"$WORK/page.html"
python3 -c '
import re, sys
page = open(sys.argv[1]).read()
figs = re.findall(r"<figure class=\"sweep\">.*?</figure>", page, re.S)
print("<!DOCTYPE html><html><body style=\"margin:0\">" + "".join(figs) +
      "</body></html>")
' "$WORK/page.html" >"$WORK/charts.html"
chrome "$WORK/page.html" dom="$WORK/dom" \
    "$WORK/charts.html" shot="$WORK/page.png" size=560,380 2>"$WORK/browser.err"

# disk's seeks were +++++ at 4k and 32k: no points there
printf '%s\n' "Block write 3 3,3,3 0" "Rewrite 3 3,3,3 0" "Block read 3 3,3,3 0" \
    "Random seeks 3 3,3,1 0" >"$WORK/want"
charts "$WORK/dom" >"$WORK/charts"
cmp -s "$WORK/charts" "$WORK/want" && ! grep -q CONSOLE "$WORK/browser.err"
ok $? "--html in the browser: a chart per phase, a line per series (box twice, disk), three points each" ||
    cat "$WORK/charts" "$WORK/browser.err" | diag

# box's two runs: a mean in a band; disk's one: its line, no band (the
# page itself)
printf '%s\n' "Block write 2 3,3 1" "Rewrite 2 3,3 1" "Block read 2 3,3 1" \
    "Random seeks 2 3,1 1" >"$WORK/want"
"$CLYDE" report --html --average "$WORK/box" "$WORK/disk" >"$WORK/average.html"
charts "$WORK/average.html" >"$WORK/charts"
cmp -s "$WORK/charts" "$WORK/want"
ok $? "--html --average: box's mean line in its min-max band, disk's one run" ||
    diag < "$WORK/charts"

# the charts are drawn: the screenshot of the first line chart has
# pixels of the third line's colour, disk's #b8860b
n=$(python3 -c '
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride, prev, count, i = zlib.decompress(idat), w * bpp, None, 0, 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    prev = prev or bytearray(stride)
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    count += sum(1 for x in range(0, stride, bpp) if line[x:x + 3] == b"\xb8\x86\x0b")
    prev = line
print(count)
' "$WORK/page.png" 2>"$WORK/png.err")
[ "${n:-0}" -gt 100 ]
ok $? "the screenshot: $n pixels of disk's line colour in the block write chart" ||
    cat "$WORK/browser.err" "$WORK/png.err" | tail -5 | diag

done_testing
