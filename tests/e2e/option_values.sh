#!/bin/sh
# Option values that bonnie++ 2.00a takes and clyde took differently: -n
# with links and subdirectories, a k on the seeks of -s, the default size
# that -r makes, the -m name in the table, and the root line with -q.
# The expected CSV fields (22 to 26: files, max, min, directories, chunk)
# are what bonnie++ 2.00a printed for the same arguments, with the count
# of directories in its num_dirs column, where bonnie++ puts it one
# column to the right (clyde(1), The 2.00 CSV line).
. "$(dirname "$0")/../lib.sh"

csv_line() { tail -1 "$WORK/out"; }

# -n with links: a min is taken and ignored, the directories are kept
for spec in "1:-1:0:4 1,link,,4," "1:-1:5 1,link,,," \
    "1:-1:0:4:4096 1,link,,4,4k" "1:-2::4 1,symlink,,4,"; do
	n=${spec% *} want=${spec#* }
	run --compat=2.00 -s 0 -n "$n"
	got=$(csv_line | cut -d, -f22-26)
	[ "$rc" = 0 ] && [ "$got" = "$want" ] && is_empty "$t"
	ok $? "-n $n runs: $want" ||
	    { echo "rc=$rc got=$got"; cat "$WORK/err"; ls -A "$t"; } | diag
done
run --compat=2.00 -s 0 -n 1:-1:0:4
[ "$(grep -c '^ *1:link/4 ' "$WORK/out")" = 1 ]
ok $? "-n 1:-1:0:4: the table's label is 1:link/4" || diag < "$WORK/out"
run -s 0 -n 1:100:0:abc
[ "$rc" = 1 ] && grep -q '^clyde: -n 1:100:0:abc: directories' "$WORK/err"
ok $? "-n with a bad directory count is still refused" || diag < "$WORK/err"

# -s: seeks with a k, as bonnie++ 2.00a (it wrote 2048 for 64:4k:2k)
for s in 16:4k:2k 16:4k:2K; do
	run --compat=2.00 -s "$s" -f -n 0
	[ "$rc" = 0 ] && [ "$(csv_line | cut -d, -f6-8)" = 16M,4k,2048 ] &&
	    is_empty "$t"
	ok $? "-s $s: 2048 seeks" || { echo "rc=$rc"; cat "$WORK/err"; } | diag
done
for s in 16:4k:2m 16:4k:2k:2k; do
	run --compat=2.00 -s "$s" -f -n 0
	[ "$rc" = 1 ] && head -1 "$WORK/err" | grep -q "^clyde: -s $s: seek" &&
	    is_empty "$t"
	ok $? "-s $s is refused naming -s" || diag < "$WORK/err"
done

# the default size from -r has the limit of -s (1000g)
run -n 0 -r 600000
[ "$rc" = 1 ] && [ "$(grep -vc "^Try 'clyde --help'.$" "$WORK/err")" = 1 ] &&
    head -1 "$WORK/err" | grep -q '^clyde: -r 600000: .*largest size' &&
    is_empty "$t"
ok $? "-r 600000 without -s: refused, the size would pass 1000g" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
run -n 0 -r 512000
[ "$rc" = 2 ] && grep -q "not enough free space" "$WORK/err" && is_empty "$t"
ok $? "-r 512000 without -s: 1000g, the largest size, is no usage error" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# -m: control characters are refused like a comma
for name in "$(printf 'a\033[2Jb')" "$(printf 'a\tb')" "$(printf 'a\302\233b')" \
    "$(printf 'a\177b')"; do
	run -s 0 -n 1 -m "$name"
	[ "$rc" = 1 ] && head -1 "$WORK/err" | grep -q '^clyde: -m: .*control' &&
	    [ ! -s "$WORK/out" ] && is_empty "$t"
	ok $? "-m with a control character: exit 1 naming -m" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
done

# -m: the label is cut after a whole character, by columns
e=$(printf '\303\251')
long=$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e
run -s 16 -f -n 0 -m "$long"
row=$(sed -n 4p "$WORK/out")
want="$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e 16M "
[ "$rc" = 0 ] && [ "${row#"$want"}" != "$row" ] &&
    printf '%s' "$row" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1
ok $? "-m of 24 two-byte characters: 15 whole ones in the I/O label" ||
    { echo "rc=$rc"; sed -n 4p "$WORK/out"; } | diag
run -s 0 -n 1 -m "$long"
row=$(sed -n 2p "$WORK/out")
want="$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e$e -Create--"
[ "$rc" = 0 ] && [ "${row#"$want"}" != "$row" ]
ok $? "-m of 24 two-byte characters: 19 in the file section's name line" ||
    { echo "rc=$rc"; sed -n 2p "$WORK/out"; } | diag
if locale -a 2>/dev/null | grep -qix 'c\.utf-\{0,1\}8'; then
	w=$(printf '\346\227\245')
	run -s 16 -f -n 0 -m "$w$w$w$w$w$w$w$w$w$w$w$w$w"
	want="$w$w$w$w$w$w$w  16M "
	row=$(sed -n 4p "$WORK/out")
	[ "$rc" = 0 ] && [ "${row#"$want"}" != "$row" ]
	ok $? "-m of wide characters: 7 of two columns and a space fill 15" ||
	    { echo "rc=$rc"; sed -n 4p "$WORK/out"; } | diag
else
	skip "the C library has no C.UTF-8 locale" 1 "-m of wide characters"
fi

# as root (lib.sh gives -u root) with -q the table on stderr stands alone
if [ "$(id -u)" = 0 ]; then
	run -q -s 16 -f -n 0
	[ "$rc" = 0 ] && head -1 "$WORK/err" | grep -q '^Version 1.03e ' &&
	    ! grep -q '^clyde:' "$WORK/err"
	ok $? "-u root -q: nothing but the table on stderr" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	run -s 16 -f -n 0
	[ "$rc" = 0 ] && grep -q '^clyde: running as root, as -u root asked' \
	    "$WORK/err"
	ok $? "-u root without -q: the root line is said" || diag < "$WORK/err"
else
	skip "needs root" 1 "-u root -q: nothing but the table on stderr"
fi

done_testing
