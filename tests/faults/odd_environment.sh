#!/bin/sh
# Hostile starts: closed standard descriptors, a -Z file that is a FIFO,
# a device or a torn number, standard input that ends under -y p, the
# data file swapped for a hard link between phases, and semaphore sets
# in odd states.  Each gives one clear message and a documented exit
# status, and leaves nothing of its own behind.
. "$(dirname "$0")/../lib.sh"

# What these cases cost is mostly the processes around clyde's short
# runs: new_target, entries, empty_dir and has_line do what
# fresh_target, ls -A, is_empty (lib.sh) and grep -qxF do, in one
# process or in none.

# new_target: an empty target directory of this user's in $t: the last
# one while it stays so (the cases assert that they leave it empty), or
# a new one
new_target() {
	[ -n "${t:-}" ] && [ -O "$t" ] && empty_dir "$t" && return 0
	tn=$((${tn:-0} + 1)) && t=$WORK/target.$tn && mkdir -m 755 "$t"
}

# entries DIR: the names in DIR, dot files included, in $entries
entries() {
	entries=
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$f" ] || [ -L "$f" ] && entries="$entries${entries:+ }${f##*/}"
	done
	return 0
}

# empty_dir DIR: nothing in it
empty_dir() { entries "$1" && [ -z "$entries" ]; }

# has_line FILE LINE: LINE is one of the lines of FILE
has_line() {
	while IFS= read -r l || [ -n "$l" ]; do
		[ "$l" = "$2" ] && return 0
	done <"$1"
	return 1
}

# json_only FILE: one JSON record and nothing else (no table, no progress)
json_only() {
	awk 'NR == 1 && !/^\{/ || /Version 1\.03e|Writing|Using uid|^clyde:/ { bad = 1 }
	    { last = $0 } END { exit bad || last != "}" }' "$1"
}

# --- closed standard descriptors -------------------------------------------

new_target
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 --json="$WORK/a.json" >&- 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && json_only "$WORK/a.json" && empty_dir "$t"
ok $? "stdout closed: exit 0, the JSON file holds the record alone" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/a.json"; } | diag

# without --json=FILE the results would go nowhere: refused before the run
new_target
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 >&- 2>"$WORK/err"
rc=$?
[ "$rc" = 2 ] && empty_dir "$t" && [ "$(cat "$WORK/err")" = \
    "clyde: standard output is closed: nowhere to write the results (--json=FILE keeps them in a file)" ]
ok $? "stdout closed without --json=FILE: exit 2 before the run, one line, nothing made" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
new_target
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 --json=- >&- 2>"$WORK/err"
rc=$?
[ "$rc" = 2 ] && empty_dir "$t" && grep -q '^clyde: standard output is closed' "$WORK/err"
ok $? "stdout closed with --json=-: exit 2 before the run" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# standard output open for reading only: the results could not be
# written either; refused before the run as when it is closed (the case
# took the whole run before the results failed, exit 3)
ro=$WORK/readonly
printf 'mine\n' >"$ro"
for how in null file; do
	new_target
	if [ $how = null ]; then
		"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 1</dev/null 2>"$WORK/err"
	else
		"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 --json=- >&- 1<"$ro" 2>"$WORK/err"
	fi
	rc=$?
	[ "$rc" = 2 ] && empty_dir "$t" && [ "$(cat "$ro")" = mine ] &&
	    [ "$(cat "$WORK/err")" = "clyde: standard output is open for reading only: nowhere to write the results (--json=FILE keeps them in a file)" ]
	ok $? "stdout open for reading only ($how) without --json=FILE: exit 2 before the run, one line" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
done
# with --json=FILE the record goes there, and the table nowhere, as with
# standard output closed
new_target
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 --json="$WORK/ro.json" 1<"$ro" 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && json_only "$WORK/ro.json" && empty_dir "$t" && [ "$(cat "$ro")" = mine ]
ok $? "stdout open for reading only with --json=FILE: exit 0, the JSON file holds the record" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
rm -f "$WORK/ro.json"

new_target
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 --json="$WORK/b.json" >"$WORK/out" 2>&-
rc=$?
[ "$rc" = 0 ] && json_only "$WORK/b.json" && empty_dir "$t" &&
    grep -q "^Version 1.03e" "$WORK/out"
ok $? "stderr closed: exit 0, no progress line in the JSON file, the table on stdout" ||
    { echo "rc=$rc"; cat "$WORK/out" "$WORK/b.json"; } | diag

if ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan' || [ ! -f "$SHIM" ]; then
	skip "no fault shim for this build" 5
else
	# --json's temporary file replaced during the run (held in the first
	# unlink of the small files, by the fault shim), by a forged record and
	# by a link to a file of another's: neither is put in place as the
	# results, the run says so (exit 3), the planted ones are left as they are
	for plant in forged link; do
		j=$WORK/keep_$plant.json
		printf 'not clyde\n' >"$WORK/decoy"
		held_at unlink 1 -s 0 -n 1 --json="$j"
		tmp=
		for f in "$WORK"/.keep_$plant.json.*; do [ -f "$f" ] && tmp=$f; done
		if [ -n "$tmp" ]; then
			rm -f "$tmp"
			if [ $plant = forged ]; then
				printf '{"schema_version": 1, "forged": true}\n' >"$tmp"
			else
				ln -s "$WORK/decoy" "$tmp"
			fi
		fi
		released
		[ "$rc" = 3 ] && [ -n "$tmp" ] && [ ! -e "$j" ] && [ ! -L "$j" ] &&
		    has_line "$WORK/err" "clyde: --json $j: its temporary file ${tmp##*/} was removed or replaced during the run, and clyde puts in place only the file it made; the file is not made" &&
		    [ "$(cat "$WORK/decoy")" = "not clyde" ] &&
		    { [ -L "$tmp" ] || grep -q forged "$tmp"; } && empty_dir "$t"
		ok $? "--json: its temporary file replaced by a $plant one during the run: not put in place, exit 3, one line, the planted one left" ||
		    { echo "rc=$rc tmp=$tmp"; cat "$WORK/err"; ls -la "$WORK"; } | diag
		rm -f "$tmp" "$j"
	done

	# the temporary file moved away and another put under its name: what
	# is linked is the file written, through the descriptor the keeper
	# holds (/proc/self/fd): the records, exit 0; the planted one is left
	j=$WORK/keep_moved.json
	held_at unlink 1 -s 0 -n 1 --json="$j"
	tmp=
	for f in "$WORK"/.keep_moved.json.*; do [ -f "$f" ] && tmp=$f; done
	[ -n "$tmp" ] && mv "$tmp" "$WORK/moved.json" &&
	    printf '{"schema_version": 1, "forged": true}\n' >"$tmp"
	released
	if [ -r /proc/self/fd/0 ]; then
		[ "$rc" = 0 ] && [ -n "$tmp" ] && json_only "$j" && grep -q forged "$tmp" &&
		    [ "$(stat -c %i "$j")" = "$(stat -c %i "$WORK/moved.json")" ] &&
		    ! grep -q "^clyde:" "$WORK/err" && empty_dir "$t"
	else
		[ -e "$WORK/needs" ] || echo "needs /proc/self/fd" >"$WORK/needs"
	fi
	ok $? "--json: its temporary file moved away and another put in its place: the records are linked, exit 0, the planted one left" ||
	    { echo "rc=$rc tmp=$tmp"; cat "$WORK/err"; ls -la "$WORK"; } | diag
	rm -f "$tmp" "$j" "$WORK/moved.json"

	# the final name made by another during the run, and the keeper killed:
	# the complete records stay, in the temporary file, which the line names
	for what in taken keeper; do
		j=$WORK/keep_$what.json
		held_at unlink 1 -s 0 -n 1 --json="$j"
		tmp=
		for f in "$WORK"/.keep_$what.json.*; do [ -f "$f" ] && tmp=$f; done
		if [ $what = taken ]; then
			printf 'theirs\n' >"$j"
			want="clyde: --json $j: File exists (made during the run; clyde never overwrites a file); the records are kept in $tmp"
		else
			# the measuring process's child that is not the watcher's
			for c in $(children_of $pid); do
				for k in $(children_of "$c"); do kill -KILL "$k"; done
			done
			want="clyde: --json $j: the process that puts it in place ended; the file is not made, its records are left in $tmp"
		fi
		released
		[ "$rc" = 3 ] && [ -n "$tmp" ] && has_line "$WORK/err" "$want" &&
		    json_only "$tmp" && empty_dir "$t" &&
		    { [ $what = keeper ] && [ ! -e "$j" ] || [ "$(cat "$j")" = theirs ]; }
		ok $? "--json, $what during the run: exit 3, the records kept in the temporary file, which is named" ||
		    { echo "rc=$rc tmp=$tmp"; cat "$WORK/err"; ls -la "$WORK"; } | diag
		rm -f "$tmp" "$j"
	done
fi

# --- --json without /proc: a private mount namespace with a tmpfs over
# /proc (root and unshare only), where the keeper cannot link the file
# by its descriptor (/proc/self/fd) and takes it by its temporary name
noproc() { # noproc ARGS...: clyde -d $t ARGS, /proc hidden, in the background
	rm -rf "$WORK/release" "$WORK/held"
	CLYDE_FAULT_RELEASE="$WORK/release" CLYDE_FAULT_HELD="$WORK/held" \
	    LD_PRELOAD=$SHIM unshare -m sh -c \
	    'mount -t tmpfs none /proc && exec "$@"' sh "$CLYDE" -d "$t" \
	    $AS_USER -r 0 -q -s 0 -n 1 "$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
}
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null 2>&1 ||
    ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan' || [ ! -f "$SHIM" ] ||
    ! unshare -m sh -c 'mount -t tmpfs none /proc' 2>/dev/null; then
	skip "needs root, unshare -m and the fault shim (a normal build)" 2
else
	j=$WORK/noproc.json
	new_target
	noproc --json="$j"
	wait $pid
	rc=$?
	entries "$WORK"
	[ "$rc" = 0 ] && json_only "$j" && empty_dir "$t" &&
	    ! grep -q '^clyde:' "$WORK/err" && case " $entries " in
	    *" .noproc.json."* | *" .clyde-link."*) false ;; esac
	ok $? "--json without /proc: made by its temporary name, exit 0, nothing else left" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -la "$WORK"; } | diag
	rm -f "$j"
	# the temporary file moved away and a forged one put under its name
	# while the fault shim holds the keeper's first link or rename of
	# that name (after it was checked, in the build before): the forged
	# one is never linked
	new_target
	CLYDE_FAULT_CALL=link CLYDE_FAULT_FILE='.noproc.json.*' CLYDE_FAULT_ERR=block \
	    noproc --json="$j"
	until_true 600 test -d "$WORK/held"
	tmp=
	for f in "$WORK"/.noproc.json.*; do [ -f "$f" ] && tmp=$f; done
	[ -n "$tmp" ] && mv "$tmp" "$WORK/moved.json" &&
	    printf '{"schema_version": 1, "forged": true}\n' >"$tmp"
	touch "$WORK/release"
	wait $pid
	rc=$?
	entries "$WORK"
	[ "$rc" = 3 ] && [ -n "$tmp" ] && [ ! -e "$j" ] && grep -q forged "$tmp" &&
	    has_line "$WORK/err" "clyde: --json $j: its temporary file ${tmp##*/} was removed or replaced during the run, and clyde puts in place only the file it made; the file is not made" &&
	    json_only "$WORK/moved.json" && empty_dir "$t" &&
	    case " $entries " in *" .clyde-link."*) false ;; esac
	ok $? "--json without /proc: a forged file put under the temporary name just before the link is not linked, exit 3, one line" ||
	    { echo "rc=$rc tmp=$tmp"; cat "$WORK/err"; ls -la "$WORK"; cat "$j"; } | diag
	rm -f "$tmp" "$j" "$WORK/moved.json"
fi

# a --json name of 255 bytes (the longest a name may be): made, though
# its usual temporary name would be 8 bytes longer
new_target
long=$(printf '%0255d' 0)
"$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 --json="$WORK/$long" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && json_only "$WORK/$long" && empty_dir "$t" &&
    ! ls -A "$WORK" | grep -q '^\.clyde-json\.'
ok $? "--json with a name of 255 bytes: made, exit 0, no temporary file left" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
rm -f "$WORK/$long"

"$CLYDE" -d "$WORK/no-such-dir" $AS_USER -r 0 -s 1 -n 1 >/dev/null 2>&-
ok $(($? != 2)) "stderr closed: a missing target is still exit status 2"

new_target
"$CLYDE" -d "$t" $AS_USER -r 0 -s 1 -n 1 -y p >"$WORK/out" 2>"$WORK/err" <&-
rc=$?
[ "$rc" = 5 ] && empty_dir "$t" && ! grep -q "directory" "$WORK/err" &&
    has_line "$WORK/err" "clyde: interrupted: standard input ended before per-char write (-y p); removing what the run made"
ok $? "stdin closed with -y p: read as an empty input, not the target directory" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- -y p when standard input ends -----------------------------------------

run -s 1 -n 1 -f -y p --json="$WORK/c.json" </dev/null
[ "$rc" = 5 ] && empty_dir "$t" && [ ! -s "$WORK/out" ] &&
    has_line "$WORK/err" "clyde: interrupted: standard input ended before block write (-y p); removing what the run made" &&
    grep -q '"status": "interrupted"' "$WORK/c.json"
ok $? "-y p, standard input at its end: exit 5, said so, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
# the phase that the stop came before is "interrupted", not "skipped" as
# -f's per-char phases are (clyde(1), JSON records); the reader takes it back
pl 'my $r = load($ARGV[0]); my $t = $r->{tests};
exit !($r->{status} eq "interrupted" && $t->{put_block}{status} eq "interrupted"
    && $t->{putc}{status} eq "skipped" && $t->{rewrite}{status} eq "skipped")' "$WORK/c.json" &&
    "$CLYDE" report --csv "$WORK/c.json" >"$WORK/c.csv" 2>"$WORK/c.err"
ok $? "-y p, standard input at its end: the JSON says the block write was interrupted, the -f phases skipped, and clyde report reads it" ||
    { cat "$WORK/c.json" "$WORK/c.err"; } | diag

# two lines for three prompts: the phases before the third ran
printf '\n\n' >"$WORK/two-lines"
run -s 1 -n 1 -f -y p <"$WORK/two-lines"
[ "$rc" = 5 ] && empty_dir "$t" &&
    [ "$(grep -c "press Enter" "$WORK/err")" = 3 ] &&
    grep -q "standard input ended before block read (-y p)" "$WORK/err"
ok $? "-y p: standard input that ends after two lines stops before the third phase" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
# the prompts name the phases as the table does, not by their CSV fields
[ "$(grep "press Enter" "$WORK/err")" = "clyde: press Enter to start block write
clyde: press Enter to start rewrite
clyde: press Enter to start block read" ]
ok $? "-y p: each prompt names its phase as the table does (block write, not put_block)" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- -Z: only a regular file of whole 32-bit numbers ------------------------

mkfifo "$WORK/fifo"
printf 'abcdef' >"$WORK/six-bytes"
# zbad NAME FILE WHY: refused at once with exit 1, nothing made
zbad() {
	new_target
	timeout 20 "$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1 -Z "$2" \
	    >"$WORK/out" 2>"$WORK/err"
	rc=$?
	IFS= read -r first <"$WORK/err"
	[ "$rc" = 1 ] && empty_dir "$t" && [ ! -s "$WORK/out" ] &&
	    [ "$first" = "clyde: -Z $2: $3" ]
	ok $? "-Z $1: exit 1, \"$3\"" || { echo "rc=$rc"; cat "$WORK/err"; } | diag
}
zbad "a FIFO, never waited on" "$WORK/fifo" "a FIFO, not a regular file"
zbad "a device" /dev/zero "a device, not a regular file"
zbad "a directory" "$WORK" "not a regular file"
zbad "of 6 bytes" "$WORK/six-bytes" \
    "its size is not a multiple of 4 bytes (32-bit numbers)"
# bad input before the target: -Z /dev/null with a target that would be
# refused too (missing here) is exit 1
"$CLYDE" -d "$WORK/no-such-target" $AS_USER -r 0 -s 0 -n 1 -Z /dev/null \
    >"$WORK/out" 2>"$WORK/err"
rc=$?
IFS= read -r first <"$WORK/err"
[ "$rc" = 1 ] && [ "$first" = "clyde: -Z /dev/null: a device, not a regular file" ]
ok $? "-Z /dev/null and a missing target: the -Z file named first, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --- the data file swapped between phases (-y p) ---------------------------

# prompted PHASE ACTION ARGS...: a run that waits for Enter before each
# phase (-y p, on a FIFO); ACTION runs while it waits before PHASE, with
# $scratch set to the scratch directory and $data to the data file.
# Its stderr comes through a FIFO as well, read a line at a time as it
# is written (and kept in $WORK/err): each prompt is answered when it
# comes, with no polling; timeout ends a run that hangs, and the reading
# with it.  The two FIFOs serve every run.
mkfifo "$WORK/in" "$WORK/err-fifo"
prompted() {
	phase=$1 action=$2
	shift 2
	new_target
	[ -z "${RUN_OWNER:-}" ] || chown "$RUN_OWNER" "$t"
	timeout 60 "$CLYDE" -d "$t" ${RUN_USER:-$AS_USER} -m host -r 0 -y p "$@" \
	    <"$WORK/in" >"$WORK/out" 2>"$WORK/err-fifo" &
	pid=$!
	exec 3>"$WORK/in" 4<"$WORK/err-fifo" 5>"$WORK/err"
	while :; do
		# a last line without its newline is kept as it is
		IFS= read -r line <&4 && nl='\n' || nl=
		[ -n "$nl$line" ] || break
		printf "%s$nl" "$line" >&5
		case $line in *"press Enter to start "*) ;; *) continue ;; esac
		if [ "${line#*press Enter to start }" = "$(phase_label "$phase")" ]; then
			set -- "$t"/clyde.*
			scratch=$1
			set -- "$scratch"/Bonnie.*
			[ -e "$1" ] && data=$1 || data=
			$action
		fi
		echo >&3
	done
	exec 3>&- 4<&- 5>&-
	wait "$pid"
	rc=$?
}

# another file of the same user, that no run may change
victim_text="a file that is not the benchmark's"
printf '%s\n' "$victim_text" >"$WORK/victim.orig"
swap_in_victim() { printf '%s\n' "$victim_text" >"$WORK/victim" && ln -f "$WORK/victim" "$data"; }
add_a_name() { ln "$data" "$WORK/second-name"; }

# swapped PHASE ARGS...: the data file becomes a hard link to the victim
# before PHASE: exit 3 naming it, the victim unchanged, the foreign name
# left in place with the scratch directory and the command to remove it
swapped() {
	phase=$1
	shift
	prompted "$phase" swap_in_victim "$@"
	name=${data#"$t"/}
	[ "$rc" = 3 ] && cmp -s "$WORK/victim" "$WORK/victim.orig" &&
	    has_line "$WORK/err" "clyde: $label: $name: not the file clyde made: another file was put under its name; nothing written" &&
	    has_line "$WORK/err" "clyde: $name: not made by clyde; left in place" &&
	    grep -q "remove it with: rm -rf '$scratch'\$" "$WORK/err" &&
	    entries "$scratch" && [ "$entries" = "${data##*/}" ]
}

label=rewrite
swapped rewrite -s 1 -n 0 -f
ok $? "a hard link to another file put in the data file's place before the rewrite: exit 3, nothing written" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
rm -rf "$scratch" "$WORK/victim"

label="random seeks"
swapped seeks -s 1 -n 0 -f
ok $? "the same before the random seeks: the seekers write nothing" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
rm -rf "$scratch" "$WORK/victim"

label="block write"
swapped put_block -s 1 -n 0
ok $? "the same before the block write, which makes the file again: the foreign name is not removed" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
rm -rf "$scratch" "$WORK/victim"

# a second name made for the run's file: read by another, or written later
prompted get_block add_a_name -s 1 -n 0 -f
[ "$rc" = 3 ] && empty_dir "$t" &&
    has_line "$WORK/err" "clyde: block read: ${data#"$t"/}: the file clyde made has another name (a hard link); nothing written"
ok $? "a second name for the data file before the block read: exit 3, the run's name removed" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
rm -f "$WORK/second-name"

# a FIFO put in the data file's place before a phase that reads it: its
# open() waited for a writer for ever, before the file could be checked
fifo_in_place() { mv "$data" "$WORK/moved-data" && mkfifo "$data"; }
for phase in getc get_block; do
	prompted "$phase" fifo_in_place -s 1 -n 0
	name=${data#"$t"/}
	[ "$phase" = getc ] && label="per-char read" || label="block read"
	[ "$rc" = 3 ] && [ -p "$data" ] &&
	    has_line "$WORK/err" "clyde: $label: $name: not the file clyde made: another file was put under its name; nothing written" &&
	    has_line "$WORK/err" "clyde: $name: not made by clyde; left in place"
	ok $? "a FIFO put in the data file's place before the $label: exit 3, named, the open not held, left in place" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	rm -rf "$scratch" "$WORK/moved-data"
done

# --- a name of -n N:-1 or -2 swapped between phases (-y p) -------------------

# Each directory's names link to its first file, an empty one: a name, or
# that first file, put in place by a hard link to the victim is not read,
# and the phase fails naming it.  Cleanup removes the name with clyde's
# others (the victim keeps its data and its own name).
# swap_first: in files/$in (files/ when $in is empty), the regular file found first (the
# first file with -2; any name with -1, all are that file) becomes a
# hard link to the victim; $swapped is its name in messages
swap_first() {
	f=$(find "$scratch/files${in:+/$in}" -mindepth 1 -maxdepth 1 -type f | head -1)
	swapped=${f#"$t"/}
	printf '%s\n' "$victim_text" >"$WORK/victim" && ln -f "$WORK/victim" "$f"
}

# first_swapped PHASE LABEL IN ARGS...: that swap before PHASE: exit 3
# naming it in LABEL, the victim unchanged with its own name alone,
# nothing left
first_swapped() {
	phase=$1 label=$2 in=$3
	shift 3
	prompted "$phase" swap_first "$@"
	[ "$rc" = 3 ] && cmp -s "$WORK/victim" "$WORK/victim.orig" &&
	    [ "$(stat -c %h "$WORK/victim")" = 1 ] &&
	    has_line "$WORK/err" "clyde: $label: $swapped: not the file clyde made: another file was put under its name; nothing read" &&
	    empty_dir "$t"
}

first_swapped seq_stat "sequential stat" "" -s 0 -n 1:-1
ok $? "-n 1:-1, a name swapped for a hard link to another file before the sequential stat: exit 3, named, nothing read, nothing left" ||
    { echo "rc=$rc swapped=$swapped"; cat "$WORK/err"; ls -lA "$t"; } | diag
rm -f "$WORK/victim"

first_swapped seq_stat "sequential stat" "" -s 0 -n 1:-2
ok $? "-n 1:-2, the file the symbolic links lead to swapped before the sequential stat: exit 3, it is named, nothing read" ||
    { echo "rc=$rc swapped=$swapped"; cat "$WORK/err"; ls -lA "$t"; } | diag
rm -f "$WORK/victim"

first_swapped ran_stat "random stat" 00001 -s 0 -n 1:-2:0:2
ok $? "-n 1:-2:0:2, the first file of files/00001 swapped before the random stat: exit 3, it is named, nothing read" ||
    { echo "rc=$rc swapped=$swapped"; cat "$WORK/err"; ls -lA "$t"; } | diag
rm -f "$WORK/victim"

# a file of root's put there, the run as nobody: named the same, nothing
# of root's read or removed
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	RUN_OWNER=nobody RUN_USER="-u nobody" first_swapped ran_stat \
	    "random stat" 00000 -s 0 -n 1:-1:0:2
	ok $? "-u nobody, a file of root's put in place of a link: exit 3, named, the file untouched" ||
	    { echo "rc=$rc swapped=$swapped"; cat "$WORK/err"; ls -lA "$t"; } | diag
	rm -f "$WORK/victim"
else
	skip "not root: no file of another user to put in place" 1
fi

# --- a directory of clyde's swapped for a symbolic link (-y p) --------------

# link_in NAME: the directory NAME inside the scratch directory is moved
# to $WORK/moved and a symbolic link to $WORK/decoy, a copy of it (the
# same names, directories or files as clyde made them), put in its place;
# what both hold is kept in $WORK/moved.list and $WORK/decoy.list
link_in() {
	rm -rf "$WORK/moved" "$WORK/decoy"
	mv "$scratch/$1" "$WORK/moved" && cp -R "$WORK/moved" "$WORK/decoy" &&
	    ln -s "$WORK/decoy" "$scratch/$1" &&
	    ls -AR "$WORK/moved" >"$WORK/moved.list" &&
	    ls -AR "$WORK/decoy" >"$WORK/decoy.list"
}
link_tree() { link_in dirs/0000000000; }
link_subdir() { link_in files/00001; }

# linked PHASE ACTION LABEL NAME ARGS...: ACTION before PHASE: exit 3,
# the link named in LABEL's message and left in place, nothing in the
# decoy or in the directory moved away made, stat'ed into or removed
linked() {
	phase=$1 action=$2 label=$3 name=$4
	shift 4
	rm -f "$WORK/moved.list" "$WORK/decoy.list"
	prompted "$phase" "$action" "$@"
	[ "$rc" = 3 ] && [ -s "$WORK/decoy.list" ] &&
	    ls -AR "$WORK/decoy" | cmp -s - "$WORK/decoy.list" &&
	    ls -AR "$WORK/moved" | cmp -s - "$WORK/moved.list" &&
	    [ -L "$scratch/$name" ] &&
	    has_line "$WORK/err" "clyde: $label: ${scratch#"$t"/}/$name: a symbolic link, not the directory clyde made; left in place" &&
	    grep -q "remove it with: rm -rf '$scratch'\$" "$WORK/err"
}

# the random phases and cleanup named a directory of the tree by its path
# from dirs/: the kernel followed a link in any part but the last
linked ran_dir_stat link_tree "random directory stat" dirs/0000000000 \
    -s 0 -n 0 --dirs=1:2:8
ok $? "--dirs: dirs/0000000000 swapped for a link before the random stat: exit 3, named, nothing stat'ed or removed through it" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$WORK/decoy" |
    diff "$WORK/decoy.list" - | head; } | diag
rm -rf "$scratch" "$WORK/moved" "$WORK/decoy"

# -n N:0:0:DIRS: a file of the random phases and of cleanup was named
# 00001/NAME from files/
for phase in ran_stat ran_del; do
	case $phase in ran_stat) label="random stat" ;; *) label="random delete" ;; esac
	linked $phase link_subdir "$label" files/00001 -s 0 -n 1:0:0:2
	ok $? "-n 1:0:0:2: files/00001 swapped for a link before the $label: exit 3, named, no file of the decoy's removed" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$WORK/decoy" |
	    diff "$WORK/decoy.list" - | head; } | diag
	rm -rf "$scratch" "$WORK/moved" "$WORK/decoy"
done

# the same during the sequential create, which named a file 00001/NAME
# from files/: held by the fault shim at the write of the tenth file (the
# first write is the scratch directory's record), in files/00000, while
# files 512 to 1023 are still to be made in files/00001
if ldd "$CLYDE" 2>/dev/null | grep -Eq 'libasan|libubsan' || [ ! -f "$SHIM" ]; then
	skip "no fault shim for this build" 2
else
	held_at write 11 -s 0 -n 1:1:1:2
	link_for files/00001
	released
	[ "$rc" = 3 ] && decoy_untouched && [ -L "$scratch/files/00001" ] &&
	    has_line "$WORK/err" "clyde: sequential stat: ${scratch#"$t"/}/files/00001: a symbolic link, not the directory clyde made; left in place"
	ok $? "-n 1:1:1:2: files/00001 swapped for a link during the sequential create: nothing made through it, named, left in place" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$WORK/decoy" | wc -l; } | diag
	rm -rf "$scratch" "$WORK/decoy"

	# a small file swapped for a FIFO between its stat and its open in
	# the sequential stat (held by the fault shim at that open, the first
	# after the 1024 of the create): the open waited for a writer for
	# ever; a SIGINT after 30 s ends a run that waits so
	export CLYDE_FAULT_HITS="$WORK/hits"
	held_file=$SEQ_FILES
	held_at openat 1025 -s 0 -n 1:4k:4k
	unset CLYDE_FAULT_HITS held_file
	scratch=$(echo "$t"/clyde.*)
	read -r _ name _ <"$WORK/hits"
	mkfifo "$scratch/files/fifo" && mv "$scratch/files/fifo" "$scratch/files/$name"
	(sleep 30 && kill -INT $pid) 2>/dev/null &
	dog=$!
	released
	kill $dog 2>/dev/null
	[ "$rc" = 3 ] &&
	    has_line "$WORK/err" "clyde: sequential stat: ${scratch#"$t"/}/files/$name: another file was put under its name after its stat; not read"
	ok $? "a small file swapped for a FIFO between its stat and its open: exit 3, named, the open not held" ||
	    { echo "rc=$rc name=$name"; cat "$WORK/err"; } | diag
	rm -rf "$scratch" "$WORK/hits"
fi

# --- a name with an escape and a newline put in clyde's directories --------

# the phase that finds it and cleanup name it with a ? for each control
# character: raw, the escape reached the terminal and the newline made a
# line of its own that read as clyde's
odd_name=$(printf 'X\033[31mY\nclyde: forged')
odd_in() { : >"$scratch/$odd_dir/$odd_name"; }
for spec in "files seq_stat sequential -n 1" \
    "dirs dir_stat directory --dirs=1 -n 0"; do
	set -- $spec
	odd_dir=$1 phase=$2 label=$3
	shift 3
	prompted "$phase" odd_in -s 0 "$@"
	[ "$rc" = 3 ] && ! grep -q "$(printf '\033')" "$WORK/err" &&
	    ! grep -q '^clyde: forged' "$WORK/err" &&
	    has_line "$WORK/err" "clyde: $label stat: ${scratch#"$t"/}/$odd_dir/X?[31mY?clyde: forged: not made by clyde; left in place"
	ok $? "a name with an escape and a newline in $odd_dir: named with ? for them, exit 3" ||
	    { echo "rc=$rc"; cat -v "$WORK/err"; } | diag
	rm -rf "$scratch"
done

# --- messages that named the wrong thing ------------------------------------

# a target that is writable and searchable but not readable (mode 0333)
# is enough, as the manual says; root reads any, so root runs as nobody
new_target
if [ "$(id -u)" = 0 ]; then
	chown nobody "$t" && who="-u nobody"
else
	who=
fi
chmod 0333 "$t"
"$CLYDE" -d "$t" $who -r 0 -s 1 -n 1 -q >"$WORK/out" 2>"$WORK/err"
rc=$?
chmod 0755 "$t"
[ "$rc" = 0 ] && empty_dir "$t" && [ "$(nfields "$(tail -1 "$WORK/out")")" = 27 ]
ok $? "a target of mode 0333: the run works and leaves nothing" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# a target whose path leaves no room for the scratch directory's name
deep=$WORK/deep
while [ ${#deep} -lt 3900 ]; do
	deep=$deep/dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd
done
deep=$deep/$(printf '%*s' $((4090 - ${#deep} - 1)) '' | tr ' ' e)
if mkdir -p "$deep" 2>/dev/null; then
	"$CLYDE" -d "$deep" $AS_USER -r 0 -s 1 -n 1 >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ "$rc" = 2 ] && empty_dir "$deep" && [ ! -s "$WORK/out" ] &&
	    grep -Eq "^clyde: -d $deep: too long a path: the scratch directory clyde\.[0-9]+\.XXXXXX in it would pass the limit of 4095 bytes\$" "$WORK/err"
	ok $? "a target path of 4090 bytes: exit 2, the path too long for the scratch directory" ||
	    { echo "rc=$rc"; cut -c 1-200 "$WORK/err"; } | diag
else
	skip "no path of 4090 bytes can be made here"
fi
rm -rf "$WORK/deep"

# copies that cannot be made (too few descriptors): refused before the
# run, exit 2, -c named, nothing measured or written
new_target
(ulimit -n 16 && exec "$CLYDE" -d "$t" $AS_USER -r 0 --compat=2.00 -c 30 \
    -s 1 -n 1 -q) >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 2 ] && empty_dir "$t" && [ ! -s "$WORK/out" ] &&
    grep -Eq "^clyde: the run needs [0-9]+ open files at once, and the limit is 16 \(ulimit -n\): raise it, or give fewer copies \(-c\)\$" "$WORK/err" &&
    ! grep -q -- "-D" "$WORK/err"
ok $? "-c 30 with 16 descriptors: exit 2 before the run, fewer copies (-c) suggested, no -D" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# -n's directories are each held open: more than the limit allows is
# refused before the run, naming them; as many as it allows run
new_target
(ulimit -n 32 && exec "$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1:0:0:64 -q) \
    >"$WORK/out" 2>"$WORK/err"
rc=$?
(ulimit -n 96 && exec "$CLYDE" -d "$t" $AS_USER -r 0 -s 0 -n 1:0:0:64 -q) \
    >"$WORK/out2" 2>"$WORK/err2"
rc2=$?
[ "$rc" = 2 ] && [ "$rc2" = 0 ] && empty_dir "$t" && [ ! -s "$WORK/out" ] &&
    grep -Eq "^clyde: the run needs [0-9]+ open files at once, and the limit is 32 \(ulimit -n\): raise it, or fewer directories in -n \(each is held open\)\$" "$WORK/err"
ok $? "-n 1:0:0:64 with 32 descriptors: exit 2 before the run, the directories of -n named; with 96 it runs" ||
    { echo "rc=$rc rc2=$rc2"; cat "$WORK/err" "$WORK/err2"; } | diag

# -u with an empty group or two colons names the whole value
# ubad VALUE WHY: exit 1, the one line
ubad() {
	new_target
	"$CLYDE" -d "$t" -u "$1" -r 0 -s 0 -n 1 >"$WORK/out" 2>"$WORK/err"
	rc=$?
	IFS= read -r first <"$WORK/err"
	[ "$rc" = 1 ] && empty_dir "$t" && [ "$first" = "clyde: -u $1: $2" ]
	ok $? "-u $1: exit 1, \"$2\"" || { echo "rc=$rc"; cat "$WORK/err"; } | diag
}
ubad nobody: "no group after the colon (-u USER or -u USER:GROUP)"
ubad nobody:nogroup:x "more than one colon (-u USER or -u USER:GROUP)"
ubad nobody:no-such-group-here "no such group: no-such-group-here"

# --- -p and -y s: semaphore sets in odd states -----------------------------

# The semaphore parts use the build with the test hooks and a key of
# their own (CLYDE_TEST_SEM_KEY), never bonnie++'s 4711 that real runs
# use; every set made here is removed at the end.
sem_keys=
trap 'for k in $sem_keys; do ipcrm -S "$k" 2>/dev/null; done; rm -rf "$WORK"' EXIT
# key_free KEY: no set has it
key_free() { ipcs -s | awk -v k="$1" 'tolower($1) == sprintf("0x%08x", k) { exit 1 }'; }
# sem_run KEY ARGS...: clyde with the hooks on that key
sem_run() {
	key=$1
	shift
	CLYDE_TEST_SEM_KEY=$key timeout 60 "$CLYDE_HOOKS" ${SEM_USER:-$AS_USER} \
	    "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}
key=$((1129070592 + $$ % 65536))        # 0x434c.... and this shell's pid
if ! command -v ipcs >/dev/null || ! command -v ipcrm >/dev/null; then
	skip "needs ipcs and ipcrm (Debian package util-linux)"
elif ! key_free "$key"; then
	skip "key $key is taken"
else
	sem_keys=$key
	# -p 1, then one run: every phase it ran has taken its semaphore
	sem_run "$key" -p 1
	new_target
	[ "$rc" = 0 ] && sem_run "$key" -d "$t" -m host -r 0 -q -s 1 -n 1 -y s
	[ "$rc" = 0 ]
	ok $? "-p 1 and one run with -y s on a private key" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	new_target
	sem_run "$key" -d "$t" -m host -r 0 -q -s 1 -n 1 -y s
	[ "$rc" = 2 ] && empty_dir "$t" && [ ! -s "$WORK/out" ] &&
	    [ "$(cat "$WORK/err")" = "clyde: -y s: the semaphore set with key $key is used up: the runs it was made for have passed putc; when they have ended, make it again with -p -1, then -p N" ]
	ok $? "-y s on a used-up set: exit 2 at once, said so with how to remake it" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	sem_run "$key" -p 2
	[ "$rc" = 2 ] &&
	    has_line "$WORK/err" "clyde: -p 2: cannot make the semaphore set with key $key: File exists (remove the old one with -p -1)"
	ok $? "-p over an existing set: exit 2, the key and how to remove it" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	# as root: a user who does not own the set cannot remove it
	if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
		SEM_USER="-u nobody"
		sem_run "$key" -p -1
		SEM_USER=
		[ "$rc" = 2 ] && ! key_free "$key" &&
		    [ "$(cat "$WORK/err")" = "clyde: -p -1: the semaphore set with key $key belongs to uid 0: only that user or root can remove it" ]
		ok $? "-p -1 on another user's set: exit 2, whose it is" ||
		    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	fi
	sem_run "$key" -p -1
	[ "$rc" = 0 ] && key_free "$key"
	ok $? "-p -1 removes the set" || { echo "rc=$rc"; cat "$WORK/err"; } | diag
	sem_run "$key" -p -1
	[ "$rc" = 2 ] && [ "$(cat "$WORK/err")" = "clyde: -p -1: no semaphore set with key $key to remove" ]
	ok $? "-p -1 without a set: exit 2, said so" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
fi

# a set of another size under the key: ipcmk makes one, on a key of its own
id=$(ipcmk -S 3 2>/dev/null | awk '{ print $NF }')
hex=$(ipcs -s 2>/dev/null | awk -v id="$id" '$2 == id { print $1 }')
if [ -z "$id" ] || [ -z "$hex" ]; then
	skip "ipcmk made no semaphore set"
else
	key=$(printf '%d' "$hex")
	sem_keys="$sem_keys $key"
	new_target
	sem_run "$key" -d "$t" -m host -r 0 -q -s 1 -n 1 -y s
	rc_y=$rc err_y=$(cat "$WORK/err")
	sem_run "$key" -p 2
	rc_p=$rc err_p=$(cat "$WORK/err")
	sem_run "$key" -p -1
	what="the semaphore set with key $key has 3 semaphores, not 12: it is not one that -p makes"
	[ "$rc_y" = 2 ] && empty_dir "$t" && [ "$rc_p" = 2 ] && [ "$rc" = 2 ] &&
	    [ "$err_y" = "clyde: -y s: $what; not used" ] &&
	    [ "$err_p" = "clyde: -p: $what; remove it with ipcrm -S if nothing uses it" ] &&
	    [ "$(cat "$WORK/err")" = "clyde: -p -1: $what; it is left in place" ] &&
	    ipcs -s | awk '{ print $2 }' | grep -qx "$id"
	ok $? "a set of 3 semaphores: -y s, -p and -p -1 say so, exit 2, and leave it" ||
	    { echo "rc=$rc_y/$rc_p/$rc"; echo "$err_y"; echo "$err_p"; cat "$WORK/err"; } | diag
fi

done_testing
