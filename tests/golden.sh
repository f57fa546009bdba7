#!/bin/sh
# Golden tests of the 1.03 text table and CSV writers: each file in
# tests/golden is real bonnie++ 1.03c/1.03e output (a '### ' line saying
# where it came from, the table, the CSV line).  The CSV line is read into
# a result record and written back through clyde's formatters; the output
# must equal the file byte for byte.  The only change made to the
# expected text: 1.03c's "Version 1.03c" reads "Version 1.03e", the
# layout clyde names.
cd "$(dirname "$0")/.." || exit 1
tool=tests/csv_table
n=0
fail=0
set -- tests/golden/*.txt
echo "1..$#"
for f in "$@"; do
	n=$((n + 1))
	expected=$(sed -e '/^###/d' -e 's/^Version 1\.03c /Version 1.03e /' "$f")
	csv=$(printf '%s\n' "$expected" | grep -E '^([^,]*,){26}[^,]*$')
	case "$(head -1 "$f")" in
	*" -x "*) got=$(printf '%s\n' "$csv" | $tool -c) ;;
	*) got=$(printf '%s\n' "$csv" | $tool) ;;
	esac
	if [ "$got" = "$expected" ]; then
		echo "ok $n - $(basename "$f")"
	else
		echo "not ok $n - $(basename "$f")"
		printf '%s\n' "$expected" > /tmp/golden.$$.want
		printf '%s\n' "$got" > /tmp/golden.$$.got
		diff -u /tmp/golden.$$.want /tmp/golden.$$.got | sed 's/^/# /'
		rm -f /tmp/golden.$$.want /tmp/golden.$$.got
		fail=$((fail + 1))
	fi
done
exit $((fail > 0))
