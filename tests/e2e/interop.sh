#!/bin/sh
# Interoperability with bonnie++ itself: the CSV lines of the 2.00
# profile are accepted by bonnie++ 2.00a's own converters, bon_csv2html
# and bon_csv2txt (installed by .ci/run from Debian's bonnie++ package).
. "$(dirname "$0")/../lib.sh"

t=$(fresh_target)
# per-char on 1 MiB (-f1): a system call per byte
"$CLYDE" --compat=2.00 -d "$t" $AS_USER -r 0 -s 16 -n 1:4096:1024:4 -f1 -q \
    -m interop-host >"$WORK/one.csv" 2>/dev/null
ok $? "a 2.00 run"

needs bon_csv2html bonnie++ &&
    bon_csv2html <"$WORK/one.csv" >"$WORK/page.html" 2>"$WORK/err" &&
    [ ! -s "$WORK/err" ] && grep -q "interop-host" "$WORK/page.html"
ok $? "bon_csv2html accepts the line and names the machine" || diag < "$WORK/err"

needs bon_csv2txt bonnie++ &&
    bon_csv2txt <"$WORK/one.csv" >"$WORK/table.txt" 2>"$WORK/err" &&
    [ ! -s "$WORK/err" ] && grep -q "^Version     2.00a" "$WORK/table.txt" &&
    grep -q "1:4096:1024/4" "$WORK/table.txt"
ok $? "bon_csv2txt accepts the line: its table, the file spec read right" ||
    { cat "$WORK/err" "$WORK/table.txt"; } | diag

# -x 2: the 50-name header and two lines; bon_csv2html skips the header
t=$(fresh_target)
"$CLYDE" --compat=2.00 -d "$t" $AS_USER -r 0 -s 0 -n 1 -x 2 -q \
    -m multi-host >"$WORK/multi.csv" 2>/dev/null
needs bon_csv2html bonnie++ &&
    bon_csv2html <"$WORK/multi.csv" >"$WORK/multi.html" 2>"$WORK/err" &&
    [ ! -s "$WORK/err" ] && [ "$(grep -c "multi-host" "$WORK/multi.html")" -ge 2 ]
ok $? "bon_csv2html reads a -x 2 output, header included" || diag < "$WORK/err"

done_testing
