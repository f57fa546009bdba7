#!/bin/sh
# --chunks: one command, many chunk sizes.  The values refused, then
# sweeps in both profiles: a row, a CSV line and a JSON record per chunk
# size, the per-char and small-file figures on the first point only.
. "$(dirname "$0")/../lib.sh"

# refused VALUE WHY [ARGS...]: exit 1, one line naming --chunks and the
# value, the hint, nothing made
refused() {
	v=$1 why=$2
	shift 2
	run --chunks="$v" -n 0 "$@"
	[ "$rc" = 1 ] && [ "$(wc -l <"$WORK/err")" = 2 ] &&
	    head -1 "$WORK/err" | grep -q -- "^clyde: --chunks $v: $why" &&
	    is_empty "$t" && [ ! -s "$WORK/out" ]
	ok $? "--chunks=$v $*: refused, $why" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
}
refused 4k,,64k "an empty chunk size" -s 8
refused 4k,4k "a chunk size is given twice" -s 8
refused 4k..16k,8k "a chunk size is given twice" -s 8
refused 3k "a chunk size must be a power of two from 256 to 16m" -s 8
refused 128 "a chunk size must be a power of two" -s 8
refused 32m "a chunk size must be a power of two" -s 8
refused 4k..32m "a chunk size must be a power of two" -s 8
refused 64k..4k "a range goes from the smaller size up" -s 8
refused 4x "a chunk size must be a power of two" -s 8
refused 4k.. "a chunk size must be a power of two" -s 8
refused 4k,64k "the chunk is given twice (-s 8:4k gives one)" -s 8:4k
refused 4k,64k "-s 0 skips the phases the sweep runs" -s 0 -n 1
refused 4k,16m "a chunk size is larger than the file (8M)" -s 8
# the RAM rule of -s holds for the sweep's one file size
run -s 8 -n 0 -r 64 --chunks=4k,64k
[ "$rc" = 1 ] && head -1 "$WORK/err" | grep -q '^clyde: -s 8: file size should be double RAM' &&
    is_empty "$t"
ok $? "--chunks with -s 8 -r 64: the RAM rule refuses it as without" || diag < "$WORK/err"
# -y s: the semaphore lets each phase pass once, as with -x 2
run -y s -s 8 -n 0 --chunks=4k,64k
[ "$rc" = 1 ] && head -1 "$WORK/err" |
    grep -q '^clyde: -y s: serves one pass of each phase; not with --chunks 4k,64k$' &&
    is_empty "$t"
ok $? "-y s with --chunks=4k,64k: refused, exit 1" || diag < "$WORK/err"
run --chunks= -s 8 -n 0
[ "$rc" = 1 ] && head -1 "$WORK/err" | grep -q '^clyde: --chunks: an empty list' &&
    is_empty "$t"
ok $? "--chunks= (empty): refused, exit 1" || diag < "$WORK/err"
# -s keeps bonnie++'s 1 MiB limit; the sweep goes to 16 MiB
run -s 8:2m -n 0
[ "$rc" = 1 ] && head -1 "$WORK/err" | grep -q '^clyde: -s 8:2m: chunk size' &&
    is_empty "$t"
ok $? "-s 8:2m: still refused, -s keeps the 1 MiB limit" || diag < "$WORK/err"
"$CLYDE" --help | grep -q -- '--chunks=LIST'
ok $? "--help names --chunks"

# (-s 8::500: 500 seeks, each of which reads a whole chunk, where the
# seeks are not the point)
# A sweep of three chunk sizes in both profiles (8192, bonnie++'s default
# chunk, in the middle: the 2.00 line leaves its io_chunk_size empty and
# the 1.03 size label bare, as bonnie++ does for it)
csv_lines() { grep -v '^format_version,\|^name,' "$WORK/csv"; }
for compat in 1.03 2.00; do
	# the 2.00 per-char phases at 1 MiB (-f1): a system call per byte
	pc=$([ $compat = 2.00 ] && echo -f1)
	run --compat=$compat -s 8::500 -n 1 $pc --chunks=4k,8k,1m --json="$WORK/$compat.json"
	cp "$WORK/out" "$WORK/table.$compat"
	if [ $compat = 1.03 ]; then
		grep , "$WORK/out" >"$WORK/csv"
		rows=$(grep -cE '^host +8M(:4k|:1024k)? ' "$WORK/out")
		labels=$(csv_lines | cut -d, -f2 | tr '\n' ' ')
		want_labels="8M:4k 8M 8M:1024k "
	else
		grep -E '^(1\.98|format_version),' "$WORK/out" >"$WORK/csv"
		rows=$(grep -cE '^host +8M(:4k|:1m)?::?:500 ' "$WORK/out")
		labels=$(csv_lines | cut -d, -f7 | tr '\n' ' ')
		want_labels="4k  1m "
	fi
	[ "$rc" = 0 ] && [ "$rows" = 3 ] && [ "$(csv_lines | wc -l)" = 3 ] &&
	    [ "$labels" = "$want_labels" ] && is_empty "$t"
	ok $? "$compat: --chunks=4k,8k,1m gives 3 table rows and 3 CSV lines: $want_labels" ||
	    { echo "rc=$rc rows=$rows labels=$labels"; cat "$WORK/out" "$WORK/err"; } | diag
	[ "$(head -1 "$WORK/csv" | cut -d, -f1-2)" = \
	    "$([ $compat = 1.03 ] && echo name,file_size || echo format_version,bonnie_version)" ]
	ok $? "$compat: the CSV header comes first, as with -x 2" || diag < "$WORK/csv"
	# per-char and small-file fields on the first line only
	if [ $compat = 1.03 ]; then
		first=$(csv_lines | head -1 | cut -d, -f3,9,15,16)
		later=$(csv_lines | sed 1d | cut -d, -f3,4,9,10,15-27 | sort -u)
		block=$(csv_lines | cut -d, -f5,11 | grep -c '^[^,][^,]*,[^,]')
	else
		first=$(csv_lines | head -1 | cut -d, -f10,16,22,27)
		later=$(csv_lines | sed 1d | cut -d, -f10,11,16,17,22-38,39,42,45-50 | sort -u)
		block=$(csv_lines | cut -d, -f12,18 | grep -c '^[^,][^,]*,[^,]')
	fi
	case $first in *,,* | ,* | *,) f=1 ;; *) f=0 ;; esac
	[ $f = 0 ] && [ "$(printf '%s' "$later" | tr -d ',')" = "" ] && [ "$block" = 3 ]
	ok $? "$compat: per-char and file fields on the first line only, block fields on all" ||
	    { echo "first=$first later=$later block=$block"; cat "$WORK/csv"; } | diag
	# the small-file part of the table once
	[ "$(grep -c '^ *1 ' "$WORK/table.$compat")" = 1 ]
	ok $? "$compat: the small-file row once" || diag < "$WORK/table.$compat"
done

# the 1.03 lines read back as bonnie++ 1.03e lines: 27 fields, the chunk
# taken from the size label (clyde report reads 1.0x lines as 1.03e wrote
# them, tests/report/command_line.sh), written back unchanged
run --compat=1.03 -s 8::500 -f -n 0 --chunks=4k,8k,1m -q
grep -v '^name,' "$WORK/out" >"$WORK/l103.csv"
"$CLYDE" report --json "$WORK/l103.csv" >"$WORK/l103.json" 2>"$WORK/err" &&
    "$CLYDE" report --csv --compat=1.03 "$WORK/l103.csv" >"$WORK/back.csv" 2>>"$WORK/err"
r=$?
pl 'my $r = load($ARGV[0]);
check(same([map { $_->{generation} } @$r], [("1.0x") x 3]), $r);
check(same([map { $_->{io_chunk_size} } @$r], [4096, 8192, 1048576]), $r)' \
    "$WORK/l103.json" 2>>"$WORK/err"
[ $? = 0 ] && [ $r = 0 ] && [ "$(awk -F, 'NF != 27' "$WORK/l103.csv")" = "" ] &&
    [ "$(grep -v '^name,' "$WORK/back.csv")" = "$(cat "$WORK/l103.csv")" ]
ok $? "1.03: the sweep's lines are 1.0x lines of 27 fields whose label carries the chunk" ||
    { cat "$WORK/l103.csv" "$WORK/back.csv" "$WORK/err"; } | diag

# each 2.00 line is one that bonnie++ 2.00a's bon_csv2html takes
grep '^1\.98,' "$WORK/table.2.00" >"$WORK/l200.csv"
csv2html_each "$WORK/l200.csv"
[ $n = 3 ] && [ $good = 3 ]
ok $? "2.00: bon_csv2html takes each of the 3 lines" || diag < "$WORK/err"

# --json: an array, one record per point, each with the sweep key
for compat in 1.03 2.00; do
	pl 'my $r = load($ARGV[0]);
check(ref $r eq "ARRAY" && @$r == 3, $r);
my @chunks = (4096, 8192, 1048576);
for my $i (0 .. $#$r) {
	my $x = $r->[$i];
	check(same($x->{sweep}, {chunks => [@chunks], point => $i + 1}), $x->{sweep});
	check(same($x->{io_chunk_size}, $chunks[$i]), $i);
	my $first = $i == 0;
	check(defined($x->{phases}{putc}) == $first, $i);
	check(defined($x->{phases}{seq_create}) == $first, $i);
	check(defined($x->{files}) == $first, $i);
	for my $ph (qw(put_block rewrite get_block seeks)) {
		check(defined $x->{phases}{$ph}, $ph);
	}
	# each point at its own chunk: one timed write per chunk of the 8 MiB
	my $lat = $x->{phases}{put_block}{latency_ns}{count};
	check(same($lat, int(8 * 1024 * 1024 / $chunks[$i])), $i, $lat);
}' "$WORK/$compat.json" 2>"$WORK/err"
	ok $? "$compat: --json: 3 records, the sweep key, each point at its own chunk" ||
	    diag < "$WORK/err"
done
run -s 8::500 -f -n 0 --json="$WORK/plain.json"
pl 'my $r = load($ARGV[0]);
check(ref $r eq "HASH" && !defined $r->{sweep}, $r)' "$WORK/plain.json" 2>"$WORK/err"
ok $? "--json without --chunks: one record, sweep null" || diag < "$WORK/err"
# -s SIZE::SEEKS: the seeks with the sweep's chunks
run --compat=2.00 -s 8::100:2 -f -n 0 --chunks=4k,64k
[ "$rc" = 0 ] && [ "$(grep '^1\.98,' "$WORK/out" | cut -d, -f7-9 | tr '\n' ' ')" = "4k,100,2 64k,100,2 " ]
ok $? "-s 8::100:2 --chunks=4k,64k: 100 seeks by 2 seekers at each point" ||
    { cat "$WORK/out" "$WORK/err"; } | diag

# --json=-: the array on stdout, ended
run -s 8::500 -f -n 0 --chunks=4k,64k --json=-
pl 'my $r = load($ARGV[0]);
check(same([map { $_->{sweep}{point} } @$r], [1, 2]), $r)' "$WORK/out" 2>"$WORK/err"
ok $? "--json=- with a sweep: the whole array on stdout" || diag < "$WORK/err"

# -x 2: each run sweeps; the header once, then a line per point per run
run --compat=2.00 -s 8::500 -f -n 0 --chunks=4k,1m -x 2 --json="$WORK/x2.json"
[ "$rc" = 0 ] && [ "$(grep -c '^format_version,' "$WORK/out")" = 1 ] &&
    [ "$(grep '^1\.98,' "$WORK/out" | cut -d, -f7 | tr '\n' ' ')" = "4k 1m 4k 1m " ] &&
    ! grep -q '^Version' "$WORK/out" &&
    pl 'my $r = load($ARGV[0]);
check(same([map { $_->{sweep}{point} } @$r], [1, 2, 1, 2]), $r)' "$WORK/x2.json" &&
    is_empty "$t"
ok $? "-x 2 --chunks=4k,1m: 4 lines, points 1 2 1 2, no table" ||
    { cat "$WORK/out" "$WORK/err"; } | diag

# -c 2: both copies run every point, each at the point's chunk
run --compat=2.00 -s 8::500 -n 1 -f -c 2 --chunks=4k,1m --json="$WORK/c2.json"
pl 'my $r = load($ARGV[0]);
check(@$r == 2, $r);
my @chunks = (4096, 1048576);
for my $i (0, 1) {
	my ($x, $chunk) = ($r->[$i], $chunks[$i]);
	check(same($x->{concurrency}, 2), $x->{concurrency});
	for my $ph (qw(put_block rewrite get_block)) {
		my $p = $x->{phases}{$ph};
		# two copies of 8 MiB each, one timed call per chunk
		check(same($p->{ops}, 2 * 8 << 20), $ph, $p->{ops});
		check(same($p->{latency_ns}{count}, int(2 * (8 << 20) / $chunk)), $ph, $chunk);
	}
}
check(defined $r->[0]{phases}{seq_create});
check(!defined $r->[1]{phases}{seq_create})' "$WORK/c2.json" 2>"$WORK/err"
[ $? = 0 ] && [ "$rc" = 0 ] && is_empty "$t"
ok $? "-c 2 --chunks=4k,1m: both copies at each point's chunk, files once" ||
    { cat "$WORK/err"; } | diag

# the progress names the point: bonnie++'s lines, and the live line
run -s 8::500 -f -n 0 --chunks=4k,64k
[ "$(grep -c '^Chunk size' "$WORK/err")" = 2 ] &&
    grep -q '^Chunk size 64k (2/2):$' "$WORK/err" &&
    [ "$(grep -c '^Writing intelligently' "$WORK/err")" = 2 ]
ok $? "--chunks: a 'Chunk size 64k (2/2):' line before each point's phases" ||
    diag < "$WORK/err"
run -s 8::500 -f -n 0 --chunks=4k,64k --progress=always
tr '\r' '\n' <"$WORK/err" | grep -q 'block write  .*point 2/2 (64k)'
ok $? "--progress=always: the live line names the point and the phase" ||
    diag < "$WORK/err"

# SIGINT at the second point: exit 5, nothing left; the first point's row
# and CSV line, as -x prints the runs that ended; the JSON records of the
# points that ran (the second interrupted)
t=$(fresh_target)
CLYDE_TEST_SIGNAL_PHASE=rewrite:2 "$CLYDE_HOOKS" -d "$t" $AS_USER -r 0 \
    -s 8::500 -f -n 0 --chunks=4k,64k,1m --json="$WORK/int.json" \
    >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 5 ] && is_empty "$t" && grep -q '^clyde: interrupted' "$WORK/err" &&
    [ "$(grep -c ' 8M:4k ' "$WORK/out")" = 1 ] &&
    [ "$(grep -c '^[^,]*,8M:4k,' "$WORK/out")" = 1 ] &&
    tail -1 "$WORK/out" | grep -q '^[^,]*,8M:4k,' && ! grep -q 64k "$WORK/out" &&
    pl 'my $r = load($ARGV[0]);
check(same([map { [$_->{sweep}{point}, $_->{status}] } @$r],
    [[1, "ok"], [2, "interrupted"]]), $r);
check(defined $r->[1]{phases}{put_block});
check(!defined $r->[1]{phases}{rewrite})' "$WORK/int.json"
ok $? "SIGINT in the second point's rewrite: exit 5, clean, the first point printed, the JSON of the two points begun" ||
    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; ls -A "$t"; } | diag

# clyde report takes a sweep's lines for what they are: run twice in
# the 1.03 profile (--precise: rates, not +++++, for the charts), its
# six lines are one sweep of two series of three points, one table under
# the sweep's heading, and a line of three points per series in each of
# the four charts of the page
run --compat=1.03 -s 8::500 -f -n 0 --chunks=4k,64k,1m -x 2 --precise -q
grep -v '^name,' "$WORK/out" >"$WORK/x2.csv"
"$CLYDE" report --json "$WORK/x2.csv" >"$WORK/x2r.json" 2>"$WORK/err" &&
    "$CLYDE" report --text "$WORK/x2.csv" >"$WORK/x2r.txt" 2>>"$WORK/err" &&
    "$CLYDE" report --html "$WORK/x2.csv" >"$WORK/x2r.html" 2>>"$WORK/err"
r=$?
pl 'my $r = load($ARGV[0]);
check(same([map { [@{$_->{sweep}}{qw(index point series)}] } @$r],
    [map { my $s = $_; map { [0, $_, $s] } 1 .. 3 } 1, 2]), $r);
check(same($_->{sweep}{chunks}, [4096, 65536, 1048576]), $r) for @$r;
my @figs = slurp($ARGV[1]) =~ m{<figure class="sweep">.*?</figure>}sg;
check(@figs == 4, scalar @figs);
for my $f (@figs) {
	my @lines = $f =~ /<polyline class="series"[^>]* points="([^"]*)"/g;
	check(same([map { scalar(my @p = split) } @lines], [3, 3]), \@lines);
}' "$WORK/x2r.json" "$WORK/x2r.html" 2>>"$WORK/err"
[ $? = 0 ] && [ $r = 0 ] && [ "$(wc -l <"$WORK/x2.csv")" = 6 ] &&
    grep -q '^host 8M: a sweep of 3 chunk sizes, 4k to 1m, 2 runs$' "$WORK/x2r.txt" &&
    [ "$(grep -cE '^host #[12] +8M:(4k|64k|1024k) ' "$WORK/x2r.txt")" = 6 ]
ok $? "clyde report: a sweep run twice is one sweep of 2 series, one table, a line per series in 4 charts" ||
    { cat "$WORK/x2.csv" "$WORK/x2r.txt" "$WORK/err"; } | diag

# -D: a chunk size that the filesystem refuses with O_DIRECT (the shim
# refuses transfers that are no multiple of 4096 bytes, as a filesystem
# with 4 KiB blocks) is skipped with a message; the others run
if ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan'; then
	skip "sanitizer build: the LD_PRELOAD fault shim runs on the normal build" 2
elif ! direct_io "$WORK"; then
	skip "the filesystem of $WORK refuses O_DIRECT" 2
else
	CLYDE_FAULT_DIRECT_ALIGN=4096 LD_PRELOAD=$SHIM \
	    run --compat=2.00 -D -s 8::500 -f -n 0 --chunks=512,4k,1k,64k --json="$WORK/d.json"
	[ "$rc" = 0 ] &&
	    grep -q '^clyde: --chunks 512: refused by -D (O_DIRECT) on this filesystem: skipped' "$WORK/err" &&
	    grep -q '^clyde: --chunks 1k: refused by -D' "$WORK/err" &&
	    [ "$(grep -c '^clyde: --chunks' "$WORK/err")" = 2 ] &&
	    [ "$(grep '^1\.98,' "$WORK/out" | cut -d, -f7 | tr '\n' ' ')" = "4k 64k " ] &&
	    pl 'my $r = load($ARGV[0]);
check(same([map { $_->{sweep}{point} } @$r], [2, 4]), $r);
check($_->{options}{direct_io}, $_->{options}) for @$r' "$WORK/d.json" && is_empty "$t"
	ok $? "-D: chunks 512 and 1k refused and skipped, 4k and 64k run" ||
	    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; } | diag
	CLYDE_FAULT_DIRECT_ALIGN=4096 LD_PRELOAD=$SHIM \
	    run --compat=2.00 -D -s 8 -f -n 0 --chunks=512,1k --json="$WORK/dn.json"
	[ "$rc" = 2 ] && grep -q '^clyde: --chunks: -D (O_DIRECT): every chunk size was refused$' "$WORK/err" &&
	    [ ! -s "$WORK/out" ] && [ ! -e "$WORK/dn.json" ] && is_empty "$t"
	ok $? "-D: every chunk refused: exit 2, no output, no JSON file, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; } | diag
fi

done_testing
