#!/bin/sh
# clyde report as a new user meets it: a --chunks run's own standard
# output read back is its sweep and nothing more; every row and bar of a
# sweep names its chunk size and can be told apart; the HTML page says
# where its results came from, in the units its cells show, and keeps
# its tables within a 1200-pixel window and an A4 page.
. "$(dirname "$0")/../lib.sh"

# report ARGS...: sets $rc, $WORK/out, $WORK/err
report() {
	"$CLYDE" report "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}

# A --chunks run of five chunk sizes, its stdout kept as a user keeps it,
# in each profile.  The name is longer than the label leaves room for, so
# that the rows' names are cut, each to its own width.  Without per-char
# (-f): in 2.00 a system call per byte, seconds per point, and nothing
# the rows are told apart by.
NAME=tmpfs-machine
for p in 1.03 2.00; do
	t=$(fresh_target)
	"$CLYDE" --compat=$p -d "$t" $AS_USER -m $NAME -r 0 -s 64 -f -n 0 \
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
	pl 'my $recs = load($ARGV[0]);
check(@$recs == 5, scalar @$recs);
check(same($_->{source}, "csv") && same($_->{name}, $ARGV[1]), $recs) for @$recs;
check(same([sort { $a <=> $b } map { num($_->{io_chunk_size}) } @$recs],
    [4096, 8192, 16384, 32768, 65536]))' "$WORK/out" "$NAME" 2>"$WORK/err"
	ok $? "$p: --json, five records, one per chunk size, from the CSV lines" ||
	    diag < "$WORK/err"
done

# the CSV lines first, the table after (bonnie++ -q writes the table on
# stderr): the same five results
for p in 1.03 2.00; do
	{ grep , "$WORK/sweep$p"; grep -v , "$WORK/sweep$p"; } >"$WORK/flipped"
	report --json "$WORK/flipped"
	pl 'my $recs = load($ARGV[0]); check(@$recs == 5, scalar @$recs)' "$WORK/out"
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

report --markdown --compat=1.03 --average "$WORK/twice"
grep '^| [^|]* | 64M' "$WORK/out" | cut -d'|' -f2,3 >"$WORK/rows"
[ "$(wc -l < "$WORK/rows")" = 18 ] && [ -z "$(sort "$WORK/rows" | uniq -d)" ] &&
    grep -q '^ ext4-buffered #2 | 64M:8k $' "$WORK/rows"
ok $? "--markdown: eighteen rows, each its name, series and chunk, none alike" ||
    diag < "$WORK/out"

report --html --average "$WORK/twice"
grep -q '<td class="name">ext4-DIRECT #2</td><td>64M:8k::1000</td>' "$WORK/out"
ok $? "--html: a sweep's table row says its series and its chunk, 8k too, in the text table's form" ||
    grep 'ext4-DIRECT' "$WORK/out" | head -5 | diag

# the bars, of real bonnie++ 2.00a tables: box's sweep run twice at 4k,
# 8k and 32k, and disk's once (tests/fixtures/sweep/INDEX.md)
S=tests/fixtures/sweep
grep -hv '^1\.98,' "$S/box.txt" "$S/disk.txt" >"$WORK/bars"
report --html "$WORK/bars"
pl 'my @charts;
my $page = slurp($ARGV[0]);
push @charts, [$1, $2] while $page =~ m{<figure><figcaption>([^<]*)</figcaption>\s*(<svg.*?)</figure>}sg;
my %io = map { $_ => 1 } "Block write", "Rewrite", "Block read", "Random seeks";
my @io = grep { $io{(split / \(/, $_->[0])[0] // ""} } @charts;
check(@io == 4, [map { $_->[0] } @charts]);
for (@io) {
	my ($title, $svg) = @$_;
	my @labels = $svg =~ /text-anchor="end">([^<]*)<\/text>/g;
	my %seen = map { $_ => 1 } @labels;
	check(@labels == 9 && keys %seen == 9, $title, \@labels);
	check($seen{"box #2 8G:8k"} && $seen{"disk 4G:32k"}, \@labels);
	check(!grep({ !/ [48]G:(4k|8k|32k)$/ } @labels), \@labels);
}' "$WORK/out" 2>"$WORK/err"
ok $? "--html: every bar of a sweep says its name, series and chunk, none alike" ||
    diag < "$WORK/err"

# --- the HTML page: real bonnie++ results of 1.0x, 1.97 and 2.00a, with
# latencies (twenty columns a section), compared with spyder's
C=tests/fixtures/corpus
pages_in="tests/fixtures/dameth_rrobin.txt $C/m006_2.00_nfs_SERVER_CLIENT_linux-nfs_QPdecoded.txt $C/m003_1.02c_galaxy_lkml_wrapped.txt $C/g001_1.97_wifo3-02_laura-dietz_wifo3-2.txt"
# shellcheck disable=SC2086
SOURCE_DATE_EPOCH=86400 "$CLYDE" report --html --compat=2.00 --compare=spyder \
    $pages_in >"$WORK/page.html" 2>"$WORK/err"
version=$("$CLYDE" --version | sed -n '1s/.* //p')
origin=$(grep '<p class="origin">' "$WORK/page.html")
ok=0
for f in $pages_in; do
	case $origin in *"$f"*) ;; *) ok=1 ;; esac
done
case $origin in
*"Made 1970-01-02 00:00 UTC by clyde $version report, in the bonnie++ 2.00a layout (--compat=2.00); CSV generations 1.0x, 1.98, 1.97."*) ;;
*) ok=1 ;;
esac
ok $ok "--html says where its results came from: the files, the date made, the clyde version, the layout, the generations" ||
    echo "$origin" | diag

# LABEL=FILE: the files read, each with its label, not the labels alone;
# JSON records are said to be JSON, not a CSV generation
awk -v name=box -v set=old -v format=1.98 -f tests/tools/sets.awk > "$WORK/ext4.csv"
"$CLYDE" report --json "$WORK/ext4.csv" > "$WORK/ext4.json"
report --html --average ext4="$WORK/ext4.csv" xfs="$WORK/ext4.json"
origin=$(grep '<p class="origin">' "$WORK/out")
case $origin in
*"Read from $WORK/ext4.csv (as ext4), $WORK/ext4.json (as xfs). "*"; CSV generation 1.98 and 5 results from clyde's JSON records."*) ok=0 ;;
*) ok=1 ;;
esac
ok $ok "--html with LABEL=FILE: the files read with their labels; the JSON input said to be JSON" ||
    echo "$origin" | diag
report --html "$WORK/ext4.json"
grep '<p class="origin">' "$WORK/out" > "$WORK/origin"
grep -q "; 5 results from clyde's JSON records.</p>" "$WORK/origin" &&
    ! grep -q 'CSV generation' "$WORK/origin"
ok $? "--html of JSON records alone: no CSV generation said of them" ||
    diag < "$WORK/origin"
report --markdown "$WORK/ext4.json"
[ "$(tail -1 "$WORK/out")" = "clyde's JSON records: 5" ] && ! grep -q 'CSV generation' "$WORK/out"
ok $? "--markdown of JSON records: says so, not a CSV generation" ||
    tail -3 "$WORK/out" | diag

# 2.00's cells carry their unit (124m, 1.1g): no "KiB per second" beside
# them; 1.03's cells are KiB/s and say so
grep -q '>1\.0g<' "$WORK/page.html" && ! grep -q 'KiB per second' "$WORK/page.html" &&
    grep -q 'Large-file rates per second with their unit, as bonnie++ 2.00a prints them: k is KiB, m MiB, g GiB' "$WORK/page.html" &&
    grep -q '<figcaption>Block write (per second; k KiB, m MiB, g GiB)</figcaption>' "$WORK/page.html" &&
    "$CLYDE" report --html tests/fixtures/dameth_rrobin.txt >"$WORK/page103.html" &&
    grep -q '<figcaption>Block write (KiB per second)</figcaption>' "$WORK/page103.html" &&
    grep -q 'Large-file rates in KiB per second' "$WORK/page103.html" &&
    ! grep -q '<td[^>]*>[0-9.]*[kmg]</td>' "$WORK/page103.html"
ok $? "--html: the units said are the units of the cells, in each layout"

# --compare rows: each percentage coloured, as the verdicts of sets are
grep -q '<tr class="compare"><td class="name" colspan="2">vs spyder</td>' "$WORK/page.html" &&
    ! grep -q '<tr class="derived"><td class="name" colspan="2">vs ' "$WORK/page.html" &&
    grep -q '<td class="better">+2661%</td>' "$WORK/page.html" &&
    grep -q '<td class="worse">-97%</td>' "$WORK/page.html" &&
    grep -q '<td class="same">0%</td>' "$WORK/page.html"
ok $? "--html --compare: a row of percentages coloured better, worse or the same, not grey italics" ||
    grep 'vs spyder' "$WORK/page.html" | head -3 | diag

# a chart whose every result is +++++: not drawn as bars of 0 nor as a
# figure of its own among the charts, but named in one line where they
# start (the small files of box's runs at 4k, real bonnie++ 2.00a tables)
grep -v '^1\.98,' tests/fixtures/sweep/box.txt >"$WORK/box"
report --html "$WORK/box"
pl 'my $page = slurp($ARGV[0]);
my %figs = $page =~ m{<figure><figcaption>([^<(]*) \(.*?</figcaption>(.*?)</figure>}sg;
my ($line) = $page =~ m{<h2>Charts</h2>\n(<p class="unmeasured">[^\n]*)\n<figure>};
check(defined $line, "no line where the charts start");
for my $title ("Sequential create", "Sequential read", "Random delete") {
	check(!defined $figs{$title}, $title);
	check(index($line, $title) >= 0, $line);
}
check(index($line, "Too fast to measure (+++++) in every result, so not charted: ") >= 0, $line);
check(defined $figs{"Block write"} && index($figs{"Block write"}, "<rect") >= 0,
    $figs{"Block write"})' "$WORK/out" 2>"$WORK/err"
ok $? "--html: the charts of nothing but +++++ named in one line where the charts start, no figure of no bars" ||
    diag < "$WORK/err"

# --- a file with no result in it is named, exit 1: another tool's output,
# an empty input; beside a file of results those are still printed
printf '1024+0 records in\n1024+0 records out\n1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.1 s, 511 MB/s\n' >"$WORK/dd.txt"
report "$WORK/dd.txt"
[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] &&
    [ "$(cat "$WORK/err")" = "$WORK/dd.txt: no bonnie++ results found" ]
ok $? "a file of dd's output: 'no bonnie++ results found', exit 1, nothing printed" ||
    diag <"$WORK/err"
"$CLYDE" report </dev/null >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 1 ] && [ "$(cat "$WORK/err")" = "the standard input: no bonnie++ results found" ]
ok $? "an empty standard input: named, exit 1" || diag <"$WORK/err"
report --csv tests/fixtures/dameth_rrobin.txt "$WORK/dd.txt"
[ "$rc" = 1 ] && grep -q '^spyder,1G,' "$WORK/out" &&
    [ "$(cat "$WORK/err")" = "$WORK/dd.txt: no bonnie++ results found" ]
ok $? "beside a file of results, the file without any is named and the results printed, exit 1" ||
    diag <"$WORK/err"

# --- the context of each run's rows under its tables (HTML, Markdown):
# filesystem, mount options, profile, -b/-D, host, from clyde's JSON; a
# bonnie++ CSV or table carries none, and none is made up
t=$(fresh_target)
"$CLYDE" --compat=2.00 -d "$t" $AS_USER -m ctxplain -r 0 -s 4 -f -n 0 -q \
    --json="$WORK/plain.json" >/dev/null 2>"$WORK/err" &&
    "$CLYDE" --compat=1.03 -d "$t" $AS_USER -m ctxsync -r 0 -s 4 -f -n 0 -q -b \
    --json="$WORK/sync.json" >/dev/null 2>>"$WORK/err"
ok $? "two JSON runs, one with -b" || diag <"$WORK/err"
"$CLYDE" report --markdown "$WORK/plain.json" "$WORK/sync.json" >"$WORK/ctx.md" &&
    "$CLYDE" report --html "$WORK/plain.json" "$WORK/sync.json" >"$WORK/ctx.html"
# the latency tables' titles give the size label of the result's table
# row, not a form of their own (4M:8k)
grep -o '<caption>ctxplain ([^)]*)' "$WORK/ctx.html" | sed 's/.*(//; s/)$//' > "$WORK/lat_label"
tr -d '\n' < "$WORK/ctx.html" | grep -o '<td class="name">ctxplain</td><td>[^<]*' |
    sed 's/.*<td>//' | sort -u > "$WORK/row_label"
[ -s "$WORK/lat_label" ] && [ "$(sort -u "$WORK/lat_label")" = "$(cat "$WORK/row_label")" ]
ok $? "--html: the latency table's size label is the table row's ($(cat "$WORK/row_label"))" ||
    cat "$WORK/lat_label" "$WORK/row_label" | diag
pl 'sub expected {
	my $rec = load($_[0]);
	$rec = $rec->[0] if ref $rec eq "ARRAY";
	my ($t, $h) = ($rec->{target}, $rec->{host});
	my @want = ("--compat=" . $rec->{compat}, "host " . $h->{name},
	    "Linux " . $h->{kernel}, $h->{cpu});
	# the filesystem, when a mount holds the target (fs_known)
	if ($ARGV[4]) {
		unshift @want, $t->{fstype}, $t->{mount_options};
	} else {
		check(!defined $t->{fstype} && !defined $t->{mount_options}, $t);
	}
	check(kind($_) eq "string", \@want) for @want;
	return @want;
}
my ($md, $html) = (slurp($ARGV[2]), slurp($ARGV[3]));
my (@md, @html);
push @md, [$1, $2] while $md =~ /^- \*\*(ctx\w+)\*\*: (.*)$/mg;
check(same([map { $_->[0] } @md], ["ctxplain", "ctxsync"]), \@md);
my @lists = $html =~ m{<ul class="context">(.*?)</ul>}sg;
check(@lists == 1, \@lists); # -n 0: the large-file table only
push @html, [$1, $2] while $lists[0] =~ m{<li><b>(ctx\w+)</b>: (.*?)</li>}g;
check(same([map { $_->[0] } @html], ["ctxplain", "ctxsync"]), \@html);
check(index($html, "<h2>Large file</h2>") >= 0 &&
    index($html, "<ul class=\"context\">") > index($html, "<h2>Large file</h2>"));
for my $i (0, 1) {
	(my $unescaped = $md[$i][1]) =~ s/\\(.)/$1/g;
	for my $text ($unescaped, $html[$i][1]) {
		for my $part (expected($ARGV[$i])) {
			check(index($text, $part) >= 0, $part, $text);
		}
		my $sync = $i == 1;
		check((index($text, "-b (fsync)") >= 0) == $sync, $text);
		check((index($text, "without -b or -D") >= 0) == !$sync, $text);
	}
}' "$WORK/plain.json" "$WORK/sync.json" "$WORK/ctx.md" "$WORK/ctx.html" \
    "$(fs_known "$WORK" && echo known)" 2>"$WORK/err"
ok $? "--markdown and --html: under the table, each run's filesystem, mount options, profile, -b, host as its JSON has them" ||
    { diag <"$WORK/err"; diag <"$WORK/ctx.md"; }

"$CLYDE" report --markdown tests/fixtures/dameth_rrobin.txt >"$WORK/noctx.md" &&
    "$CLYDE" report --html tests/fixtures/dameth_rrobin.txt >"$WORK/noctx.html" &&
    ! grep -q '^- ' "$WORK/noctx.md" && ! grep -q 'class="context"' "$WORK/noctx.html"
ok $? "a bonnie++ table carries no context: none is listed"

# --- in a real browser: the tables within 1200 pixels, and within an A4
# page's 190 mm between its margins (718 CSS pixels) in the print styles.
# A script added to a copy of the page puts the widths in its title.
browser=$(command -v chromium || command -v chromium-browser)
needs_all "${browser:-chromium}" chromium 4
# widths PAGE WIDTH,HEIGHT: "scrollWidth tablesRight" as laid out
widths() {
	sed 's|</body>|<script>document.title = document.documentElement.scrollWidth + " " + Math.ceil(Math.max(...[...document.querySelectorAll("table")].map(t => t.getBoundingClientRect().right)))</script></body>|' \
	    "$1" >"$WORK/measure.html"
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --no-first-run \
	    --user-data-dir="$WORK/profile" --window-size="$2" --dump-dom \
	    "file://$WORK/measure.html" 2>/dev/null |
	    sed -n 's|.*<title>\([0-9]* [0-9]*\)</title>.*|\1|p'
}
set -- $(widths "$WORK/page.html" 1200,900)
[ "${2:-9999}" -le 1200 ] && [ "${1:-9999}" -le 1200 ]
ok $? "at 1200 pixels the tables fit, no horizontal scroll (page ${1:-?} px, tables end at ${2:-?} px)"

grep -q '@media print{' "$WORK/page.html" && grep -q '@page{size:A4;margin:10mm}' "$WORK/page.html" &&
    sed 's/@media print{/@media all{/' "$WORK/page.html" >"$WORK/print.html"
set -- $(widths "$WORK/print.html" 718,1000)
[ "${2:-9999}" -le 718 ] && [ "${1:-9999}" -le 718 ]
ok $? "on A4 (the print styles at 718 pixels) the tables fit (page ${1:-?} px, tables end at ${2:-?} px)"

# a comparison of two sets of 5 runs in the 2.00a layout, with latency
# columns, verdicts, intervals and the runs each set needs (widened its
# rate columns past 1200 pixels once), within 1200 and on A4 too
for set in old new; do
	awk -v name=box -v set=$set -v format=1.98 -f tests/tools/sets.awk |
	    awk -F, -v OFS=, '{ $6 = "1G"; $8 = 40000; $22 = 128; $23 = 4096;
	    $24 = 0; $25 = 16; print }' > "$WORK/cmp_$set.csv"
done
"$CLYDE" report --html --average --compare=ext4 ext4="$WORK/cmp_old.csv" \
    xfs="$WORK/cmp_new.csv" > "$WORK/cmp.html" &&
    grep -q 'runs for 1/5/10%' "$WORK/cmp.html" &&
    sed 's/@media print{/@media all{/' "$WORK/cmp.html" > "$WORK/cmp_print.html"
set -- $(widths "$WORK/cmp.html" 1200,900) $(widths "$WORK/cmp_print.html" 718,1000)
[ "${2:-9999}" -le 1200 ] && [ "${1:-9999}" -le 1200 ] &&
    [ "${4:-9999}" -le 718 ] && [ "${3:-9999}" -le 718 ]
ok $? "a comparison of two sets with latencies and runs needed fits 1200 pixels (tables end at ${2:-?} px) and A4 (${4:-?} px)"

timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
    --disable-background-networking --no-first-run \
    --user-data-dir="$WORK/profile" --window-size=1200,900 \
    --screenshot="$WORK/page.png" "file://$WORK/page.html" >/dev/null 2>&1
[ -s "$WORK/page.png" ]
ok $? "a screenshot at 1200x900"

done_testing
