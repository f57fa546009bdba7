# lib.sh: TAP helpers for the shell tests.  Sourced, not run.
# Each test script runs from the top of the tree, uses ./clyde (or
# $CLYDE), and works in its own temporary directory.  Tests that stop
# or fail a run at a chosen point use $CLYDE_HOOKS, clyde built with its
# test hooks (src/core/test_hooks.h; make build/tests/clyde-hooks).

# The top of the tree: the nearest folder above the test that has
# tests/lib.sh, however deep under tests/ the test sits.
cd "$(dirname "$0")" || exit 1
while [ ! -f tests/lib.sh ]; do
	[ "$(pwd)" != / ] || { echo "lib.sh: no tree above $0" >&2; exit 1; }
	cd ..
done
CLYDE=${CLYDE:-./clyde}
CLYDE_HOOKS=${CLYDE_HOOKS:-build/tests/clyde-hooks}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/clyde-test.XXXXXX") || exit 1
# other users (-u nobody) must be able to reach the targets inside
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT
tap_n=0
tap_failed=0

# As root clyde insists on -u, as bonnie++ does.
if [ "$(id -u)" = 0 ]; then AS_USER="-u root"; else AS_USER=""; fi

ok() { # ok COND-STATUS NAME
	tap_n=$((tap_n + 1))
	# a name on several lines becomes one (no process when it is one)
	case $2 in *"
"*) set -- "$1" "$(printf '%s' "$2" | tr '\n' ' ')" ;; esac
	# a tool that the case needs is missing (needs): skipped, whatever
	# its status
	if [ -e "$WORK/needs" ]; then
		echo "ok $tap_n - $2 # skip $(cat "$WORK/needs")"
		rm -f "$WORK/needs"
		return 0
	fi
	if [ "$1" = 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
		return 1
	fi
}

diag() { sed 's/^/# /'; }

# skip REASON [COUNT [NAME]]: the skip of every test: COUNT cases
# (default 1) that cannot run here, each "ok N # skip REASON" ("ok N -
# NAME # skip REASON" with a NAME); COUNT "all", before any case: none of
# the test's cases can run here, its plan is "1..0 # skip REASON" and it
# ends (exit 0)
skip() {
	if [ "${2:-}" = all ]; then
		echo "1..0 # skip $1"
		exit 0
	fi
	skip_i=0
	while [ $skip_i -lt "${2:-1}" ]; do
		tap_n=$((tap_n + 1))
		echo "ok $tap_n${3:+ - $3} # skip $1"
		skip_i=$((skip_i + 1))
	done
}

# needs TOOL PACKAGE: true when the command TOOL is installed; else false,
# and the case being checked is skipped: its ok prints "# skip needs TOOL
# (Debian package PACKAGE)" whatever its status.  A file in $WORK says it,
# so that a needs in a subshell or $(...) counts too; the first wins.
needs() {
	command -v "$1" >/dev/null 2>&1 && return 0
	[ -e "$WORK/needs" ] || echo "needs $1 (Debian package $2)" >"$WORK/needs"
	return 1
}

# needs_all TOOL PACKAGE COUNT: the COUNT cases from here to the end of the
# test need TOOL; without it they are skipped (as needs says why) and the
# test ends.  With it, done_testing fails the test unless COUNT cases ran.
needs_all() {
	tap_count=$((tap_n + $3))
	command -v "$1" >/dev/null 2>&1 && return 0
	skip "needs $1 (Debian package $2)" "$3"
	done_testing
}

# py3 ARGS...: python3 ARGS, a case that needs it (needs)
py3() { needs python3 python3 && python3 "$@"; }

# pl CODE ARGS...: a check in Perl on JSON files, with tests/tools/JSONCheck.pm
# (load(PATH) reads one; check COND, WHAT... and same A, B assert): a
# failed assertion, a key that an object lacks or any warning fails it
pl() {
	code=$1
	shift
	perl -Mstrict -Mwarnings=FATAL,all -Itests/tools -MJSONCheck -e "$code" "$@"
}

# the fault shim (make build/tests/fault_shim.so), and a scratch directory as it
# appears in messages (an ERE)
SHIM=$(pwd)/build/tests/fault_shim.so
SCRATCH='clyde\.[0-9]+\.[A-Za-z0-9]{6}'
# Globs for the shim's CLYDE_FAULT_FILE: a directory of --dirs (ten hex
# digits of its number) and a small file of the sequential phases (the
# same digits, then the random part of its name)
HEX10='[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'
SEQ_FILES="$HEX10*"
# the ERE of a small file's name in the sequential phases and in the
# random ones, for messages and the shim's CLYDE_FAULT_HITS lines
SEQ_NAME='[0-9a-f]{10}[A-Za-z0-9]*'
RAN_NAME='[A-Za-z0-9]*[0-9a-f]{10}'

# direct_io DIR: the filesystem of DIR writes and reads 4 KiB with
# O_DIRECT (tmpfs before Linux 6.6 refuses O_DIRECT at open())
direct_io() {
	dd if=/dev/zero of="$1/direct.probe" bs=4096 count=1 oflag=direct \
	    2>/dev/null &&
	    dd if="$1/direct.probe" of=/dev/null bs=4096 count=1 iflag=direct \
	    2>/dev/null
	set -- $? "$1"
	rm -f "$2/direct.probe"
	return "$1"
}

# hits_are ERE [N]: the calls the shim's faults chose, $WORK/hits (run
# with CLYDE_FAULT_HITS=$WORK/hits), are lines "CALL NAME N" that all
# match ERE: N of them, or at least one
hits_are() {
	hits_n=$(grep -c "" "$WORK/hits" 2>/dev/null) || return 1
	[ "$hits_n" = "${2:-$hits_n}" ] && ! grep -Evq "^$1\$" "$WORK/hits"
}

# run ARGS...: a run in a fresh target; sets $t, $rc, $WORK/out, $WORK/err
run() {
	t=$(fresh_target)
	"$CLYDE" -d "$t" $AS_USER -m host -r 0 "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}

# held_at CALL N ARGS...: a run (-q, ARGS) in a fresh target $t, in the
# background ($pid), whose Nth CALL the fault shim holds until
# $WORK/release exists (only calls on names that match $held_file, when
# set: CLYDE_FAULT_FILE); returns once it is held there
held_at() {
	call=$1 nth=$2
	shift 2
	t=$(fresh_target)
	rm -rf "$WORK/release" "$WORK/held"
	CLYDE_FAULT_CALL=$call CLYDE_FAULT_NTH=$nth CLYDE_FAULT_ERR=block \
	    CLYDE_FAULT_FILE=${held_file:-} \
	    CLYDE_FAULT_RELEASE="$WORK/release" CLYDE_FAULT_HELD="$WORK/held" \
	    LD_PRELOAD=$SHIM "$CLYDE" -d "$t" $AS_USER -r 0 -q "$@" \
	    >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	i=0
	while [ ! -d "$WORK/held" ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
}

# released: the run of held_at() goes on; its exit status in $rc
released() {
	touch "$WORK/release"
	wait $pid
	rc=$?
}

# link_for DIR: in the scratch directory of $t ($scratch), DIR moved
# aside (to moved) and a symbolic link to $WORK/decoy, a new empty
# directory, put in its place; what is made or removed in the decoy
# changes its change time, which $decoy_was keeps
link_for() {
	scratch=$(echo "$t"/clyde.*)
	rm -rf "$WORK/decoy"
	mkdir "$WORK/decoy" && mv "$scratch/$1" "$scratch/moved" &&
	    ln -s "$WORK/decoy" "$scratch/$1"
	decoy_was=$(stat -c %z "$WORK/decoy")
}

# decoy_untouched: nothing made or removed in the decoy of link_for()
decoy_untouched() { [ "$(stat -c %z "$WORK/decoy")" = "$decoy_was" ]; }

# a fresh, empty target directory
fresh_target() {
	t=$(mktemp -d "$WORK/target.XXXXXX") && chmod 755 "$t" && echo "$t"
}

# holders_of DIR: the processes with a descriptor or their working
# directory inside DIR, one per line (DIR without glob characters)
holders_of() {
	find /proc/[0-9]*/cwd /proc/[0-9]*/fd -maxdepth 1 -lname "$1/*" \
	    2>/dev/null | cut -d/ -f3 | sort -un
}

# children_of PID: the processes whose parent is PID, one a line, false
# when there are none (as pgrep -P, without procps): from the kernel's
# list of each thread's children, else from every process's stat
children_of() {
	if [ -e "/proc/$1/task/$1/children" ]; then
		cat /proc/"$1"/task/*/children 2>/dev/null
	else
		perl -e 'for (glob "/proc/[0-9]*/stat") {
			open my $f, "<", $_ or next;
			my $s = <$f> // next;
			print m{^/proc/(\d+)/}, "\n" if $s =~ /\) \S+ (\d+) / && $1 == $ARGV[0];
		}' "$1"
	fi | tr -s ' ' '\n' | grep .
}

# until_true TENTHS CMD...: run CMD every 0.1 s until it succeeds, at
# most TENTHS times
until_true() {
	tries=$1
	shift
	while ! "$@" && [ "$tries" -gt 0 ]; do
		sleep 0.1
		tries=$((tries - 1))
	done
}
gone() { ! kill -0 "$1" 2>/dev/null; }
# stopped PID: the process is stopped (SIGSTOP, a debugger), or gone
stopped() {
	case $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) in
	T* | t* | "") return 0 ;;
	esac
	return 1
}
all_gone() { for p in "$@"; do gone "$p" || return 1; done; }
# wait_children PID N: $kids, the children of PID, once there are N (at
# most a minute)
wait_children() {
	kids=
	for i in $(seq 600); do
		kids=$(children_of "$1") && [ "$(echo "$kids" | wc -l)" = "$2" ] &&
		    break
		sleep 0.1
	done
}
# measurer PID: $meas, the process that measures in the run started as
# PID: with --stall the one started watches, and its child measures
measurer() { wait_children "$1" 1; meas=$kids; }
# int_taken PID: no SIGINT is pending for PID: its handler has taken the
# one sent (or PID is gone)
int_taken() {
	[ -r "/proc/$1/status" ] || return 0
	while read -r key mask; do
		case $key in
		SigPnd: | ShdPnd:)
			# SIGINT, 2, is the second bit of the last hex digit
			[ $((0x${mask#"${mask%?}"} & 2)) = 0 ] || return 1 ;;
		esac
	done 2>/dev/null <"/proc/$1/status"
}

# fs_known DIR: true when a mount in /proc/self/mountinfo holds DIR, so
# that a run's record can name the target's filesystem (in a chroot whose
# root is no mount point, none may)
fs_known() {
	awk -v d="$1/" '$5 == "/" || index(d, $5 "/") == 1 { f = 1 } END { exit !f }' \
	    /proc/self/mountinfo 2>/dev/null
}

# true when the directory is empty
# phase_label NAME: the phase of CSV field NAME (put_block) as clyde names
# it in its messages and -y p's prompt (block write)
phase_label() {
	case $1 in
	putc) echo "per-char write" ;; put_block) echo "block write" ;;
	getc) echo "per-char read" ;; get_block) echo "block read" ;;
	seeks) echo "random seeks" ;; seq_create) echo "sequential create" ;;
	seq_stat) echo "sequential stat" ;; seq_del) echo "sequential delete" ;;
	ran_create) echo "random create" ;; ran_stat) echo "random stat" ;;
	ran_del) echo "random delete" ;; dir_create) echo "directory create" ;;
	dir_stat) echo "directory stat" ;; dir_del) echo "directory delete" ;;
	ran_dir_create) echo "random directory create" ;;
	ran_dir_stat) echo "random directory stat" ;;
	ran_dir_del) echo "random directory delete" ;;
	*) echo "$1" ;;
	esac
}

is_empty() { [ -z "$(ls -A "$1")" ]; }

# number of comma-separated fields in a line
nfields() { printf '%s\n' "$1" | awk -F, '{ print NF }'; }

# field N (1-based) of a CSV line
field() { printf '%s\n' "$1" | cut -d, -f"$2"; }

# csv2html_each FILE: each line of FILE alone through bonnie++ 2.00a's
# bon_csv2html; sets $n (lines) and $good (those it took: a page that
# names the machine "host", nothing on stderr, which stays in $WORK/err);
# a case that needs bonnie++ (needs)
csv2html_each() {
	n=0 good=0
	needs bon_csv2html bonnie++ || return 1
	while IFS= read -r line; do
		n=$((n + 1))
		printf '%s\n' "$line" | bon_csv2html >"$WORK/page.html" 2>"$WORK/err" &&
		    [ ! -s "$WORK/err" ] && grep -q '>host<' "$WORK/page.html" &&
		    good=$((good + 1))
	done <"$1"
}

# py CODE ARGS...: a Python check on JSON files (load(PATH) reads one);
# an assertion fails it, python3's absence skips the case (needs)
py() {
	code=$1
	shift
	py3 -c "import json, sys
def load(p):
    with open(p) as f:
        return json.load(f)
$code" "$@"
}

done_testing() {
	# needs_all's count: the cases that the test has
	if [ -n "${tap_count:-}" ] && [ "$tap_count" != "$tap_n" ]; then
		ok 1 "the cases that needs_all counted end at $tap_count, not $tap_n"
	fi
	echo "1..$tap_n"
	exit $((tap_failed > 0))
}
