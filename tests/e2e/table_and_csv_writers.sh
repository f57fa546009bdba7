#!/bin/sh
# Golden tests of the text table and CSV writers of both profiles: each
# file in tests/fixtures/golden is real bonnie++ output ('### ' lines saying where
# it came from, the table, the CSV line).  The CSV line is read into a
# result record and written back through clyde's formatters; the output
# must equal the file byte for byte.
#
# v1.03e_* and f001_* (1.03c, 1.03e): the only change made to the
# expected text is that 1.03c's "Version 1.03c" reads "Version 1.03e",
# the layout clyde names.
# v2.00a_*: the changes are the deliberate ones listed under
# COMPATIBILITY in clyde(1), each named in a '### changed on purpose'
# line of the file: the true file rates where 2.00a printed garbage, a
# header of all 50 names, the -s chunk in io_chunk_size, the seeker count
# in the label, num_dirs and file_chunk_size under their header names.
cd "$(dirname "$0")/../.." || exit 1
tool=build/tests/csv_table
n=0
fail=0
set -- tests/fixtures/golden/*.txt
echo "1..$#"
for f in "$@"; do
	n=$((n + 1))
	expected=$(sed -e '/^###/d' -e 's/^Version 1\.03c /Version 1.03e /' "$f")
	case "$(basename "$f")" in
	v2.00a_*)
		flags=-2
		csv=$(printf '%s\n' "$expected" | grep -E '^(1\.98|format_version),')
		;;
	*)
		flags=
		csv=$(printf '%s\n' "$expected" | grep -E '^([^,]*,){26}[^,]*$')
		;;
	esac
	case "$(head -1 "$f")" in
	*" -x "*) got=$(printf '%s\n' "$csv" | $tool -c $flags) ;;
	*) got=$(printf '%s\n' "$csv" | $tool $flags) ;;
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
