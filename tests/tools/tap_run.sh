#!/bin/sh
# tap_run.sh TEST: runs one test of make check for prove (prove --exec).
# Its TAP goes to prove as it comes; when a case fails, or the test ends
# with a non-zero status, the failed cases are repeated on stderr with the
# diagnostics ("# ..." lines) that follow each, so that a log of make check
# names what failed and why without a second run under prove -v.
# TAP_KEEP=DIR also keeps each test's whole TAP as DIR/NAME.tap
# (tests/bench/flaky.sh counts the failures there).
test=$1
case $test in */*) ;; *) test=./$test ;; esac
name=$(printf '%s' "$1" | sed 's|^build/||; s|^tests/||; s|/|_|g')
tap=$(mktemp "${TMPDIR:-/tmp}/clyde-tap.XXXXXX") || exit 1
trap 'rm -f "$tap" "$tap.rc"' EXIT
{ "$test"; echo $? >"$tap.rc"; } | tee "$tap"
rc=$(cat "$tap.rc" 2>/dev/null || echo 1)
[ -n "${TAP_KEEP:-}" ] && cp "$tap" "$TAP_KEEP/$name.tap"
# a failed case: "not ok", unless a TODO (tests/unit/tap.h's todo(): known
# to fail, no failure)
failed() { grep '^not ok' "$tap" | grep -Eqv '# *TODO'; }
if [ "$rc" != 0 ] || failed; then
	{
		echo "== $1: exit status $rc; failed cases and their diagnostics:"
		awk '/^not ok/ && !/# *TODO/ { on = 1; n++; print; next }
		    /^ok / { on = 0 } /^#/ && on { print }
		    END { if (!n) print "(no case failed: the test ended early)" }' "$tap"
		failed || tail -5 "$tap"
	} >&2
fi
exit "$rc"
