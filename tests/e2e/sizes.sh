#!/bin/sh
# --sizes: one command, many file sizes, as iozone -a sweeps them; with
# --chunks, every file size by every chunk size.  The values refused (a
# refused -s names the -s that is taken, which then runs), a
# sweep of 3 sizes by 2 chunks whose 6 lines bonnie++ 2.00a's
# bon_csv2html takes, its JSON records, -D and SIGINT at a later point,
# and clyde report's table and chart of the sweep.
. "$(dirname "$0")/../lib.sh"

# refused OPT VALUE WHY [ARGS...]: exit 1, one line naming OPT and the
# value, the hint, nothing made
refused() {
	o=$1 v=$2 why=$3
	shift 3
	run -n 0 "$@"
	[ "$rc" = 1 ] && [ "$(wc -l <"$WORK/err")" = 2 ] &&
	    head -1 "$WORK/err" | grep -qF -- "clyde: $o $v: $why" &&
	    is_empty "$t" && [ ! -s "$WORK/out" ]
	ok $? "$o $v $*: refused, $why" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
}
refused --sizes 1,,4 "an empty file size (file sizes go between commas)" --sizes=1,,4
refused --sizes 1,1m "a file size is given twice" --sizes=1,1m
refused --sizes 0,4 "a file size must be whole MiB from 1m to 1000g" --sizes=0,4
refused --sizes 4..1 "a range goes from the smaller size up (1m..1g)" --sizes=4..1
refused --sizes 1..4 "the file size is given twice (-s 8 gives one)" --sizes=1..4 -s 8
refused --chunks 4k,2m "a chunk size is larger than the smallest file of --sizes (1M)" \
    --sizes=1,4 --chunks=4k,2m
refused -s :4k "an empty size goes with --sizes only" -s :4k
refused --latency-over 50ms,5x "a threshold is a whole number of ns, us, ms or s" \
    --latency-over=50ms,5x -s 1
refused --latency-over , "an empty threshold (thresholds go between commas)" \
    --latency-over=, -s 1
refused --latency-over 1ns "a threshold is a whole number" --latency-over=1ns -s 1
refused --latency-over 1ms,1000us "a threshold is given twice" \
    --latency-over=1ms,1000us -s 1
# a -s that --sizes or --chunks refuses names the -s they take, built of
# the user's own fields, and that -s runs: the hints lead out, not round
for c in "--sizes=1,2 --chunks=4k,8k|16|::500" \
    "--sizes=1,2 --chunks=4k,8k|16:4k:500|::500" \
    "--sizes=1,2 --chunks=4k,8k|:4k:500|::500" \
    "--sizes=1,2|16|:4k:500" "--sizes=1,2|16:4k:500|:4k:500" \
    "--chunks=4k,8k|16:4k:500|16::500" "--chunks=4k,8k|2:4k|2"; do
	sweep=${c%%|*} rest=${c#*|}
	given=${rest%|*} want=${rest#*|}
	run -n 0 $sweep -s "$given"
	hint=$(head -1 "$WORK/err" | sed -n 's/.* gives one): .*-s \([^ )]*\))*$/\1/p')
	[ "$rc" = 1 ] && [ "$hint" = "$want" ] && is_empty "$t"
	ok $? "$sweep -s $given: refused, the hint names -s $want" ||
	    { echo "rc=$rc hint=$hint"; cat "$WORK/err"; } | diag
	run -n 0 -f $sweep -s "$hint"
	[ "$rc" = 0 ] && [ "$(grep -c , "$WORK/out")" -ge 2 ] && is_empty "$t"
	ok $? "$sweep -s $hint, as the hint says: it runs" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
done
# the RAM rule of -s holds for each size: the smallest below twice -r's
run -r 64 -n 0 --sizes=256,64
[ "$rc" = 1 ] &&
    head -1 "$WORK/err" | grep -q '^clyde: --sizes 256,64: file size 64M should be double RAM' &&
    is_empty "$t"
ok $? "--sizes=256,64 -r 64: the RAM rule refuses the 64M point" || diag < "$WORK/err"
"$CLYDE" --help | grep -q -- '--sizes=LIST' && "$CLYDE" --help | grep -q -- '--latency-over=LIST'
ok $? "--help names --sizes and --latency-over"

# The sweep of 3 file sizes by 2 chunk sizes: 6 lines, file size by file
# size, each size's chunks in --chunks's order; 100 seeks (-s ::100);
# --precise: rates, not +++++, for the report's tables and charts
csv_lines() { grep '^1\.98,' "$WORK/out"; }
run --compat=2.00 -n 0 -f -s ::100 --sizes=1m,4m,2 --chunks=64k,4k \
    --precise --json="$WORK/s.json"
cp "$WORK/out" "$WORK/s.out"
cp "$WORK/err" "$WORK/s.err"
[ "$rc" = 0 ] && [ "$(csv_lines | wc -l)" = 6 ] &&
    [ "$(csv_lines | cut -d, -f6,7 | tr '\n' ' ')" = "1M,64k 1M,4k 4M,64k 4M,4k 2M,64k 2M,4k " ] &&
    [ "$(csv_lines | cut -d, -f8 | sort -u)" = 100 ] &&
    [ "$(grep -cE '^host +(1M|2M|4M):(4k|64k)::100 ' "$WORK/out")" = 6 ] && is_empty "$t"
ok $? "--sizes=1m,4m,2 --chunks=64k,4k: 6 rows and 6 lines, by file size, then chunk" ||
    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; } | diag
# the progress lines name each point; the page-cache line names the sizes
[ "$(grep -c '^File size [124]M, chunk size \(4k\|64k\) ([1-6]/6):$' "$WORK/s.err")" = 6 ] &&
    grep -q '^clyde: --sizes: the page cache (RAM [0-9]*M) holds the file sizes 1M, 4M, 2M: their figures measure memory, not the disk$' "$WORK/s.err"
ok $? "a progress line per point; the sizes that fit in the page cache said" ||
    diag < "$WORK/s.err"
pl 'my $r = load($ARGV[0]);
check(ref $r eq "ARRAY" && @$r == 6, $r);
my @pts = ([1, 65536], [1, 4096], [4, 65536], [4, 4096], [2, 65536], [2, 4096]);
for my $i (0 .. $#$r) {
	my ($x, $mib, $chunk) = ($r->[$i], @{$pts[$i]});
	check(same($x->{sweep}, {chunks => [65536, 4096], sizes_mib => [1, 4, 2],
	    point => $i + 1}), $x->{sweep});
	check(same($x->{file_size_mib}, $mib) && same($x->{io_chunk_size}, $chunk), $x);
	# each point on its own file, one timed write per chunk of it
	my $lat = $x->{phases}{put_block}{latency_ns};
	check(same($lat->{count}, int(($mib << 20) / $chunk)), $i, $lat);
	check(same($x->{phases}{put_block}{bytes}, $mib << 20), $i);
}' "$WORK/s.json" 2>"$WORK/err"
ok $? "--json: 6 records, the sweep's sizes and chunks, each point at its own size" ||
    diag < "$WORK/err"
csv_lines >"$WORK/s.csv"
csv2html_each "$WORK/s.csv"
[ $n = 6 ] && [ $good = 6 ]
ok $? "bon_csv2html takes each of the 6 lines" || diag < "$WORK/err"

# clyde report: the 6 lines are one sweep of two axes; the text has per
# phase a table of 3 file sizes down by 2 chunk sizes across, the page
# a chart per phase with a line of 3 points per chunk size
"$CLYDE" report "$WORK/s.csv" >"$WORK/r.txt" 2>"$WORK/err" &&
    "$CLYDE" report --html "$WORK/s.csv" >"$WORK/r.html" 2>>"$WORK/err" &&
    "$CLYDE" report --markdown "$WORK/s.csv" >"$WORK/r.md" 2>>"$WORK/err" &&
    "$CLYDE" report --json "$WORK/s.csv" >"$WORK/r.json" 2>>"$WORK/err"
r=$?
pl 'my $r = load($ARGV[0]);
check(same([map { $_->{sweep}{index} } @$r], [(0) x 6]), $r);
my $page = slurp($ARGV[1]);
my @figs = $page =~ m{<figure class="grid">.*?</figure>}sg;
check(@figs == 4, scalar @figs);
for my $f (@figs) {
	my @lines = $f =~ /<polyline[^>]* points="([^"]*)"/g;
	check(@lines == 2, $f);
	for (@lines) {
		my @xs = map { (split /,/)[0] } split;
		check(!grep({ !/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/ } @xs), \@xs);
		# 1M, 2M, 4M: evenly spaced on the log axis, ascending
		check(@xs == 3 && abs(($xs[1] - $xs[0]) - ($xs[2] - $xs[1])) < 0.2, \@xs);
	}
	check(index($f, "chunk size 4k") >= 0 && index($f, "chunk size 64k") >= 0, $f);
	check(index($f, "file size (log scale)") >= 0);
}
check($page !~ /<figure class="sweep">/)' "$WORK/r.json" "$WORK/r.html" 2>>"$WORK/err"
[ $? = 0 ] && [ $r = 0 ] &&
    grep -q '^host: a sweep of 3 file sizes, 1M to 4M, by 2 chunk sizes, 4k to 64k$' "$WORK/r.txt" &&
    grep -q '^Block write, K/s (file size down, chunk size across)$' "$WORK/r.txt" &&
    [ "$(sed -n '/^Block write, K\/s/,/^$/p' "$WORK/r.txt" | awk 'NR == 2 { print $3, $4 } NR > 2 && NF { printf "%s ", $1 }')" = "4k 64k
1M 2M 4M " ] &&
    grep -q '^| File size | 4k | 64k |$' "$WORK/r.md"
ok $? "clyde report: one sweep of 3 file sizes by 2 chunks, a grid per phase in text and Markdown, a line per chunk in 4 charts" ||
    { cat "$WORK/r.txt" "$WORK/err"; } | diag
# each grid cell is the rate of its line
line=$(grep '^1\.98,[^,]*,[^,]*,[^,]*,[^,]*,2M,64k,' "$WORK/s.csv")
put=$(field "$line" 12)
case $put in
*+*) ok 0 "the 2M 64k block write was too fast to compare (+++++)" ;;
*)
	want=$(awk -v r="$put" 'BEGIN { u = substr(r, length(r)); v = r + 0;
	    if (u == "k") v = v; else if (u == "m") v *= 1024; else if (u == "g") v *= 1048576;
	    print v }')
	got=$(sed -n '/^Block write, K\/s/,/^$/p' "$WORK/r.txt" | awk '$1 == "2M" { print $3 }')
	# the line rounds to 3 digits with a unit: within 1 %
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(a > 0 && (a - b) / b < 0.01 && (b - a) / b < 0.01) }'
	ok $? "the grid's 2M 64k block write is the line's ($put)" ||
	    { echo "got=$got want=$want"; cat "$WORK/r.txt"; } | diag
	;;
esac

# SIGINT at the third point (4M at 64k): exit 5, nothing left, the two
# points that ended printed; -D leaves out a chunk the filesystem refuses
# at every size, said once
t=$(fresh_target)
CLYDE_TEST_SIGNAL_PHASE=rewrite:3 "$CLYDE_HOOKS" -d "$t" $AS_USER -r 0 \
    --compat=2.00 -s ::100 -f -n 0 --sizes=1,4 --chunks=64k,4k \
    >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 5 ] && is_empty "$t" && grep -q '^clyde: interrupted' "$WORK/err" &&
    [ "$(csv_lines | cut -d, -f6,7 | tr '\n' ' ')" = "1M,64k 1M,4k " ]
ok $? "SIGINT at the third point: exit 5, clean, the two points before printed" ||
    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; } | diag
if ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan'; then
	skip "sanitizer build: the LD_PRELOAD fault shim runs on the normal build" 3
else
	if direct_io "$WORK"; then
		CLYDE_FAULT_DIRECT_ALIGN=4096 LD_PRELOAD=$SHIM \
		    run --compat=2.00 -D -s ::100 -f -n 0 --sizes=1,2 --chunks=1k,4k
		[ "$rc" = 0 ] && [ "$(grep -c '^clyde: --chunks 1k: refused by -D' "$WORK/err")" = 1 ] &&
		    [ "$(csv_lines | cut -d, -f6,7 | tr '\n' ' ')" = "1M,4k 2M,4k " ] && is_empty "$t"
		ok $? "-D: chunk 1k refused once, skipped at both sizes; 4k runs at both" ||
		    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; } | diag
	else
		skip "the filesystem of $WORK refuses O_DIRECT" 1
	fi

	# Latency shares: the shim delays the data file's writes 1 to 4 by
	# 0.6 s and the 5th by 2.1 s: 5 of the block write's 128 writes of
	# 8 KiB are slower than 0.5 s, 1 slower than 2 s, none slower than
	# 10 s (thresholds far from what a write to memory takes, loaded or
	# not)
	rm -f "$WORK/hits"
	CLYDE_FAULT_CALL=write CLYDE_FAULT_FILE='Bonnie.*' CLYDE_FAULT_ERR=delay \
	    CLYDE_FAULT_NTH=1 CLYDE_FAULT_COUNT=4 CLYDE_FAULT_DELAY_MS=600 \
	    CLYDE_FAULT2_CALL=write CLYDE_FAULT2_FILE='Bonnie.*' \
	    CLYDE_FAULT2_ERR=delay CLYDE_FAULT2_NTH=5 CLYDE_FAULT2_DELAY_MS=2100 \
	    CLYDE_FAULT_HITS=$WORK/hits LD_PRELOAD=$SHIM \
	    run --compat=2.00 -s 1::100 -f -n 1 --latency-over=500ms,1500ms \
	    --json="$WORK/lat.json"
	hits_are 'write Bonnie\.[0-9]+ [1-5]' 5 && pl 'my $r = load($ARGV[0]);
for my $name (sort keys %{$r->{phases}}) {
	my $p = $r->{phases}{$name} // next;
	my $l = $p->{latency_ns};
	for my $k (qw(over_2s over_10s)) {
		check(kind($l->{$k}) eq "number" && 0 <= $l->{$k} && $l->{$k} <= 1,
		    $name, $k, $l->{$k});
	}
	check(same([map { $_->{ns} } @{$l->{over}}], [500000000, 1500000000]), $name, $l);
	check(kind($_->{share}) eq "number" && 0 <= $_->{share} && $_->{share} <= 1,
	    $name, $l) for @{$l->{over}};
}
my $l = $r->{phases}{put_block}{latency_ns};
check(same($l->{count}, 128), $l);
check(same($l->{over}[0]{share}, 5 / 128), $l);
check(same($l->{over}[1]{share}, 1 / 128), $l);
check(same($l->{over_2s}, 1 / 128) && same($l->{over_10s}, 0), $l)' \
    "$WORK/lat.json" 2>"$WORK/err.py"
	ok $? "--latency-over=500ms,1500ms: the block write's 5/128 over 0.5 s, 1/128 over 1.5 s and 2 s, none over 10 s" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/err.py" "$WORK/hits"; } | diag
	# -c 2: the copies' histograms merged.  Each copy counts the writes
	# to its own data file: the first 4 of its block write are slow
	rm -f "$WORK/hits"
	CLYDE_FAULT_CALL=write CLYDE_FAULT_FILE='Bonnie.*' CLYDE_FAULT_ERR=delay \
	    CLYDE_FAULT_NTH=1 CLYDE_FAULT_COUNT=4 CLYDE_FAULT_DELAY_MS=600 \
	    CLYDE_FAULT_HITS=$WORK/hits LD_PRELOAD=$SHIM \
	    run --compat=2.00 -s 1::100 -f -n 0 -c 2 --latency-over=500ms \
	    --json="$WORK/latc.json"
	hits_are 'write Bonnie\.[0-9]+ [1-4]' 8 && pl 'my $r = load($ARGV[0]);
my $l = $r->{phases}{put_block}{latency_ns};
check(same($l->{count}, 256), $l);
check(same($l->{over}[0]{share}, 8 / 256), $l);
check(same($l->{over_2s}, 0), $l)' "$WORK/latc.json" 2>"$WORK/err.py"
	ok $? "-c 2: both copies' slow writes in one share, 8/256 over 0.5 s" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/err.py" "$WORK/hits"; } | diag
	# clyde report --latency: the tiotest-like table of the record
	"$CLYDE" report --latency "$WORK/lat.json" >"$WORK/l.txt" 2>"$WORK/err" &&
	    "$CLYDE" report --latency --markdown "$WORK/lat.json" >"$WORK/l.md" 2>>"$WORK/err" &&
	    "$CLYDE" report --html "$WORK/lat.json" >"$WORK/l.html" 2>>"$WORK/err"
	r=$?
	[ $r = 0 ] &&
	    grep -qE '^Phase +Average +Maximum +% >2s +% >10s +% >500ms +% >1500ms$' "$WORK/l.txt" &&
	    grep -qE '^Block write +[0-9.]+ ms +[0-9.]+ ms +0\.78125 +0\.00000 +3\.90625 +0\.78125$' "$WORK/l.txt" &&
	    grep -qE '^\| Block write \| [0-9.]+ ms \| [0-9.]+ ms \| 0\.78125 \| 0\.00000 \| 3\.90625 \| 0\.78125 \|$' "$WORK/l.md" &&
	    grep -q '<th>Block write</th><td>[0-9.]* ms</td><td>[0-9.]* ms</td><td>0.78125</td><td>0.00000</td><td>3.90625</td>' "$WORK/l.html"
	ok $? "clyde report --latency: the shares in %, in text, Markdown and the page" ||
	    { cat "$WORK/l.txt" "$WORK/l.md" "$WORK/err"; } | diag
fi

done_testing
