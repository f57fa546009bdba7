#!/bin/sh
# The target and the scratch directory: a pseudo filesystem is refused
# before the run; the free-inode check counts every inode the run makes
# (statvfs() told a small figure by the fault shim); a scratch directory
# that someone moved away or replaced is never removed or named as the
# run's own at the end.
. "$(dirname "$0")/../lib.sh"

# --- pseudo filesystems: refused before anything is made ---------------
pseudo() { # pseudo DIR: refused with one line naming -d DIR, exit 2
	"$CLYDE" -d "$1" $AS_USER -m host -r 0 -s 0 -n 1 >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l < "$WORK/err")" = 1 ] &&
	    grep -q "^clyde: -d $1: on $2, a pseudo filesystem" "$WORK/err" &&
	    [ ! -s "$WORK/out" ] && [ -z "$(ls -d "$1"/clyde.* 2>/dev/null)" ]
	ok $? "-d $1 ($2): refused before the run, exit 2" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
}
# (a case each, skipped where the filesystem is not mounted: a chroot)
if [ -d /proc/self ]; then pseudo /proc proc; else skip "no /proc mounted" 1; fi
if [ -d /sys/kernel ]; then pseudo /sys sysfs; else skip "no /sys mounted" 1; fi
# as root a directory made on a cgroup filesystem would be a new cgroup
cg=
for d in /sys/fs/cgroup /sys/fs/cgroup/*; do
	[ -d "$d" ] || continue
	case $(stat -f -c %T "$d" 2>/dev/null) in
	cgroupfs) cg=cgroup ;;
	cgroup2fs) cg=cgroup2 ;;
	*) continue ;;
	esac
	pseudo "$d" $cg
	break
done
[ -n "$cg" ] || skip "no cgroup filesystem mounted" 1

# --- free inodes: the files, their directories, the scratch directory and
# its record
if [ -n "${CLYDE_SANITIZED:-}" ]; then
	# ASan must come first among the libraries: no LD_PRELOAD shim there
	skip "sanitizer build: the fault shim runs on the normal build" 6
else
	inodes() { # inodes FREE ARGS...: a run told FREE free inodes
		free=$1
		shift
		CLYDE_FAULT_FREE_INODES=$free LD_PRELOAD=$SHIM run "$@"
	}
	# -n 1: 1024 files, files/, the scratch directory and its record
	inodes 1026 -s 0 -n 1
	[ "$rc" = 2 ] && is_empty "$t" &&
	    grep -q "not enough free inodes: the test needs 1027 .* has 1026$" "$WORK/err"
	ok $? "-n 1 with 1026 free inodes: refused before the run, 1027 needed" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	inodes 1027 -s 0 -n 1
	[ "$rc" = 0 ] && is_empty "$t"
	ok $? "-n 1 with 1027 free inodes: runs" || { echo "rc=$rc"; cat "$WORK/err"; } | diag
	# hard links in 3 subdirectories, 2 copies: 2 + 2 * (1024 + 1 + 3 + 1),
	# each directory's first file one of the 1024
	inodes 2059 --compat=2.00 -c 2 -s 0 -n 1:-1:0:3
	[ "$rc" = 2 ] && is_empty "$t" &&
	    grep -q "the test needs 2060 .* has 2059$" "$WORK/err"
	ok $? "-c 2 -n 1:-1:0:3: copy.K, files/, subdirectories counted, no file beside the links" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	inodes 2060 --compat=2.00 -c 2 -s 0 -n 1:-1:0:3
	[ "$rc" = 0 ] && is_empty "$t"
	ok $? "-c 2 -n 1:-1:0:3 with 2060 free inodes: runs" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	# --dirs=1:2:4: 1024 directories, dirs/, the scratch directory and its record
	inodes 1026 -s 0 -n 0 --dirs=1:2:4
	[ "$rc" = 2 ] && is_empty "$t" &&
	    grep -q "not enough free inodes: the test needs 1027 .* has 1026$" "$WORK/err"
	ok $? "--dirs=1:2:4 with 1026 free inodes: refused before the run, 1027 needed" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	inodes 1027 -s 0 -n 0 --dirs=1:2:4
	[ "$rc" = 0 ] && is_empty "$t"
	ok $? "--dirs=1:2:4 with 1027 free inodes: runs" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
fi

# --- a component of -d swapped between the checks and the run -----------
# -d is via/target, via a symbolic link to a/: the fault shim holds the
# last check (statvfs, the free space and inodes) while via is pointed at
# b/, whose target is a file, which the checks would refuse.  The run is
# made in the directory that was checked, opened once, before the checks.
if [ -n "${CLYDE_SANITIZED:-}" ]; then
	skip "sanitizer build: the fault shim runs on the normal build" 1
else
	sw=$WORK/swap
	mkdir -p "$sw/a/target" "$sw/b" && chmod 755 "$sw" "$sw/a" "$sw/a/target" &&
	    printf 'a file\n' >"$sw/b/target" && ln -s a "$sw/via"
	rm -rf "$WORK/release" "$WORK/held"
	CLYDE_FAULT_CALL=statvfs CLYDE_FAULT_ERR=block \
	    CLYDE_FAULT_RELEASE="$WORK/release" CLYDE_FAULT_HELD="$WORK/held" \
	    LD_PRELOAD=$SHIM "$CLYDE" -d "$sw/via/target" $AS_USER -m host -r 0 \
	    -q -s 0 -n 1 >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	until_true 600 test -d "$WORK/held"
	ln -sfn b "$sw/via.new" && mv -T "$sw/via.new" "$sw/via"
	touch "$WORK/release"
	wait $pid
	rc=$?
	[ "$rc" = 0 ] && [ -d "$WORK/held" ] && [ "$(readlink "$sw/via")" = b ] &&
	    [ "$(cat "$sw/b/target")" = "a file" ] && is_empty "$sw/a/target" &&
	    ! grep -q "^clyde:" "$WORK/err" && grep -q "^host," "$WORK/out"
	ok $? "-d through a link swapped after the checks: the run is in the directory checked" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -laR "$sw"; } | diag
fi
# the same, structurally: of the calls that name a file (strace's %file,
# and statfs), one names -d or a path in it: its open (no stat, statfs,
# access or realpath of it, no second open, by any process of the run)
t=$(fresh_target)
if needs strace strace && strace -o /dev/null true 2>/dev/null; then
	# LeakSanitizer cannot work under ptrace (the sanitizer build)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	    strace -f -qq -o "$WORK/trace" -e trace=%file,%statfs "$CLYDE" -d "$t" \
	    $AS_USER -m host -r 0 -q -s 0 -n 1 >"$WORK/out" 2>"$WORK/err"
	rc=$?
	grep -F "\"$t" "$WORK/trace" | grep -v ' execve(' >"$WORK/named"
	[ "$rc" = 0 ] && [ "$(grep -c '' "$WORK/named")" = 1 ] &&
	    grep -Eq " open(at)?\((AT_FDCWD, )?\"$t\"" "$WORK/named" && is_empty "$t"
else
	# strace that cannot trace here (no ptrace in a container): a skip too
	[ -e "$WORK/needs" ] || echo "needs ptrace, which strace cannot use here" >"$WORK/needs"
fi
ok $? "-d is named by one call, its open: every check and the run use that descriptor" ||
    { echo "rc=$rc"; cat "$WORK/named" "$WORK/err"; } | diag

# --- the scratch directory moved away and replaced during the run -------
# -y p waits for Enter before each phase: the scratch directory exists
# by then, and the lines go in only once it has been tampered with.
tamper() { # tamper HOW: HOW is "full", "empty" or "none" (nothing put back)
	t=$(fresh_target)
	{
		i=0
		until s=$(ls -d "$t"/clyde.* 2>/dev/null) || [ $i -ge 600 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		mv "$s" "$t/moved"
		if [ "$1" != none ]; then
			mkdir "$s"
			[ "$1" = full ] && echo theirs >"$s/other"
		fi
		echo "$s" >"$WORK/scratch"
		yes ''
	} | "$CLYDE" -d "$t" $AS_USER -m host -r 0 -y p -s 0 -n 1 \
	    >"$WORK/out" 2>"$WORK/err"
	rc=$?
	s=$(cat "$WORK/scratch")
}
tamper full
[ "$rc" = 3 ] && grep -q "^clyde: $s is not the directory this run made" \
    "$WORK/err" && ! grep -q "rm -rf" "$WORK/err" &&
    [ "$(cat "$s/other")" = theirs ] && is_empty "$t/moved"
ok $? "replaced by a directory with a file: left alone and never named for rm -rf" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t"; } | diag
tamper empty
[ "$rc" = 3 ] && [ -d "$s" ] && is_empty "$t/moved" &&
    grep -q "^clyde: $s is not the directory this run made" "$WORK/err"
ok $? "replaced by an empty directory: not removed" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t"; } | diag
tamper none
[ "$rc" = 3 ] && [ ! -e "$s" ] && is_empty "$t/moved" &&
    grep -q "^clyde: the scratch directory was moved away from $s" "$WORK/err" &&
    ! grep -q "rm -rf" "$WORK/err"
ok $? "moved away: emptied, and said so" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t"; } | diag

# --- the limits of the process: refused before the run, not EMFILE or
# ENOMEM in the middle of a phase (clyde(1), EXIT STATUS 2) -------------
limited() { # limited ULIMIT-ARGS -- CLYDE-ARGS: a run under ulimit
	lim=
	while [ "$1" != -- ]; do lim="$lim $1"; shift; done
	shift
	t=$(fresh_target)
	(ulimit $lim && exec "$CLYDE" -d "$t" $AS_USER -m host -r 0 "$@") \
	    >"$WORK/out" 2>"$WORK/err"
	rc=$?
}
limited -n 6 -- -s 16 -n 1
[ "$rc" = 2 ] && [ ! -s "$WORK/out" ] && is_empty "$t" &&
    grep -q "^clyde: the run needs [0-9]* open files at once, and the limit is 6 (ulimit -n): raise it\$" \
    "$WORK/err"
ok $? "ulimit -n 6 (hard): refused before the run, exit 2, the need and the limit named" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
limited -n 12 -- --compat=2.00 -s 16 -n 1 -c 2
[ "$rc" = 2 ] && is_empty "$t" &&
    grep -q "limit is 12 (ulimit -n): raise it, or give fewer copies (-c)\$" "$WORK/err"
ok $? "ulimit -n 12 with -c 2: refused, fewer copies suggested" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
# a soft limit below the need, a hard one above: raised, the run goes on
limited -S -n 6 -- -s 16 -n 1
[ "$rc" = 0 ] && is_empty "$t" && ! grep -q "open files\|Too many" "$WORK/err"
ok $? "ulimit -S -n 6: the soft limit raised, the run completes" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
# the order of -n N's names (4 bytes a name, N * 1024 names) does not fit
# in half its size more address space than clyde needs to run -n 1.  What
# clyde needs depends on the machine (its libc, the locale loaded): found by
# bisection to 64 KB, not assumed; N is what the target's free inodes allow
# (clyde refuses a run that would use them up before it reserves memory).
# AddressSanitizer reserves terabytes.
inodes=$(df -Pi "$WORK" 2>/dev/null | awk 'NR == 2 && $4 ~ /^[0-9]+$/ { print $4 }')
n=$(( ${inodes:-0} / 2048 ))
[ "$n" -gt 1000 ] && n=1000
if [ -n "${CLYDE_SANITIZED:-}" ]; then
	skip "ulimit -v: not on the sanitizer build (its shadow memory)" 1
elif [ "$n" -lt 64 ]; then
	skip "ulimit -v: $WORK has ${inodes:-no count of} free inodes, -n 64 needs 131072" 1
else
	lo=4000 hi=36000        # KB: clyde fails at lo, runs at hi (else no case)
	while [ $((hi - lo)) -gt 64 ]; do
		mid=$(((lo + hi) / 2))
		{ limited -v "$mid" -- -s 0 -n 1; } 2>/dev/null
		if [ "$rc" = 0 ]; then hi=$mid; else lo=$mid; fi
	done
	{ limited -v "$hi" -- -s 0 -n 1; } 2>/dev/null
	base_rc=$rc
	limited -v $((hi + n * 2)) -- -s 0 -n "$n"
	[ "$base_rc" = 0 ] && [ "$rc" = 2 ] && is_empty "$t" &&
	    grep -q "^clyde: -n $n: no memory for the names of $((n * 1024)) files: " \
	    "$WORK/err" && ! grep -q "Create files" "$WORK/err" &&
	    ! grep -q "$n" "$WORK/out"
	ok $? "ulimit -v: no memory for -n's names: refused before the first phase, exit 2, nothing left" ||
	    { echo "-n $n, base ${hi} KB (rc $base_rc), rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag
fi

done_testing
