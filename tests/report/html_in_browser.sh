#!/bin/sh
# The HTML page of clyde report in a real browser: headless Chromium
# (Debian's chromium, installed by .ci/run) loads it with no network,
# the DOM it builds has the two tables and the twelve charts (and, for
# sets compared, the twelve charts of their runs), the screenshot is not
# blank, and the console has nothing to say.  Skipped when chromium (or
# python3, which drives it) is not installed.
. "$(dirname "$0")/../lib.sh"

browser=$(command -v chromium || command -v chromium-browser)
needs_all "${browser:-chromium}" chromium 6
needs_all python3 python3 6
C=tests/fixtures/corpus
"$CLYDE" report --html --average --compare=spyder tests/fixtures/dameth_rrobin.txt \
    "$C/m006_2.00_nfs_SERVER_CLIENT_linux-nfs_QPdecoded.txt" \
    "$C/m003_1.02c_galaxy_lkml_wrapped.txt" \
    "$C/g001_1.97_wifo3-02_laura-dietz_wifo3-2.txt" > "$WORK/page.html"
ok $? "clyde report --html"

# the page of the sets compared (the OpenGFS runs): a chart of every run
# per phase; and a blank page, whose screenshot compresses to almost nothing
og=tests/fixtures/opengfs
"$CLYDE" report --html --average --compare=rrobin random=$og/random.txt \
    single=$og/single.txt rrobin=$og/rrobin.txt > "$WORK/sets.html"
: > "$WORK/blank.html"

# chrome [PAGE [dom=FILE] [shot=FILE] [size=W,H]]...: the pages in one
# headless browser, no network (tests/tools/browser.py: a browser costs seconds
# to start); its messages, the console's among them, on stderr
chrome() { timeout 120 python3 tests/tools/browser.py "$browser" "$WORK/profile" "$@"; }

chrome "$WORK/page.html" dom="$WORK/dom" shot="$WORK/page.png" size=1400,2400 \
    "$WORK/sets.html" dom="$WORK/sets.dom" \
    "$WORK/blank.html" shot="$WORK/blank.png" size=1400,2400 2> "$WORK/browser.err"
[ "$(grep -o '<table>' "$WORK/dom" | wc -l)" = 2 ] &&
    [ "$(grep -o '<svg xmlns' "$WORK/dom" | wc -l)" = 12 ] &&
    [ "$(grep -o '<rect ' "$WORK/dom" | wc -l)" -gt 50 ]
ok $? "the browser's DOM: two tables, twelve bar charts, their bars" ||
    { head -c 2000 "$WORK/dom"; tail -5 "$WORK/browser.err"; } | diag

[ -s "$WORK/page.png" ]
ok $? "a screenshot" || tail -5 "$WORK/browser.err" | diag

# the console of every page
! grep -h 'CONSOLE' "$WORK/browser.err" > "$WORK/console"
ok $? "no console messages" || diag < "$WORK/console"

[ "$(grep -o '<svg class="dots"' "$WORK/sets.dom" | wc -l)" = 12 ] &&
    [ "$(grep -o '<circle class="run"' "$WORK/sets.dom" | wc -l)" -gt 150 ] &&
    ! grep -h 'CONSOLE' "$WORK/browser.err"
ok $? "sets compared in the browser: twelve charts of every run, no console messages" ||
    head -c 2000 "$WORK/sets.dom" | diag

page=$(wc -c < "$WORK/page.png") blank=$(wc -c < "$WORK/blank.png")
[ "$blank" -gt 0 ] && [ "$page" -gt $((blank * 10)) ]
ok $? "the screenshot is not blank: $page bytes, a blank page $blank"

done_testing
