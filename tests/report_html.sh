#!/bin/sh
# The HTML page of clyde report in a real browser: headless Chromium
# (Debian's chromium, installed by .ci/run) loads it with no network,
# the DOM it builds has the two tables and the twelve charts (and, for
# sets compared, the twelve charts of their runs), the screenshot is not
# blank, and the console has nothing to say.  Skipped when chromium is
# not installed.
. "$(dirname "$0")/lib.sh"

browser=$(command -v chromium || command -v chromium-browser)
if [ -z "$browser" ]; then
	echo "1..0 # skip chromium is not installed"
	exit 0
fi
C=tests/report/corpus
"$CLYDE" report --html --average --compare=spyder tests/report/dameth_rrobin.txt \
    "$C/m006_2.00_nfs_SERVER_CLIENT_linux-nfs_QPdecoded.txt" \
    "$C/m003_1.02c_galaxy_lkml_wrapped.txt" \
    "$C/g001_1.97_wifo3-02_laura-dietz_wifo3-2.txt" > "$WORK/page.html"
ok $? "clyde report --html"

# chrome ARGS...: headless, sandbox off (root in CI), no GPU, no network
chrome() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --no-first-run \
	    --user-data-dir="$WORK/profile" --enable-logging=stderr --v=0 \
	    "$@" "file://$WORK/page.html"
}

chrome --dump-dom > "$WORK/dom" 2> "$WORK/dom.err"
[ "$(grep -o '<table>' "$WORK/dom" | wc -l)" = 2 ] &&
    [ "$(grep -o '<svg xmlns' "$WORK/dom" | wc -l)" = 12 ] &&
    [ "$(grep -o '<rect ' "$WORK/dom" | wc -l)" -gt 50 ]
ok $? "the browser's DOM: two tables, twelve bar charts, their bars" ||
    head -c 2000 "$WORK/dom" | diag

chrome --window-size=1400,2400 --screenshot="$WORK/page.png" \
    >/dev/null 2> "$WORK/shot.err"
[ -s "$WORK/page.png" ]
ok $? "a screenshot" || tail -5 "$WORK/shot.err" | diag

! grep -h 'CONSOLE' "$WORK/dom.err" "$WORK/shot.err" > "$WORK/console"
ok $? "no console messages" || diag < "$WORK/console"

# sets compared (the OpenGFS runs): a chart of every run per phase
og=tests/report/opengfs
"$CLYDE" report --html --average --compare=rrobin random=$og/random.txt \
    single=$og/single.txt rrobin=$og/rrobin.txt > "$WORK/page.html"
chrome --dump-dom > "$WORK/dom" 2> "$WORK/dom.err"
[ "$(grep -o '<svg class="dots"' "$WORK/dom" | wc -l)" = 12 ] &&
    [ "$(grep -o '<circle class="run"' "$WORK/dom" | wc -l)" -gt 150 ] &&
    ! grep -h 'CONSOLE' "$WORK/dom.err"
ok $? "sets compared in the browser: twelve charts of every run, no console messages" ||
    head -c 2000 "$WORK/dom" | diag

# a blank page of the same size compresses to almost nothing
: > "$WORK/blank.html"
timeout 120 "$browser" --headless --no-sandbox --disable-gpu \
    --disable-background-networking --no-first-run \
    --user-data-dir="$WORK/profile" --window-size=1400,2400 \
    --screenshot="$WORK/blank.png" "file://$WORK/blank.html" >/dev/null 2>&1
page=$(wc -c < "$WORK/page.png") blank=$(wc -c < "$WORK/blank.png")
[ "$blank" -gt 0 ] && [ "$page" -gt $((blank * 10)) ]
ok $? "the screenshot is not blank: $page bytes, a blank page $blank"

done_testing
