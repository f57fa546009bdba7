#!/bin/sh
# The README's recipe "Compare two filesystems", run as printed, on two
# tmpfs in a mount namespace of its own (where /mnt/ext4 and /mnt/xfs are
# the test's, and nothing of the machine's /mnt is touched): the blocks of
# the section are read out of the README; the first (loop devices) is
# replaced by the two tmpfs, but for its chmod line, which runs as
# printed; the runs and the reports run as printed.  Five CSV lines of
# format 1.98 a set, the mean rows and verdicts, the summary's runs line,
# the page, nothing left on either filesystem.  As root (make
# check-mounts).
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ]; then
	skip "the recipe runs as root (mount, clyde -u nobody)" all
fi
# the section's indented blocks, one file each: $WORK/block.1, ...; the
# section ends at the next heading (a line over a line of dashes)
awk -v dir="$WORK" '
	/^Compare two filesystems$/ { on = 1; next }
	on && /^---/ && prev != "" && prev !~ /^    / { exit }
	on && /^    / { if (!inblock) { n++; inblock = 1 }
		line = $0; sub(/^    /, "", line); print line > (dir "/block." n) }
	on && !/^    / { inblock = 0 }
	{ prev = $0 }
' README
# blocks: 1 make, 2 the runs, 3 settings (not commands), 4 the reports,
# 5 the clean-up
[ -s "$WORK/block.2" ] && grep -q '^for run in 1 2 3 4 5; do$' "$WORK/block.2" &&
    grep -q '^\./clyde report --average' "$WORK/block.4" &&
    grep -q '^umount /mnt/ext4 /mnt/xfs$' "$WORK/block.5" && [ ! -e "$WORK/block.6" ]
ok $? "the README's recipe: its blocks read (make, runs, settings, reports, clean-up)" ||
    { ls "$WORK"; head -3 "$WORK"/block.*; } | diag

# the cases after the blocks': the runs, two CSV files, what is left,
# the report, the summary, the page
rest=7
if ! unshare -m true 2>/dev/null; then
	skip "no mount namespace here (unshare -m, Debian package util-linux)" $rest
	done_testing
fi

# the recipe in its namespace: /mnt a tmpfs of the test's, the two
# filesystems tmpfs on it, then the chmod line, the runs and the reports
# as printed, from a directory where ./clyde is the one built
mkdir "$WORK/cwd"
ln -s "$(pwd)/clyde" "$WORK/cwd/clyde"
cat > "$WORK/inside.sh" <<EOF
set -e
mount -t tmpfs -o size=64m none /mnt
mkdir /mnt/ext4 /mnt/xfs
mount -t tmpfs -o size=4g,nr_inodes=262144 none /mnt/ext4
mount -t tmpfs -o size=4g,nr_inodes=262144 none /mnt/xfs
grep '^chmod ' "$WORK/block.1" | sh -e
# -D needs a tmpfs that takes O_DIRECT (Linux 6.6)
if ! dd if=/dev/zero of=/mnt/ext4/probe bs=4096 count=1 oflag=direct 2>/dev/null; then
	echo "no-direct" > "$WORK/state"
	exit 0
fi
rm /mnt/ext4/probe
cd "$WORK/cwd"
sh -e "$WORK/block.2" 2>"$WORK/runs.err"
echo \$? > "$WORK/runs.rc"
sh -e "$WORK/block.4" >"$WORK/report.out" 2>"$WORK/report.err"
echo \$? > "$WORK/report.rc"
{ ls -A /mnt/ext4; ls -A /mnt/xfs; } > "$WORK/left"
stat -c '%a' /mnt/ext4 /mnt/xfs > "$WORK/modes"
EOF
unshare -m --propagation private sh "$WORK/inside.sh" \
    >"$WORK/inside.out" 2>"$WORK/inside.err"
rc=$?
if [ -s "$WORK/state" ]; then
	skip "tmpfs takes no O_DIRECT here (before Linux 6.6): -D cannot run" $rest
	done_testing
fi
[ "$rc" = 0 ] && [ "$(cat "$WORK/runs.rc" 2>/dev/null)" = 0 ]
ok $? "the recipe's runs, as printed: 5 of clyde on each filesystem, exit 0" ||
    cat "$WORK/inside.err" "$WORK/runs.err" 2>/dev/null | tail -20 | diag
for fs in ext4 xfs; do
	f=$WORK/cwd/$fs.csv
	[ -s "$f" ] && [ "$(grep -c '^1\.98,2\.00a,'"$fs"',' "$f")" = 5 ] &&
	    [ "$(awk -F, 'NF != 50' "$f" | wc -l)" = 0 ] &&
	    [ "$(wc -l < "$f")" = 5 ]
	ok $? "$fs.csv: 5 lines of format 1.98 (bonnie++ 2.00a's), named $fs" ||
	    cat "$f" 2>/dev/null | diag
done
[ -f "$WORK/left" ] && [ ! -s "$WORK/left" ] &&
    [ "$(sort -u "$WORK/modes")" = 1777 ]
ok $? "nothing of clyde's left on either filesystem, both mode 1777 by the chmod line" ||
    cat "$WORK/left" "$WORK/modes" 2>/dev/null | diag
out=$WORK/report.out
[ "$(cat "$WORK/report.rc" 2>/dev/null)" = 0 ] &&
    [ "$(grep -c '^mean:ext4\( \|$\)' "$out")" = 2 ] &&
    [ "$(grep -c '^mean:xfs\( \|$\)' "$out")" = 2 ] &&
    grep -q '^  vs ext4 ' "$out"
ok $? "the report: the mean rows of both sets, whole, and xfs's verdicts against ext4" ||
    cat "$WORK/report.err" "$out" 2>/dev/null | head -40 | diag
grep -q '^Runs: ext4 5, xfs 5' "$out" && grep -q '^| xfs |' "$out"
ok $? "the Markdown summary: the runs line, a row per set and phase" ||
    grep -n 'Runs\|^|' "$out" | head -20 | diag
page=$WORK/cwd/ext4-xfs.html
[ -s "$page" ] && grep -q '<html' "$page" && grep -q '>xfs<' "$page" &&
    grep -q 'ext4.csv' "$page"
ok $? "the page, ext4-xfs.html: both sets, the files it read named" ||
    head -c 2000 "$page" 2>/dev/null | diag

done_testing
