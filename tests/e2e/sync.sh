#!/bin/sh
# The syncs of -b (and of every run): the fsync(), fdatasync(), sync()
# and syncfs() calls that clyde makes in each phase, counted with
# strace, against the counts that bonnie++'s source gives for the same
# options (2.00a for --compat=2.00, 1.03e for --compat=1.03; clyde(1),
# -b), and against bonnie++ 2.00a itself when it is installed.
#
# What the sources say (bon_io.cpp, bon_file.cpp, bonnie++.cpp):
# 2.00a's CFileOp::Close() calls fsync() at every close of its file:
# after the per-char write (or, with -f, on the empty file it made
# before, when it makes it anew for the block write), the block write,
# the rewrite, the per-char read, the block read, in the seek test's
# parent once the tickets are written and in each seeker when done.
# 1.03e's close() calls fsync() on each of its descriptors with -b only
# (block write, rewrite, block read, each seeker), never on its stdio
# streams (per-char phases).  Both: with -b, fsync() after each block
# that a seek writes back; for each small file made, fsync() of the file
# then of its directory; after each unlink, fsync() of the directory.
# 2.00a ends each create and delete phase with sync(); 1.03e never calls
# it.  Nothing syncs per block in the block write or the rewrite.
#
# Where clyde's 1.03 profile syncs more than 1.03e (clyde(1),
# COMPATIBILITY), the expected count says so: the end of each phase that
# writes, and sync() after each create and delete phase.
#
# Each phase is told by the test hooks (CLYDE_TEST_MARK_PHASES: an
# access() that names it); bonnie++'s by its progress lines on stderr
# or, when write() is not traced, by the opens of its data file.  The
# seekers are the other processes (threads in bonnie++ 2.00a): strace
# -ff writes one file for each.
. "$(dirname "$0")/../lib.sh"

NTESTS=17
SYNCS=fsync,fdatasync,sync,syncfs
# a chunk of 8192 bytes: the size of the seekers' reads and writes
CHUNK=8192
# the small files: 1024 of 1 to 4 KiB in 2 directories
FILES="1:4k:1k:2"
NFILES=1024

why_not=""
if ! command -v strace >/dev/null 2>&1; then
	why_not="needs strace (Debian package strace)"

elif ! strace -f -qq -o /dev/null true >/dev/null 2>&1; then
	why_not="strace cannot trace here (ptrace not allowed)"
elif [ ! -x "$CLYDE_HOOKS" ]; then
	why_not="$CLYDE_HOOKS is not built (make build/tests/clyde-hooks)"
fi
if [ -n "$why_not" ]; then
	skip "$why_not" "$NTESTS"
	done_testing
fi

# --seccomp-bpf: the calls not traced do not stop (the per-char phases
# make one call per byte); older strace has no such option
BPF=""
strace -f -qq --seccomp-bpf -e trace=fsync -o /dev/null true >/dev/null 2>&1 &&
    BPF=--seccomp-bpf
# LeakSanitizer ptraces the process at its exit, which it cannot under strace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# trace NAME CALLS PROGRAM ARGS...: strace -ff into $WORK/NAME/t.PID
trace() {
	dir=$WORK/$1 calls=$2
	shift 2
	rm -rf "$dir" && mkdir "$dir" || return 1
	CLYDE_TEST_MARK_PHASES=1 strace -ff -qq $BPF -o "$dir/t" \
	    -e trace="$calls" "$@" >"$dir/out" 2>"$dir/err"
}

# count DIR: one line per figure, "KEY VALUE", from the files of trace.
# The main process is the one that marks its phases: clyde's access()
# of the test hooks, else bonnie++'s progress lines on stderr, else its
# opens of Bonnie.PID (write() not traced: the per-char phases).  Each
# sync call of the main process counts for its phase ("put_block.fsync")
# and, with the call traced just before it, "put_block.fsync<write".
# The seekers are the other processes (threads) that read chunks:
# "seeker-..." lines add them up, "rule103" counts those whose writes
# are 1.03e's ceil(reads / 10), "seekers-syncing-once" those that made
# one sync call.
count() {
	main=$(grep -l 'clyde-test-mark/' "$1"/t.* 2>/dev/null | head -1)
	how=marks
	if [ -z "$main" ]; then
		main=$(grep -lE '^write\(2, "(Writing|Create files)' "$1"/t.* \
		    2>/dev/null | head -1)
		how=progress
	fi
	if [ -z "$main" ]; then
		main=$(grep -l '^openat(.*Bonnie\.[0-9]*", .*O_CREAT' \
		    "$1"/t.* 2>/dev/null | head -1)
		how=opens
	fi
	[ -n "$main" ] || return 1
	# one awk reads every file but the main one (each process started
	# costs): a line for each that read chunks
	awk -v chunk="$CHUNK" -v main="$main" '
	    function seeker() {
		if (reads) print reads, writes, syncs, after
		reads = writes = syncs = after = 0
		last = ""
	    }
	    FNR == 1 { seeker() }
	    FILENAME == main { next }
	    { n = $NF }
	    /^read\(/ && n == chunk { reads++ }
	    /^write\(/ && n == chunk { writes++; last = "write"; next }
	    /^(fsync|fdatasync)\(/ {
		syncs++
		if (last == "write") after++
		last = "fsync"
		next
	    }
	    /^[a-z_0-9]+\(/ { last = "other" }
	    END { seeker() }' "$1"/t.* >"$1/seekers"
	awk '
	    { n++; r += $1; w += $2; s += $3; a += $4
		if ($2 == int(($1 + 9) / 10)) ok103++
		if ($3 == 1) once++ }
	    END { print "seekers", n + 0; print "seeker-reads", r + 0
		print "seeker-writes", w + 0; print "seeker-syncs", s + 0
		print "seeker-syncs<write", a + 0; print "rule103", ok103 + 0
		print "seekers-syncing-once", once + 0 }
	' "$1/seekers"
	awk -v how="$how" '
	    function call_of(line) {
		sub(/\(.*/, "", line)
		if (line == "unlinkat") line = "unlink"
		if (line == "openat") line = "open"
		return line
	    }
	    how == "marks" && /clyde-test-mark\// {
		ph = $0
		sub(/.*clyde-test-mark\/[a-z]+\//, "", ph)
		sub(/".*/, "", ph)
		next
	    }
	    how == "progress" && /^write\(2, "/ {
		# several lines may come in one write(): the last one counts
		m = $0
		if (m ~ /Writing a byte/) ph = "putc"
		if (m ~ /Writing intelligently/) ph = "put_block"
		if (m ~ /Rewriting/) ph = "rewrite"
		if (m ~ /Reading a byte/) ph = "getc"
		if (m ~ /Reading intelligently/) ph = "get_block"
		if (m ~ /start .em/) ph = "seeks"
		if (m ~ /Create files in sequential/) ph = "seq_create"
		if (m ~ /Stat files in sequential/) ph = "seq_stat"
		if (m ~ /Delete files in sequential/) ph = "seq_del"
		if (m ~ /Create files in random/) ph = "ran_create"
		if (m ~ /Stat files in random/) ph = "ran_stat"
		if (m ~ /Delete files in random/) ph = "ran_del"
		next
	    }
	    how == "opens" && /^openat\(.*Bonnie\.[0-9]+"/ {
		opens++
		ph = "open" opens
		last = "open"
		next
	    }
	    /^(fsync|fdatasync|sync|syncfs)\(/ {
		call = call_of($0)
		# before its first progress line, bonnie++ -f syncs the
		# empty file that it makes anew for the block write
		p = ph == "" ? "put_block" : ph
		c[p "." call]++
		if (ph != "") c[p "." call "<" last]++
		last = call
		next
	    }
	    # clyde keeps one subdirectory open for the fsync() of -b, and
	    # opens the next when the directory changes; bonnie++ keeps
	    # them all open: such an open is not the call before
	    /^openat\(.*O_DIRECTORY/ { next }
	    /^[a-z_0-9]+\(/ { last = call_of($0) }
	    END {
		# the nth open of the data file: 6 with the per-char
		# phases, 5 without (the first is then the empty file)
		if (how == "opens") {
		    if (opens == 6)
			split("putc put_block rewrite getc get_block seeks",
			    name, " ")
		    else
			split("put_block put_block rewrite get_block seeks",
			    name, " ")
		    for (k in c) {
			split(k, part, ".")
			if (part[1] ~ /^open[0-9]+$/ && k !~ /</)
			    d[name[substr(part[1], 5)] "." part[2]] += c[k]
		    }
		    for (k in d)
			print k, d[k]
		    exit
		}
		for (k in c)
		    print k, c[k]
	    }
	' "$main"
}

# get FILE KEY: the figure of KEY, 0 when absent
get() { awk -v k="$2" '$1 == k { v = $2 } END { print v + 0 }' "$1"; }

# The checks below read the figures in one awk each, not a process for
# each figure: a process costs here, and they look up hundreds.

# expect FILE "KEY=N ...": every KEY has N; what differs goes to $WORK/why
expect() {
	awk -v want="$2" '
	    { v[$1] = $2 }
	    END {
		n = split(want, kv, /[ \t\n]+/)
		for (i = 1; i <= n; i++) {
		    if (kv[i] == "")
			continue
		    k = kv[i]
		    sub(/=[^=]*$/, "", k)
		    w = substr(kv[i], length(k) + 2)
		    if ((v[k] + 0) "" != w)
			bad = bad " " k "=" v[k] + 0 " (want " w ")"
		}
		if (bad != "") {
		    print "differs:" bad
		    exit 1
		}
	    }' "$1" >>"$WORK/why"
}

# only FILE "KEY=N ...": no phase of FILE has a sync count but KEYS
only() {
	awk -v want="$2" '
	    BEGIN {
		n = split(want, kv, /[ \t\n]+/)
		for (i = 1; i <= n; i++) {
		    sub(/=.*/, "", kv[i])
		    wanted[kv[i]] = 1
		}
	    }
	    $1 ~ /^[a-z_]+\.[a-z]+$/ && $2 > 0 && !($1 in wanted) {
		more = more " " $1
	    }
	    END {
		if (more != "") {
		    print "more syncs than expected in:" more
		    exit 1
		}
	    }' "$1" >>"$WORK/why"
}

# clyde ARGS...: traced, in a fresh target; figures in $WORK/NAME/counts
clyde_traced() { # clyde_traced NAME CALLS ARGS...
	name=$1 calls=$2
	shift 2
	t=$(fresh_target)
	trace "$name" "$calls,/access" "$CLYDE_HOOKS" -d "$t" $AS_USER -r 0 \
	    -q "$@" &&
	    count "$WORK/$name" >"$WORK/$name/counts"
	rc=$?
	[ "$rc" = 0 ] && is_empty "$t"
}

show() { # show NAME...: what a failed case prints, then forget why
	{
		cat "$WORK/why"
		for n in "$@"; do
			echo "== $n:"
			sort "$WORK/$n/counts"
			tail -5 "$WORK/$n/err"
		done
	} 2>/dev/null | diag
	rm -f "$WORK/why"
}

# The I/O phases, small: every call traced costs.  2 MiB (256 chunks,
# room for the 1 MiB of -f1), F data files (1.03 splits the data in
# files of 1 GiB), S seekers, and fewer seeks than the default, given as
# -s SIZE:CHUNK:SEEKS:SEEKERS (bonnie++ 2.00a takes them so too; 1.03e
# has no option for them: 8192), enough that each seeker gets some (the
# seekers share them out as they go).  In 1.03 a multiple of 10, so
# that the seekers write back from SEEKS103 / 10 to SEEKS103 / 10 +
# S103 - 1 blocks (one more for each that stops in the middle of a ten);
# in 2.00, which writes a block back where its random number is a
# multiple of 10, enough that none written back is out of the question
# (0.9^1024)
F=1
S103=3
S200=5
SEEKS103=1000
SEEKS200=1024
IO103=2:$CHUNK:$SEEKS103:$S103
IO200=2:$CHUNK:$SEEKS200:$S200

# --- 2.00 -b, no per-char: the I/O phases and the small files --------
W="write,read,openat,unlinkat,unlink"
io_files_200="put_block.fsync=2 rewrite.fsync=1 get_block.fsync=1
seeks.fsync=1
seq_create.fsync=$((2 * NFILES)) seq_create.sync=1
seq_del.fsync=$NFILES seq_del.sync=1
ran_create.fsync=$((2 * NFILES)) ran_create.sync=1
ran_del.fsync=$NFILES ran_del.sync=1"
clyde_traced c200b "$SYNCS,$W" --compat=2.00 -s "$IO200" -f -b -n "$FILES" -z 1
ok $? "2.00 -b -f: clyde runs under strace" || show c200b
c=$WORK/c200b/counts
expect "$c" "$io_files_200" && only "$c" "$io_files_200"
ok $? "2.00 -b -f: the empty file and each block phase's close synced, the small files and their directories, sync() after create and delete" ||
    show c200b
w=$(get "$c" seeker-writes)
expect "$c" "seekers=$S200 seeker-syncs=$((w + S200)) seeker-syncs<write=$w" &&
    [ "$w" -gt 0 ]
ok $? "2.00 -b -f: each seeker syncs after each block it writes back, and once when done" ||
    show c200b
expect "$c" "seq_create.fsync<write=$NFILES seq_create.fsync<fsync=$NFILES
ran_create.fsync<write=$NFILES ran_create.fsync<fsync=$NFILES
seq_del.fsync<unlink=$NFILES ran_del.fsync<unlink=$NFILES
put_block.fsync<write=1 rewrite.fsync<write=1 get_block.fsync<read=1"
ok $? "2.00 -b -f: the file synced after its write, then its directory; the directory after each unlink; the block phases at their close" ||
    show c200b

# --- 1.03 -b, no per-char ---------------------------------------------
# 1.03e: F at the close of block write, rewrite and block read; none in
# the parent of the seekers; clyde's own: sync() after create and delete
io_files_103="put_block.fsync=$F rewrite.fsync=$F get_block.fsync=$F
seq_create.fsync=$((2 * NFILES)) seq_create.sync=1
seq_del.fsync=$NFILES seq_del.sync=1
ran_create.fsync=$((2 * NFILES)) ran_create.sync=1
ran_del.fsync=$NFILES ran_del.sync=1"
clyde_traced c103b "$SYNCS,$W" --compat=1.03 -s "$IO103" -f -b -n "$FILES" -z 1
ok $? "1.03 -b -f: clyde runs under strace" || show c103b
c=$WORK/c103b/counts
expect "$c" "$io_files_103 seeks.fsync=0" && only "$c" "$io_files_103"
ok $? "1.03 -b -f: each block phase's close synced (block read too), the small files and their directories" ||
    show c103b
w=$(get "$c" seeker-writes)
r=$(get "$c" seeker-reads)
expect "$c" "seekers=$S103 rule103=$S103 seeker-syncs=$((w + S103 * F)) seeker-syncs<write=$w" &&
    [ "$r" = "$SEEKS103" ] && [ "$w" -ge $((SEEKS103 / 10)) ] &&
    [ "$w" -le $((SEEKS103 / 10 + S103 - 1)) ]
ok $? "1.03 -b -f: each seeker writes back its 1st, 11th ... block, syncs after each, and its files when done" ||
    show c103b

# --- without -b: what is synced in any case ---------------------------
# Without -b no fsync() comes in the small files' phases, so no call
# before one is to be seen there: they run apart from the I/O phases,
# traced for the syncs only (and what tells the phases), a tenth of the
# calls of a run traced in full; the figures of the two runs are added.
# joined NAME PARTS...: in $WORK/NAME, the counts of the runs PARTS added
# up (each phase is in one of them) and their stderr
joined() {
	name=$1
	shift
	mkdir -p "$WORK/$name" || return 1
	for p; do cat "$WORK/$p/err"; done >"$WORK/$name/err"
	for p; do cat "$WORK/$p/counts"; done |
	    awk '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' \
	    >"$WORK/$name/counts"
}
clyde_traced c200io "$SYNCS,$W" --compat=2.00 -s "$IO200" -f -n 0 -z 1
clyde_traced c200files "$SYNCS" --compat=2.00 -s 0 -n "$FILES" -z 1
joined c200 c200io c200files
c=$WORK/c200/counts
want="put_block.fsync=2 rewrite.fsync=1 get_block.fsync=1 seeks.fsync=1
seq_create.sync=1 seq_del.sync=1 ran_create.sync=1 ran_del.sync=1"
expect "$c" "$want seekers=$S200 seekers-syncing-once=$S200" &&
    only "$c" "$want"
ok $? "2.00 without -b: every close of the data file synced, in the seekers too; sync() after create and delete" ||
    show c200
clyde_traced c103io "$SYNCS,$W" --compat=1.03 -s "$IO103" -f -n 0 -z 1
clyde_traced c103files "$SYNCS" --compat=1.03 -s 0 -n "$FILES" -z 1
joined c103 c103io c103files
c=$WORK/c103/counts
expect "$c" "put_block.fsync=$F rewrite.fsync=$F get_block.fsync=0
seeks.fsync=0 seeker-syncs=0 seeker-writes=$(get "$c" seeker-writes)
seq_create.fsync=0 seq_create.sync=1 seq_del.sync=1 ran_create.sync=1
ran_del.sync=1 ran_del.fsync=0 seq_del.fsync=0 ran_create.fsync=0" &&
    [ "$(get "$c" seeker-writes)" -ge $((SEEKS103 / 10)) ]
ok $? "1.03 without -b: clyde's own syncs only (the end of block write and rewrite, sync() after create and delete)" ||
    show c103

# --- the per-char phases, write() not traced: 2.00 writes a byte a call
clyde_traced c200pc "$SYNCS,openat" --compat=2.00 -s "$IO200" -f1 -b -n 0 -z 1
c=$WORK/c200pc/counts
expect "$c" "putc.fsync=1 put_block.fsync=1 rewrite.fsync=1 getc.fsync=1
get_block.fsync=1 seeks.fsync=1 seekers=0"
ok $? "2.00 -b -f1: the per-char write and read synced once at their close, none per byte" ||
    show c200pc
clyde_traced c103pc "$SYNCS,$W" --compat=1.03 -s "$IO103" -b -n 0 -z 1
c=$WORK/c103pc/counts
expect "$c" "putc.fsync=$F putc.fsync<write=$F getc.fsync=0
put_block.fsync=$F rewrite.fsync=$F get_block.fsync=$F seeks.fsync=0"
ok $? "1.03 -b: per-char write synced at its end (clyde's own), per-char read not, as 1.03e's streams" ||
    show c103pc

# --- bonnie++ 2.00a itself, when installed -----------------------------
BONNIE=${BONNIE:-$(command -v bonnie++ 2>/dev/null ||
    ls /usr/sbin/bonnie++ 2>/dev/null)}
if [ -z "$BONNIE" ] || [ ! -x "$BONNIE" ]; then
	skip "needs bonnie++ (Debian package bonnie++): compared with its source only" 6

	done_testing
fi
if ! "$BONNIE" -h 2>&1 | grep -q '^Version: 2\.00a'; then
	skip "$BONNIE is not bonnie++ 2.00a" 6
	done_testing
fi
# bonnie++ runs as the user of -u, who must write in its directory
bonnie_traced() { # bonnie_traced NAME CALLS ARGS...
	name=$1 calls=$2
	shift 2
	t=$(fresh_target) && chmod 777 "$t"
	# -r 1: its RAM check passes with -s 2
	trace "$name" "$calls" "$BONNIE" -d "$t" $AS_USER -r 1 -m host "$@" &&
	    count "$WORK/$name" >"$WORK/$name/counts"
	rc=$?
	[ "$rc" = 0 ] && is_empty "$t"
}
# same_as NAME_CLYDE NAME_BONNIE KEYS: the same figures for KEYS
same_as() {
	awk -v keys="$3" '
	    { v[FILENAME == ARGV[1] ? "clyde" : "bonnie", $1] = $2 }
	    END {
		n = split(keys, k, /[ \t\n]+/)
		for (i = 1; i <= n; i++) {
		    if (k[i] == "")
			continue
		    a = v["clyde", k[i]] + 0
		    b = v["bonnie", k[i]] + 0
		    if (a != b)
			bad = bad " " k[i] ": clyde " a ", bonnie++ " b
		}
		if (bad != "") {
		    print "differs:" bad
		    exit 1
		}
	    }' "$WORK/$1/counts" "$WORK/$2/counts" >>"$WORK/why"
}
KEYS_F="put_block.fsync rewrite.fsync get_block.fsync seeks.fsync
rewrite.fsync<write get_block.fsync<read seekers
seq_create.fsync seq_create.sync seq_del.fsync seq_del.sync
ran_create.fsync ran_create.sync ran_del.fsync ran_del.sync
seq_stat.fsync ran_stat.fsync
seq_create.fsync<write seq_create.fsync<fsync seq_del.fsync<unlink
ran_create.fsync<write ran_create.fsync<fsync ran_del.fsync<unlink"

bonnie_traced b200b "$SYNCS,$W" -s "$IO200" -f -b -n "$FILES" -z 1
ok $? "bonnie++ 2.00a -b -f runs under strace" || show b200b
same_as c200b b200b "$KEYS_F"
ok $? "2.00 -b -f: clyde syncs as bonnie++ 2.00a in every phase, the seekers but their write-backs" ||
    show c200b b200b
c=$WORK/b200b/counts
w=$(get "$c" seeker-writes)
expect "$c" "seekers=$S200 seeker-syncs=$((w + S200)) seeker-syncs<write=$w"
ok $? "bonnie++ 2.00a -b: each seeker syncs after each block written back and once when done, as clyde" ||
    show b200b

# as clyde's above, in two runs; write() traced for the progress lines
bonnie_traced b200io "$SYNCS,$W" -s "$IO200" -f -n 0 -z 1
bonnie_traced b200files "$SYNCS,write" -s 0 -n "$FILES" -z 1
joined b200 b200io b200files
same_as c200 b200 "$KEYS_F seeker-syncs seekers-syncing-once"
ok $? "2.00 without -b: clyde syncs as bonnie++ 2.00a in every phase" ||
    show c200 b200

bonnie_traced b200pc "$SYNCS,openat" -s "$IO200" -f1 -b -n 0 -z 1
ok $? "bonnie++ 2.00a -b -f1 runs under strace" || show b200pc
same_as c200pc b200pc "putc.fsync put_block.fsync rewrite.fsync getc.fsync
get_block.fsync seeks.fsync"
ok $? "2.00 -b -f1: clyde syncs the per-char and block phases as bonnie++ 2.00a" ||
    show c200pc b200pc

done_testing
