#!/bin/sh
# clyde side by side with bonnie++ 2.00a and fio, on a fresh tmpfs and on
# a fresh loop-mounted ext4, in one session (the machine is shared and
# noisy: only ratios taken in the same run mean anything).
#
#   sudo tests/bench/compare.sh            (as root; about 25 minutes on 2 cores)
#
# Per target, RUNS rounds of, in turn: clyde --compat=2.00, bonnie++ with
# the same -s size:chunk:seeks:seekers -n -f, fio (psync, the same block
# and file size: write with end_fsync, read), on tmpfs also clyde built
# with -DCLYDE_NO_OP_TIMING (what the per-operation latency clock costs),
# then clyde --compat=1.03 and a stdio per-char loop (putc/getc with
# stdio's locking: bonnie++ 1.03e's per-char method, its anchor there);
# every other round in the reverse order.  fio has
# no rewrite, per-char, seek or small-file phase: those compare with
# bonnie++ alone.
#
# Printed per target and phase: the median rate of each tool (KiB/s,
# seeks/s, files/s), clyde/anchor ratios, "ahead" (the rounds in which
# clyde ran at least as fast as bonnie++), each tool's coefficient of
# variation, and cpu/op: clyde's CPU time per unit of work over the
# anchor's (from %CP; the tool's own cost, far less noisy than rates on a
# shared machine).  Then peak RSS (/usr/bin/time -v) and "outside": the
# run's wall time minus its phases' elapsed time (setup, name making,
# cleanup, bonnie++'s sleep before the seeks).  The phases' elapsed comes
# from clyde's --json (elapsed_ns) when it writes one, else from each
# printed rate and the work it stands for (size / rate, files / rate).
# +k after a median: k runs printed +++++ (too short for the tool).  Last,
# clyde and bonnie++ with -n 1024 (about a million files) on tmpfs, once
# each, for peak RSS and the time outside the phases.
#
# Settings, from the environment (defaults in brackets):
#   RUNS [5]         runs of each tool on each target
#   SIZE [4096]      file size in MiB (-s)          CHUNK [8192]  block size
#   SEEKS [500000]   seek positions                 SEEKERS [5]   processes
#   PERCHAR [3]      per-char size in MiB of the 2.00 profile (-f)
#   FILES [512]      small files on tmpfs, x 1024 (-n)
#   EXT4_FILES [256] small files on ext4, x 1024
#   SIZE103 [1024]   file size of the 1.03 profile (per-char over all of it)
#   TARGETS ["tmpfs ext4"]   BIG_FILES [1024] (0: skip that last part)
#   KEEP [unset]     a directory to copy the raw outputs to
#   REPORT [unset]   a KEEP directory: print its report again, run nothing
#   REPORTING [off]  the kernel's free page reporting to the host during
#                    the run, where it has one: off, or keep (see below)
# clyde is built from the tree this script sits in (its src/, include/
# and Makefile, as they are now), twice: as is, and without the clock.
set -eu

RUNS=${RUNS:-5}
SIZE=${SIZE:-4096}
CHUNK=${CHUNK:-8192}
SEEKS=${SEEKS:-500000}
SEEKERS=${SEEKERS:-5}
PERCHAR=${PERCHAR:-3}
FILES=${FILES:-512}
EXT4_FILES=${EXT4_FILES:-256}
SIZE103=${SIZE103:-1024}
TARGETS=${TARGETS:-tmpfs ext4}
BIG_FILES=${BIG_FILES:-1024}
KEEP=${KEEP:-}

# The phase order and their column in the 1.98 CSV line (2.00a) and the
# 1.03e line.
PHASES="putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del"
COLS198="10 12 14 16 18 20 27 29 31 33 35 37"
COLS103="3 5 7 9 11 13 16 18 20 22 24 26"

die() { echo "compare.sh: $*" >&2; exit 1; }
say() { echo "== $*" >&2; }

# --- the report, from a directory with results, settings and raw/ ---------
print_report() {  # dir
awk -v runs="$RUNS" -v phases="$PHASES" -v targets="$TARGETS" \
    -v big="$BIG_FILES" -v secs="$secs" -v size="$SIZE" \
    -v chunk="$CHUNK" -v seeks="$SEEKS" -v seekers="$SEEKERS" \
    -v pc="$PERCHAR" -v files="$FILES" -v efiles="$EXT4_FILES" \
    -v size103="$SIZE103" -v reporting="$reporting" '
function sortv(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
}
# the values of t/tool/key in v[1..n]; returns n, sets unmeasured
function get(t, tool, key,   r, n) {
	n = 0; unmeasured = 0
	for (r = 1; r <= runs; r++) {
		if (!((t, tool, r, key) in val)) continue
		if (val[t, tool, r, key] == "+") { unmeasured++; continue }
		v[++n] = val[t, tool, r, key] + 0
	}
	return n
}
function median(t, tool, key,   n) {
	n = get(t, tool, key)
	if (n == 0) return ""
	sortv(v, n)
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function cv(t, tool, key,   n, i, s, ss, m) {
	n = get(t, tool, key)
	if (n < 2) return ""
	for (i = 1; i <= n; i++) s += v[i]
	m = s / n
	if (m == 0) return ""
	for (i = 1; i <= n; i++) ss += (v[i] - m) ^ 2
	return 100 * sqrt(ss / (n - 1)) / m
}
function num(x) {
	if (x == "") return "-"
	if (x >= 100) return sprintf("%.0f", x)
	return sprintf("%.2f", x)
}
# "k/n": in k of the n rounds where both measured, a ran at least as fast
# as b (the two ran one after the other, so both met the same noise):
# 0/5 or 5/5 happens by chance once in 16 when they are equally fast
function ahead(t, a, b, key,   r, n, k) {
	for (r = 1; r <= runs; r++) {
		if (!((t, a, r, key) in val) || !((t, b, r, key) in val)) continue
		if (val[t, a, r, key] == "+" || val[t, b, r, key] == "+") continue
		n++
		if (val[t, a, r, key] + 0 >= val[t, b, r, key] + 0) k++
	}
	return n ? (k + 0) "/" n : "-"
}
function pct(x) { return x == "" ? "-" : sprintf("%.1f%%", x) }
function ratio(a, b) { return a == "" || b == "" || b == 0 ? "-" : sprintf("%.2f", a / b) }
# "+k": k runs of the tool printed +++++ (too short for it to measure)
function plus(t, tool, key) { get(t, tool, key); return unmeasured ? "+" unmeasured : "" }
# a median, or +++++ when every run was too short for the tool to measure
function cell(t, tool, key,   m) {
	m = median(t, tool, key)
	if (m == "" && unmeasured) return "+++++"
	return num(m) plus(t, tool, key)
}
{ val[$1, $2, $3, $4] = $5 }
END {
	np = split(phases, ph, " ")
	printf "clyde --compat=2.00 vs bonnie++ 2.00a and fio (psync): -s %d:%d:%d:%d -f%d, %d runs each\n",
	    size, chunk, seeks, seekers, pc, runs
	print "rates: putc..get_block KiB/s, seeks /s, files /s; ratio = clyde/anchor; +k: k runs printed +++++"
	print "free page reporting to the host: " reporting
	nt = split(targets, tg, " ")
	for (k = 1; k <= nt; k++) {
		t = tg[k]
		printf "\n[%s] -n %d\n", t, t == "tmpfs" ? files : efiles
		printf "%-11s %11s %11s %6s %5s %11s %6s %7s %7s %7s %6s\n", "phase",
		    "clyde", "bonnie++", "c/b", "ahead", "fio", "c/fio", "cv-c",
		    "cv-b", "cv-fio", "cpu/op"
		for (p = 1; p <= np; p++) {
			c = median(t, "clyde", ph[p]); b = median(t, "bonnie", ph[p])
			f = median(t, "fio", ph[p])
			if (c == "" && b == "") continue
			printf "%-11s %11s %11s %6s %5s %11s %6s %7s %7s %7s %6s\n", ph[p],
			    cell(t, "clyde", ph[p]), cell(t, "bonnie", ph[p]), ratio(c, b),
			    ahead(t, "clyde", "bonnie", ph[p]), num(f), ratio(c, f), pct(cv(t, "clyde", ph[p])),
			    pct(cv(t, "bonnie", ph[p])), pct(cv(t, "fio", ph[p])),
			    ratio(median(t, "clyde", ph[p] "_cpu"),
			    median(t, "bonnie", ph[p] "_cpu"))
		}
		f = median(t, "fiopre", "put_block")
		if (f != "")
			printf "%-11s %11s %11s %6s %5s %11s %6s %7s %7s %7s\n", "  fio-pre",
			    "", "", "", "", num(f), ratio(median(t, "clyde", "put_block"), f),
			    "", "", pct(cv(t, "fiopre", "put_block"))
		printf "%-11s %11s %11s %6s %11s\n", "peak RSS KiB", num(median(t, "clyde", "rss")),
		    num(median(t, "bonnie", "rss")), ratio(median(t, "clyde", "rss"),
		    median(t, "bonnie", "rss")), num(median(t, "fio", "rss"))
		for (tool = 1; tool <= 2; tool++) {
			name = tool == 1 ? "clyde" : "bonnie"
			# the overhead of each run, then its median
			for (r = 1; r <= runs; r++)
				if ((t, name, r, "wall") in val)
					val[t, name, r, "outside"] = val[t, name, r, "wall"] - \
					    val[t, name, r, "phases"]
			ov[tool] = median(t, name, "outside")
			wl[tool] = median(t, name, "wall")
		}
		printf "%-11s %11s %11s %6s   (wall s: clyde %s, bonnie++ %s)\n", "outside s",
		    num(ov[1]), num(ov[2]), ratio(ov[1], ov[2]), num(wl[1]), num(wl[2])
		if (median(t, "untimed", "put_block") != "") {
			printf "latency clock cost [%s]: clyde with / without the per-operation clock\n", t
			printf "  %-11s %11s %11s %6s %7s %7s %6s\n", "phase", "timed",
			    "untimed", "ratio", "cv-t", "cv-u", "cpu/op"
			for (p = 1; p <= np; p++) {
				c = median(t, "clyde", ph[p]); u = median(t, "untimed", ph[p])
				if (c == "" || u == "") continue
				printf "  %-11s %11s %11s %6s %7s %7s %6s\n", ph[p], num(c),
				    num(u), ratio(c, u), pct(cv(t, "clyde", ph[p])),
				    pct(cv(t, "untimed", ph[p])),
				    ratio(median(t, "clyde", ph[p] "_cpu"),
				    median(t, "untimed", ph[p] "_cpu"))
			}
		}
		printf "clyde --compat=1.03 [%s] -s %d, per-char over the whole file; anchor for per-char: stdio putc/getc\n", t, size103
		printf "  %-11s %11s %7s %11s %6s %7s\n", "phase", "clyde 1.03", "cv", "anchor", "ratio", "cv-a"
		for (p = 1; p <= np; p++) {
			c = median(t, "clyde103", ph[p])
			if (c == "") continue
			a = ""; ca = ""
			if (ph[p] == "putc" || ph[p] == "getc") {
				a = median(t, "stdio", ph[p]); ca = cv(t, "stdio", ph[p])
			}
			printf "  %-11s %11s %7s %11s %6s %7s\n", ph[p], num(c),
			    pct(cv(t, "clyde103", ph[p])), num(a), ratio(c, a), pct(ca)
		}
		printf "  %-11s %11s\n", "peak RSS KiB", num(median(t, "clyde103", "rss"))
	}
	if (big > 0) {
		printf "\n[tmpfs] -s 0 -n %d, once each:\n", big
		printf "  %-8s %13s %8s %11s\n", "", "peak RSS KiB", "wall s", "outside s"
		for (tool = 1; tool <= 2; tool++) {
			name = tool == 1 ? "clyde" : "bonnie"
			w = val["big", name, 1, "wall"]; ph1 = val["big", name, 1, "phases"]
			printf "  %-8s %13s %8s %11s\n", name, num(val["big", name, 1, "rss"]),
			    num(w), w == "" || ph1 == "" ? "-" : num(w - ph1)
		}
	}
	printf "\nwhole comparison: %d s\n", secs
}' "$1/results"

if [ "$BIG_FILES" -gt 0 ]; then
	for tool in clyde bonnie; do
		if [ -s "$1/raw/big.$tool.err" ] &&
		    ! [ -s "$1/raw/big.$tool.csv" ]; then
			echo "$tool -n $BIG_FILES said:"
			sed 's/^/  /' "$1/raw/big.$tool.err"
		fi
	done
	echo "bonnie++ -n 30000 said: $(head -1 "$1/raw/refuse.bonnie")"
fi
}

# REPORT=dir: print again the report of a run kept with KEEP=dir
if [ -n "${REPORT:-}" ]; then
	[ -f "$REPORT/results" ] && [ -f "$REPORT/settings" ] ||
	    die "$REPORT: no results and settings of a kept run"
	. "$REPORT/settings"
	print_report "$REPORT"
	exit 0
fi

[ "$(id -u)" = 0 ] || die "run as root: it mounts a tmpfs and a loop device"
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$root/src/cli/main.c" ] || die "$root: no clyde source tree"

# --- tools, from Debian when missing --------------------------------------
need=""
[ -x /usr/sbin/bonnie++ ] || need="$need bonnie++"
command -v fio >/dev/null 2>&1 || need="$need fio"
[ -x /usr/bin/time ] || need="$need time"
command -v mkfs.ext4 >/dev/null 2>&1 || need="$need e2fsprogs"
command -v losetup >/dev/null 2>&1 || need="$need mount"
command -v make >/dev/null 2>&1 || need="$need make"
command -v cc >/dev/null 2>&1 || need="$need gcc"
if [ -n "$need" ]; then
	say "installing$need"
	apt-get update -qq >/dev/null
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
BONNIE=/usr/sbin/bonnie++

# --- work area, torn down at exit ------------------------------------------
work=$(mktemp -d /var/tmp/clyde-compare.XXXXXX)
tmnt="" emnt="" cmnt="" wmnt="" loopdev="" reporting_was=""
cleanup() {
	set +e
	cd /
	[ -n "$reporting_was" ] && echo "$reporting_was" >"$REPORTING_ORDER"
	for m in "$tmnt" "$emnt" "$cmnt" "$wmnt"; do
		[ -n "$m" ] || continue
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	[ -n "$loopdev" ] && losetup -d "$loopdev"
	if [ -n "$KEEP" ]; then
		mkdir -p "$KEEP" && cp -R "$work/raw" "$work/results" "$work/settings" "$KEEP/" 2>/dev/null
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mkdir "$work/raw"

# Free page reporting (virtio-balloon; on this machine kind with no delay):
# every block of free guest memory is handed back to the host, and the
# next page written there costs a host fault.  Over one comparison that is
# some 90 GiB of a tool's page cache and files, so that a block write on
# tmpfs ran at about half its speed and varied twice as much (dd, 2 GiB,
# 6 + 6 runs: median 1.5 vs 2.7 GB/s).  It is the host's cost, not the
# tools' nor the filesystem's: switched off for the run, put back at
# exit.  REPORTING=keep leaves it as it is.
REPORTING_ORDER=/sys/module/page_reporting/parameters/page_reporting_order
reporting="not on this kernel"
if [ -w "$REPORTING_ORDER" ]; then
	was=$(cat "$REPORTING_ORDER")
	reporting="on (order $was), kept"
	if [ "${REPORTING:-off}" != keep ]; then
		reporting_was=$was
		# above the largest buddy order: no free block qualifies
		echo 11 >"$REPORTING_ORDER"
		reporting="off for the run (was order $was)"
	fi
fi
: >"$work/results"

# --- build: clyde as is, and clyde without the per-operation clock ---------
say "building clyde in $work"
sh "$root/tests/bench/build_clyde.sh" "$work/timed"
sh "$root/tests/bench/build_clyde.sh" "$work/untimed" CPPFLAGS=-DCLYDE_NO_OP_TIMING
CLYDE=$work/timed/clyde
UNTIMED=$work/untimed/clyde

# bonnie++ 1.03e's per-char method: putc()/getc() with stdio's locking,
# fflush, fsync, close.  Prints the two rates in KiB/s.
cat >"$work/stdio_char.c" <<'EOF'
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	long long n = atoll(argv[2]) * 1024 * 1024, i;
	FILE *f = fopen(argv[1], "w");
	double t0, w, r;
	if (f == NULL)
		return 1;
	t0 = now();
	for (i = 0; i < n; i++)
		if (putc((int)(i & 0x7f), f) == EOF)
			return 1;
	if (fflush(f) || fsync(fileno(f)) || fclose(f))
		return 1;
	w = now() - t0;
	if ((f = fopen(argv[1], "r")) == NULL)
		return 1;
	t0 = now();
	for (i = 0; i < n; i++)
		if (getc(f) == EOF)
			return 1;
	fclose(f);
	r = now() - t0;
	unlink(argv[1]);
	printf("%.0f %.0f\n", n / 1024.0 / w, n / 1024.0 / r);
	return 0;
}
EOF
cc -O2 -o "$work/stdio_char" "$work/stdio_char.c"

# --- the targets -----------------------------------------------------------
mount_tmpfs() {
	tmnt=$work/tmpfs
	mkdir "$tmnt"
	mount -t tmpfs -o "size=$((SIZE + 4096))m" tmpfs "$tmnt"
}

mount_ext4() {
	emnt=$work/ext4
	mkdir "$emnt"
	truncate -s "$((SIZE * 2 + 4096))M" "$work/ext4.img"
	loopdev=$(losetup -f --show "$work/ext4.img")
	mkfs.ext4 -q -F -N "$((EXT4_FILES * 1024 + 65536))" \
	    -E lazy_itable_init=0,lazy_journal_init=0 "$loopdev"
	mount "$loopdev" "$emnt"
}

# Between runs: the previous run's dirty data written out, clean caches
# dropped, so that no run pays for another's leftovers.  Then SIZE MiB
# written to a tmpfs of its own and removed: the kernel's page allocator
# remembers what ran before, and a block write right after a run that
# made and removed half a million files ran at 0.6-0.8 of its speed
# after a large write (tmpfs, -s 4096, 3 + 3 runs); without this the
# order of the tools decided part of their block write figures.
settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null || :
	if [ -z "$cmnt" ]; then
		cmnt=$work/condition
		mkdir "$cmnt"
		mount -t tmpfs -o "size=$((SIZE + 64))m" tmpfs "$cmnt"
	fi
	dd if=/dev/zero of="$cmnt/fill" bs=1M count="$SIZE" status=none
	rm -f "$cmnt/fill"
}

# --- one run of each tool; results as "target tool run key value" ----------

rec() { echo "$1 $2 $3 $4 $5" >>"$work/results"; }

# rss and wall time from /usr/bin/time -v's report
rec_time() {
	awk -v t="$1" -v tool="$2" -v r="$3" '
	/Maximum resident set size/ { print t, tool, r, "rss", $NF }
	/Elapsed \(wall clock\)/ {
		n = split($NF, p, ":"); s = 0
		for (i = 1; i <= n; i++) s = s * 60 + p[i]
		print t, tool, r, "wall", s
	}' "$4" >>"$work/results"
}

# The phases' elapsed seconds: from clyde's --json when it writes one,
# else from each rate and the work it measured (what the run printed).
# Phases printed as +++++ count as 0: the overhead is then an upper bound.
rec_csv() {  # target tool run csvfile cols size_mib perchar_mib files json
	awk -F, -v t="$1" -v tool="$2" -v r="$3" -v cols="$5" -v size="$6" \
	    -v pc="$7" -v files="$8" -v seeks="$SEEKS" -v json="$9" \
	    -v phases="$PHASES" '
	NR == 1 {
		np = split(phases, name, " "); split(cols, col, " ")
		for (p = 1; p <= np; p++) {
			v = $(col[p])
			if (v == "") continue
			if (v ~ /^\+/) { print t, tool, r, name[p], "+"; continue }
			print t, tool, r, name[p], v
			if (name[p] == "putc" || name[p] == "getc") work = pc * 1024
			else if (p <= 5) work = size * 1024
			else if (name[p] == "seeks") work = seeks
			else work = files * 1024
			if (v > 0) secs += work / v
			# CPU time of the phase (%CP x elapsed), per unit of work
			if (v > 0 && $(col[p] + 1) ~ /^[0-9]/)
				print t, tool, r, name[p] "_cpu", $(col[p] + 1) / 100 / v
		}
		if (json != "" && (getline line < json) > 0) {
			js = 0; found = 0
			do {
				while (match(line, /"elapsed_ns": *[0-9]+/)) {
					s = substr(line, RSTART, RLENGTH)
					sub(/.*: */, "", s)
					js += s / 1e9; found = 1
					line = substr(line, RSTART + RLENGTH)
				}
			} while ((getline line < json) > 0)
			if (found) secs = js
		}
		print t, tool, r, "phases", secs
	}' "$4" >>"$work/results"
}

run_clyde() {  # target dir run bin tool compat size perchar files
	out=$work/raw/$1.$5.$3
	rm -f "$out.json"
	# shellcheck disable=SC2086
	/usr/bin/time -v -o "$out.time" "$4" --compat="$6" -d "$2" -u root \
	    -r 0 -q --precise -s "$7:$CHUNK:$SEEKS:$SEEKERS" -n "$9" \
	    $( [ "$6" = 2.00 ] && echo "-f$8" ) --json="$out.json" \
	    >"$out.csv" 2>"$out.err" || {
		echo "compare.sh: $5 failed on $1, run $3:" >&2
		cat "$out.err" >&2
		return 0
	}
	if [ "$6" = 2.00 ]; then
		rec_csv "$1" "$5" "$3" "$out.csv" "$COLS198" "$7" "$8" "$9" "$out.json"
	else
		rec_csv "$1" "$5" "$3" "$out.csv" "$COLS103" "$7" "$7" "$9" "$out.json"
	fi
	rec_time "$1" "$5" "$3" "$out.time"
}

run_bonnie() {  # target dir run files
	out=$work/raw/$1.bonnie.$3
	/usr/bin/time -v -o "$out.time" "$BONNIE" -d "$2" -u root -r 0 -q \
	    -s "$SIZE:$CHUNK:$SEEKS:$SEEKERS" -n "$4" "-f$PERCHAR" \
	    >"$out.csv" 2>"$out.err" || {
		echo "compare.sh: bonnie++ failed on $1, run $3:" >&2
		cat "$out.err" >&2
		return 0
	}
	rec_csv "$1" bonnie "$3" "$out.csv" "$COLS198" "$SIZE" "$PERCHAR" "$4" ""
	rec_time "$1" bonnie "$3" "$out.time"
}

# fio's terse line: field 7 read KiB/s, 48 write KiB/s.  The same work as
# bonnie++'s: --fallocate=none, for fio otherwise allocates the whole file
# before its clock starts, and the write then only overwrites (bonnie++
# and clyde allocate while timed); --invalidate=0, for fio otherwise drops
# the file from the page cache before reading, where bonnie++ and clyde
# read what the rewrite left there.  fio's default write (preallocated)
# is run too, as "fio-pre", to show what that is worth.
run_fio() {  # target dir run
	out=$work/raw/$1.fio.$3
	for rw in write read prealloc; do
		case $rw in
		write) opt="--rw=write --fallocate=none" ;;
		read) opt="--rw=read --invalidate=0" ;;
		prealloc) rm -f "$2/fio.data"; settle; opt="--rw=write" ;;
		esac
		# shellcheck disable=SC2086
		/usr/bin/time -v -o "$out.$rw.time" fio --name="$rw" \
		    --filename="$2/fio.data" $opt --bs="$CHUNK" \
		    --size="${SIZE}m" --ioengine=psync --end_fsync=1 \
		    --minimal >"$out.$rw" 2>&1 || {
			echo "compare.sh: fio $rw failed on $1, run $3:" >&2
			cat "$out.$rw" >&2
			rm -f "$2/fio.data"
			return 0
		}
	done
	rm -f "$2/fio.data"
	awk -F';' -v t="$1" -v r="$3" 'FNR != 1 { next }
	FILENAME ~ /write$/ { print t, "fio", r, "put_block", $48 }
	FILENAME ~ /read$/ { print t, "fio", r, "get_block", $7 }
	FILENAME ~ /prealloc$/ { print t, "fiopre", r, "put_block", $48 }' \
	    "$out.write" "$out.read" "$out.prealloc" >>"$work/results"
	awk -v t="$1" -v r="$3" '/Maximum resident set size/ {
		if ($NF > m) m = $NF } END { print t, "fio", r, "rss", m }' \
	    "$out.write.time" "$out.read.time" >>"$work/results"
}

run_stdio() {  # target dir run
	out=$work/raw/$1.stdio.$3
	/usr/bin/time -v -o "$out.time" "$work/stdio_char" "$2/stdio.data" \
	    "$SIZE103" >"$out" 2>&1 || { rm -f "$2/stdio.data"; return 0; }
	read -r w r <"$out"
	rec "$1" stdio "$3" putc "$w"
	rec "$1" stdio "$3" getc "$r"
	rec_time "$1" stdio "$3" "$out.time"
}

# One tool's run number $3 on target $1 (directory $2, $4 x 1024 files).
run_one() {  # tool target dir run files
	settle
	case $1 in
	clyde) run_clyde "$2" "$3" "$4" "$CLYDE" clyde 2.00 "$SIZE" "$PERCHAR" "$5" ;;
	bonnie) run_bonnie "$2" "$3" "$4" "$5" ;;
	fio) run_fio "$2" "$3" "$4" ;;
	untimed) run_clyde "$2" "$3" "$4" "$UNTIMED" untimed 2.00 "$SIZE" "$PERCHAR" "$5" ;;
	clyde103) run_clyde "$2" "$3" "$4" "$CLYDE" clyde103 1.03 "$SIZE103" 0 "$5" ;;
	stdio) run_stdio "$2" "$3" "$4" ;;
	esac
}

# The tools in turn, the order reversed every other round (clyde,
# bonnie++, ..., then ..., bonnie++, clyde): whichever runs first in a
# round pays for what the round before left (block write on ext4 took
# up to 1.7 times the CPU there, for clyde and bonnie++ alike), and that
# must not fall on one tool.
run_target() {  # target dir files
	tools="clyde bonnie fio"
	[ "$1" = tmpfs ] && tools="$tools untimed"
	tools="$tools clyde103 stdio"
	backwards=$(echo "$tools" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
	i=1
	while [ "$i" -le "$RUNS" ]; do
		say "$1: round $i of $RUNS"
		order=$tools
		[ $((i % 2)) = 0 ] && order=$backwards
		for tool in $order; do
			run_one "$tool" "$1" "$2" "$i" "$3"
		done
		i=$((i + 1))
	done
}

# With reporting off, memory once touched stays with this machine; what
# was handed back before still costs a host fault on first use.  Touch
# nearly all of it once, so that the first round does not pay for that
# alone (the first run of the comparison, clyde's, wrote at 0.6-0.7 of
# the speed of the runs after it, two comparisons in a row).
if [ -n "$reporting_was" ]; then
	warm=$(awk '/^MemAvailable:/ { print int($2 / 1024) - 2048 }' /proc/meminfo)
	if [ "$warm" -gt 0 ]; then
		say "touching $warm MiB of memory once"
		wmnt=$work/warm
		mkdir "$wmnt"
		mount -t tmpfs -o "size=${warm}m" tmpfs "$wmnt"
		dd if=/dev/zero of="$wmnt/fill" bs=1M count="$warm" \
		    status=none 2>/dev/null || :
		umount "$wmnt"
		wmnt=""
	fi
fi

start=$(date +%s)
for t in $TARGETS; do
	case $t in
	tmpfs) mount_tmpfs; run_target tmpfs "$tmnt" "$FILES" ;;
	ext4) mount_ext4; run_target ext4 "$emnt" "$EXT4_FILES" ;;
	*) die "unknown target $t" ;;
	esac
done

# -n BIG_FILES: peak RSS at scale (tmpfs, file phases only)
if [ "$BIG_FILES" -gt 0 ]; then
	[ -n "$tmnt" ] || mount_tmpfs
	say "tmpfs: -n $BIG_FILES"
	settle
	/usr/bin/time -v -o "$work/raw/big.clyde.time" "$CLYDE" --compat=2.00 \
	    -d "$tmnt" -u root -r 0 -q --precise -s 0 -n "$BIG_FILES" \
	    >"$work/raw/big.clyde.csv" 2>"$work/raw/big.clyde.err" || :
	settle
	/usr/bin/time -v -o "$work/raw/big.bonnie.time" "$BONNIE" -d "$tmnt" \
	    -u root -r 0 -q -s 0 -n "$BIG_FILES" \
	    >"$work/raw/big.bonnie.csv" 2>"$work/raw/big.bonnie.err" || :
	rec_csv big clyde 1 "$work/raw/big.clyde.csv" "$COLS198" 0 0 "$BIG_FILES" ""
	rec_csv big bonnie 1 "$work/raw/big.bonnie.csv" "$COLS198" 0 0 "$BIG_FILES" ""
	rec_time big clyde 1 "$work/raw/big.clyde.time"
	rec_time big bonnie 1 "$work/raw/big.bonnie.time"
	# where bonnie++ stops: names above 1 GiB (about 26000 x 1024 files)
	"$BONNIE" -d "$tmnt" -u root -r 0 -q -s 0 -n 30000 \
	    >"$work/raw/refuse.bonnie" 2>&1 || :
fi
end=$(date +%s)
secs=$((end - start))

# what the report needs to be printed again later (REPORT=dir)
cat >"$work/settings" <<EOF
RUNS=$RUNS SIZE=$SIZE CHUNK=$CHUNK SEEKS=$SEEKS SEEKERS=$SEEKERS
PERCHAR=$PERCHAR FILES=$FILES EXT4_FILES=$EXT4_FILES SIZE103=$SIZE103
TARGETS="$TARGETS" BIG_FILES=$BIG_FILES secs=$secs
reporting="$reporting"
EOF
print_report "$work"
