#!/bin/sh
# Hostile starts: closed standard descriptors, a -Z file that is a FIFO,
# a device or a torn number, standard input that ends under -y p, the
# data file swapped for a hard link between phases, and semaphore sets
# in odd states.  Each gives one clear message and a documented exit
# status, and leaves nothing behind.
. "$(dirname "$0")/lib.sh"

# json_only FILE: one JSON record and nothing else (no table, no progress)
json_only() {
	[ "$(head -c 1 "$1")" = "{" ] && [ "$(tail -n 1 "$1")" = "}" ] &&
	    ! grep -Eq "Version 1\.03e|Writing|Using uid|^clyde:" "$1"
}

# --- closed standard descriptors -------------------------------------------

t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 --json="$WORK/a.json" >&- 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && json_only "$WORK/a.json" && is_empty "$t"
ok $? "stdout closed: exit 0, the JSON file holds the record alone" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/a.json"; } | diag

t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 --json="$WORK/b.json" >"$WORK/out" 2>&-
rc=$?
[ "$rc" = 0 ] && json_only "$WORK/b.json" && is_empty "$t" &&
    grep -q "^Version 1.03e" "$WORK/out"
ok $? "stderr closed: exit 0, no progress line in the JSON file, the table on stdout" ||
    { echo "rc=$rc"; cat "$WORK/out" "$WORK/b.json"; } | diag

"$CLYDE" -d "$WORK/no-such-dir" $AS_USER -r 0 -s 1 -n 1 >/dev/null 2>&-
ok $(($? != 2)) "stderr closed: a missing target is still exit status 2"

t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 -y p >"$WORK/out" 2>"$WORK/err" <&-
rc=$?
[ "$rc" = 5 ] && is_empty "$t" && ! grep -q "directory" "$WORK/err" &&
    grep -q "^clyde: interrupted: standard input ended before per-char write (-y p); removing what the run made\$" "$WORK/err"
ok $? "stdin closed with -y p: read as an empty input, not the target directory" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- -y p when standard input ends -----------------------------------------

run -s 1 -n 1 -f -y p --json="$WORK/c.json" </dev/null
[ "$rc" = 5 ] && is_empty "$t" && [ ! -s "$WORK/out" ] &&
    grep -q "^clyde: interrupted: standard input ended before block write (-y p); removing what the run made\$" "$WORK/err" &&
    grep -q '"status": "interrupted"' "$WORK/c.json"
ok $? "-y p, standard input at its end: exit 5, said so, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# two lines for three prompts: the phases before the third ran
printf '\n\n' >"$WORK/two-lines"
run -s 1 -n 1 -f -y p <"$WORK/two-lines"
[ "$rc" = 5 ] && is_empty "$t" &&
    [ "$(grep -c "press Enter" "$WORK/err")" = 3 ] &&
    grep -q "standard input ended before block read (-y p)" "$WORK/err"
ok $? "-y p: standard input that ends after two lines stops before the third phase" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- -Z: only a regular file of whole 32-bit numbers ------------------------

mkfifo "$WORK/fifo"
printf 'abcdef' >"$WORK/six-bytes"
# zbad NAME FILE WHY: refused at once with exit 1, nothing made
zbad() {
	t=$(fresh_target)
	timeout 20 "$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 -Z "$2" \
	    >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ "$rc" = 1 ] && is_empty "$t" && [ ! -s "$WORK/out" ] &&
	    [ "$(head -n 1 "$WORK/err")" = "clyde: -Z $2: $3" ]
	ok $? "-Z $1: exit 1, \"$3\"" || { echo "rc=$rc"; cat "$WORK/err"; } | diag
}
zbad "a FIFO, never waited on" "$WORK/fifo" "a FIFO, not a regular file"
zbad "a device" /dev/zero "a device, not a regular file"
zbad "a directory" "$WORK" "not a regular file"
zbad "of 6 bytes" "$WORK/six-bytes" \
    "its size is not a multiple of 4 bytes (32-bit numbers)"

done_testing
