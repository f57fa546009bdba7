#!/bin/sh
# --chunks: one command, many chunk sizes.  The values refused, then
# sweeps in both profiles: a row, a CSV line and a JSON record per chunk
# size, the per-char and small-file figures on the first point only.
. "$(dirname "$0")/lib.sh"

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

done_testing
