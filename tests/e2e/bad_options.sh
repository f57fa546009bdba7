#!/bin/sh
# The bad-option matrix: every case exits with the documented code, says
# in one line which option (or file) is wrong, and creates nothing.
. "$(dirname "$0")/../lib.sh"

# The matrix is some two hundred runs that each end at once: what costs
# is the processes around them, so the cases below read stderr and the
# target with the shell's own means, and share one target while it stays
# empty (each case asserts that it does; one left with something in it
# is replaced).

# hint_line LINE: getopt_long's hint, with or without the nearest option
# (the ERE ^(Did you mean --[a-z-]+\? )?Try 'clyde --help'.$)
hint_line() {
	case $1 in
	"Try 'clyde --help'"?) return 0 ;;
	"Did you mean --"*"? Try 'clyde --help'"?) ;;
	*) return 1 ;;
	esac
	hint_opt=${1#"Did you mean --"}
	hint_opt=${hint_opt%"? Try 'clyde --help'"?}
	case $hint_opt in "" | *[!a-z-]*) return 1 ;; esac
}

# empty_dir DIR: nothing in it, dot files included (is_empty without ls)
empty_dir() {
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$f" ] || [ -L "$f" ] && return 1
	done
	return 0
}

# bad RC WORD ARGS...: run in an empty target, expect RC, WORD in the
# first line of stderr, which starts with "clyde: " whatever the program
# was called, at most the line and the hint, and an empty target.
# $PROFILE, when set, goes before ARGS.
PROFILE=
t=
bad() {
	want=$1 word=$2
	shift 2
	[ -n "$t" ] && empty_dir "$t" || t=$(fresh_target)
	case " $* " in *" -u "* | *" --user="*) as_user= ;; *) as_user=$AS_USER ;; esac
	"$CLYDE" -d "$t" $as_user $PROFILE "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	# the first line, and the lines that are not the hint
	first= n=0 lines=0
	while IFS= read -r l || [ -n "$l" ]; do
		n=$((n + 1))
		[ "$n" = 1 ] && first=$l
		hint_line "$l" || lines=$((lines + 1))
	done <"$WORK/err"
	case "$first" in "clyde: "*"$word"*) named=0 ;; *) named=1 ;; esac
	[ "$rc" = "$want" ] && [ "$named" = 0 ] && [ "$lines" = 1 ] &&
	    [ ! -s "$WORK/out" ] && empty_dir "$t"
	ok $? "exit $want naming '$word': $*" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag
}

# the values, in both profiles
for PROFILE in --compat=1.03 --compat=2.00; do
	# values of -s
	bad 1 "-s abc" -s abc
	bad 1 "-s -5" -s -5
	bad 1 "-s 64x" -s 64x
	bad 1 "-s " -s ""
	bad 1 "-s 99999999999999999999999" -s 99999999999999999999999
	bad 1 "-s 2000000" -s 2000000 -r 0
	bad 1 "-s 512k" -s 512k -r 0
	bad 1 "power of two" -s 64:1000 -r 0
	bad 1 "power of two" -s 64:128 -r 0
	bad 1 "power of two" -s 64:2m -r 0
	bad 1 "power of two" -s 64: -r 0
	bad 1 "-s 64:4k:0" -s 64:4k:0 -r 0
	bad 1 "-s 64:4k:100:0" -s 64:4k:100:0 -r 0
	bad 1 "-s 64:4k:100:3:9" -s 64:4k:100:3:9 -r 0
	bad 1 "double RAM" -s 64 -r 1024
	# values of -n
	bad 1 "-n abc" -n abc -s 0
	bad 1 "-n -1" -n -1 -s 0
	bad 1 "-n 4:abc" -n 4:abc -s 0
	bad 1 "min size is larger" -n 4:100:200 -s 0
	bad 1 "-n 4:-3" -n 4:-3 -s 0
	bad 1 "-n 4:100:0:0" -n 4:100:0:0 -s 0
	bad 1 "power of two" -n 4:100:0:2:1000 -s 0
	bad 1 "-n 1:2:3:4:5:6" -n 1:2:3:4:5:6 -s 0
	bad 1 "1 GiB" -n 40000 -s 0 -r 0
	bad 1 "half of" -n 1024 -s 0 -r 32
	bad 1 "-s 0 and -n 0: nothing to do" -s 0 -n 0
	bad 1 "-s 0, -n 0 and --dirs 0:2: nothing to do" -s 0 -n 0 --dirs=0:2
	# waits
	bad 1 "--stall x" --stall=x -s 0 -n 1
	bad 1 "--stall -1" --stall=-1 -s 0 -n 1
	bad 1 "--stall 86401" --stall=86401 -s 0 -n 1
	bad 1 "--cleanup-wait 1m" --cleanup-wait=1m -s 0 -n 1
	bad 1 "--cleanup-wait " --cleanup-wait= -s 0 -n 1
	bad 1 "--shift -1" --shift=-1 -s 0 -n 1
	bad 1 "--shift 1000001" --shift=1000001 -s 0 -n 1
	# names, numbers, seeds
	bad 1 "-m" -m "a,b" -s 0 -n 1
	bad 1 "-m" -m "a
b" -s 0 -n 1
	bad 1 "-m" -m "$(printf '%0300d' 0)" -s 0 -n 1
	bad 1 "-r abc" -r abc
	bad 1 "-r -1" -r -1
	bad 1 "-x 0" -x 0 -s 0 -n 1
	bad 1 "-x abc" -x abc -s 0 -n 1
	bad 1 "-z abc" -z abc -s 0 -n 1
	bad 1 "-z 99999999999" -z 99999999999 -s 0 -n 1
	bad 1 "-z" -z 1 -Z /dev/null -s 0 -n 1
	bad 1 "-Z $WORK/no-such-file" -Z "$WORK/no-such-file" -s 0 -n 1
done
PROFILE=

# options of the other profile, unknown options, stray arguments
bad 1 "-c" -c 2 -s 0 -n 1
bad 1 "-D" -D -s 0 -n 1
bad 1 "-f 20" -f20 -s 0 -n 1
bad 1 "--compat 3" --compat=3 -s 0 -n 1
bad 1 "-p 0" -p 0
bad 1 "-p x" -p x
bad 1 "-y x" -y x -s 0 -n 1
bad 1 "-y s" -p 2 -y s
bad 1 "-y s" -y s -x 2 -s 0 -n 1
bad 1 "-c 0" --compat=2.00 -c 0 -s 0 -n 1
bad 1 "-c 201" --compat=2.00 -c 201 -s 0 -n 1
bad 1 "-f x" --compat=2.00 -fx -s 0 -n 1
bad 1 "--progress sometimes" --progress=sometimes -s 0 -n 1
bad 1 "--json" --json= -s 0 -n 1
bad 1 "double RAM" --compat=2.00 -c 2 -s 64 -r 100
bad 1 "invalid option" -k
bad 1 "unrecognized option" --bogus
bad 1 "foo" -s 0 -n 1 foo
bad 1 "must be attached" -s 0 -n 1 -f 0
# every option with an empty value, with a value it does not take, or
# with its value missing at the end, in both profiles
for PROFILE in --compat=1.03 --compat=2.00; do
	for opt in -d -s -n -r -x -u -g -c -p -y -z -Z; do
		bad 1 "$opt" "$opt" "" -s 0 -n 1
	done
	for pair in directory:-d size:-s files:-n ram:-r runs:-x user:-u \
	    group:-g concurrency:-c semaphore-procs:-p sync-with:-y seed:-z \
	    random-file:-Z fast:-f compat:--compat json:--json \
	    progress:--progress; do
		bad 1 "${pair#*:}" "--${pair%%:*}=" -s 0 -n 1
	done
	for opt in quiet sync direct precise quick help version; do
		bad 1 "--$opt' doesn't allow an argument" "--$opt=1" -s 0 -n 1
	done
	for opt in d s n m r x u g c p y z Z; do
		bad 1 "requires an argument -- '$opt'" -s 0 -n 1 "-$opt"
	done
done
PROFILE=

# an unknown long option: the nearest one, within two edits, in the hint
hint() { # hint WANT ARGS...: the line after getopt_long's says WANT
	hint_want=$1
	shift
	bad 1 "option" "$@"
	[ "$(sed -n 2p "$WORK/err")" = "$hint_want" ]
	ok $? "$*: the hint is '$hint_want'" || diag < "$WORK/err"
}
hint "Did you mean --json? Try 'clyde --help'." --jsno=x -s 0 -n 1
hint "Did you mean --quiet? Try 'clyde --help'." --quite -s 0 -n 1
hint "Did you mean --size? Try 'clyde --help'." --siez=8 -n 1
hint "Try 'clyde --help'." --xyzzy -s 0 -n 1
# a known option with a wrong value is not "unknown"
hint "Try 'clyde --help'." -s 0 -n 1 --compat
# -n counts units of 1024 files: a count of files says so
bad 1 "units of 1024 files" -n 16k

# the target
bad 2 "No such file or directory" -d "$WORK/missing" -s 0 -n 1
bad 2 "not a directory" -d /etc/passwd -s 0 -n 1
bad 2 "not enough free space" -s 1000g -r 0 -n 0

if [ "$(id -u)" = 0 ]; then
	# root without -u is refused, as bonnie++ does
	t=$(fresh_target)
	"$CLYDE" -d "$t" -s 0 -n 1 >/dev/null 2>"$WORK/err"
	rc=$?
	grep -q -- '"-u" switch' "$WORK/err" && [ "$rc" = 1 ] && is_empty "$t" &&
	    grep -q "^Try 'clyde -u nobody -d DIR'" "$WORK/err"
	ok $? "root without -u: exit 1, an example with -u" || diag < "$WORK/err"
	t=$(fresh_target)
	"$CLYDE" -d "$t" -g root -s 0 -n 1 >/dev/null 2>"$WORK/err"
	rc=$?
	grep -q -- '"-u" switch' "$WORK/err" && [ "$rc" = 1 ] && is_empty "$t"
	ok $? "root with -g alone: exit 1"
	bad 1 "no password entry" -u 4000000000 -s 0 -n 1
	# a target the user cannot write
	t=$(fresh_target)
	"$CLYDE" -d "$t" -u nobody -s 0 -n 1 >/dev/null 2>"$WORK/err"
	rc=$?
	grep -q "not writable" "$WORK/err" && [ "$rc" = 2 ] && is_empty "$t"
	ok $? "unwritable target: exit 2" || diag < "$WORK/err"
	bad 1 "no such user" -u no-such-user-here -s 0 -n 1
	bad 1 "no such group" -u root:no-such-group-here -s 0 -n 1
fi

# an unknown option through getopt_long: its message names the program
# as clyde's own do, not as it was called (./clyde)
t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -s 0 -n 1 -k >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 1 ] && [ "$(sed -n 1p "$WORK/err")" = "clyde: invalid option -- 'k'" ] &&
    [ "$(sed -n 2p "$WORK/err")" = "Try 'clyde --help'." ] &&
    [ "$(wc -l <"$WORK/err")" = 2 ] && [ ! -s "$WORK/out" ] && is_empty "$t"
ok $? "an unknown option: clyde: and the option named, the hint, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --help and --version succeed and print to stdout
"$CLYDE" --help | grep -q "^usage: clyde"
ok $? "--help prints the usage on stdout"
"$CLYDE" --version | grep -q "^clyde [0-9]"
ok $? "--version prints the version"

# --help and --version with nowhere to write: standard output closed, or
# open for reading only: a write error (exit 3) in one line, as for clyde
# report, not a success that printed nothing
for opt in --help --version; do
	what=${opt#--}
	for how in closed ro; do
		if [ $how = closed ]; then
			"$CLYDE" $opt >&- 2>"$WORK/err"
			rc=$? state=closed
		else
			"$CLYDE" $opt 1</dev/null 2>"$WORK/err"
			rc=$? state="open for reading only"
		fi
		[ "$rc" = 3 ] && [ "$(cat "$WORK/err")" = \
		    "clyde: standard output is $state: nowhere to write the $what" ]
		ok $? "$opt with standard output $state: exit 3, one line" ||
		    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	done
done

# --help on --chunks: the 17 powers of two from 256 to 16m, not 32
"$CLYDE" --help >"$WORK/help"
grep -A2 -- '--chunks=LIST' "$WORK/help" | grep -q "each once: at most 17)" &&
    ! grep -q "at most 32" "$WORK/help"
ok $? "--help: --chunks takes at most 17 sizes, the powers of two from 256 to 16m"

done_testing
