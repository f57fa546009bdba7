# bench_lib.sh: what self_cost.sh, copies_cost.sh and files_depth.sh
# share.  Sourced, not run, after the script has set NAME (for messages)
# and KEEP; sets root, the top of the tree.
#
#   bench_kept_report VAR...  with REPORT=dir, the script's report() of
#                           a KEEP=dir run again, with the settings VAR...
#                           it ran with, and exit: nothing built or run
#   bench_start PREFIX      the work directory $work (/tmp/clyde-PREFIX.*,
#                           with raw/ and results), removed at exit with
#                           what was mounted (KEEP=dir keeps raw/, with
#                           the settings named to bench_kept_report, and
#                           results); SIGINT and SIGTERM print the
#                           script's report() of the rounds done; then
#                           clyde built
#   rotated R WORD...       the words, starting at the R-th (each round
#                           another tool goes first)
#   mount_target T          a fresh tmpfs or loop-mounted ext4 ($MOUNT_SIZE,
#                           default 3g) at $work/T; sets mnt
#   unmount_targets         what mount_target mounted, at exit
#   drop_caches             sync, then drop clean caches
#   rec_csv T TOOL R FILE   each phase's rate and CPU per unit of work of
#                           the last 1.98 CSV line of FILE, as "T TOOL R
#                           phase value" lines in $work/results
#   build_tree_clyde        clyde from this tree in $work/build, unless
#                           CLYDE is set; sets CLYDE
#   $BENCH_AWK              awk functions over val[t, tool, r, key] and
#                           runs: median(a, n), rate(t, tool, key),
#                           ratio(t, a, b, key): the median over the
#                           rounds of the per-round ratio a/b, marked
#                           "*" when the sign test finds a real
#                           difference, as legend() says

# The phases and their column in the 1.98 CSV line (2.00a's).
PHASES="putc put_block rewrite getc get_block seeks seq_create seq_stat seq_del ran_create ran_stat ran_del"
COLS198="10 12 14 16 18 20 27 29 31 33 35 37"

root=$(cd "$(dirname "$0")/../.." && pwd)
loopdev=

die() { echo "$NAME: $*" >&2; exit 1; }
say() { echo "== $*" >&2; }

rotated() {  # r word...
	r=$1
	shift
	n=$#
	i=0
	out=
	while [ $i -lt "$n" ]; do
		eval "out=\"\$out \${$(( (r - 1 + i) % n + 1 ))}\""
		i=$((i + 1))
	done
	echo $out
}

mount_target() {  # target -> $mnt
	mnt=$work/$1
	mkdir "$mnt"
	case $1 in
	tmpfs) mount -t tmpfs -o "size=${MOUNT_SIZE:-3g}" tmpfs "$mnt" ;;
	ext4)
		truncate -s "${MOUNT_SIZE:-3g}" "$work/ext4.img"
		loopdev=$(losetup -f --show "$work/ext4.img")
		mkfs.ext4 -q -F -N 524288 \
		    -E lazy_itable_init=0,lazy_journal_init=0 "$loopdev"
		mount "$loopdev" "$mnt"
		;;
	*) die "unknown target $1" ;;
	esac
}

unmount_targets() {
	for m in "$work/tmpfs" "$work/ext4"; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	[ -n "$loopdev" ] && losetup -d "$loopdev"
	loopdev=
}

bench_kept_report() {  # VAR...
	BENCH_SETTINGS=$*
	[ -n "${REPORT:-}" ] || return 0
	[ -f "$REPORT/results" ] || die "$REPORT: no results (made by KEEP=dir)"
	if [ -f "$REPORT/raw/settings" ]; then
		# shellcheck disable=SC1091
		. "$REPORT/raw/settings"
	else
		echo "$NAME: $REPORT: no raw/settings (an older KEEP): the" \
		    "settings are this environment's" >&2
	fi
	work=$REPORT
	RUNS=$(awk '$3 > n { n = $3 } END { print n + 0 }' "$work/results")
	report
	exit 0
}

bench_start() {
	work=$(mktemp -d "/tmp/clyde-$1.XXXXXX")
	trap bench_cleanup EXIT
	trap 'report; exit 130' INT TERM
	mkdir "$work/raw"
	: >"$work/results"
	for v in ${BENCH_SETTINGS:-}; do
		eval "val=\${$v-}"
		printf "%s='%s'\n" "$v" "$(printf %s "$val" | sed "s/'/'\\\\''/g")"
	done >"$work/raw/settings"
	build_tree_clyde
}

bench_cleanup() {
	unmount_targets
	[ -n "$KEEP" ] && mkdir -p "$KEEP" && cp -r "$work/raw" "$work/results" "$KEEP/"
	rm -rf "$work"
}

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

rec_csv() {  # target tool round csvfile
	tail -1 "$4" | awk -F, -v t="$1" -v tool="$2" -v r="$3" \
	    -v cols="$COLS198" -v phases="$PHASES" '{
		np = split(phases, name, " "); split(cols, col, " ")
		for (p = 1; p <= np; p++) {
			v = $(col[p])
			if (v == "" || v ~ /^\+/) continue
			print t, tool, r, name[p], v
			if (v > 0 && $(col[p] + 1) ~ /^[0-9]/)
				print t, tool, r, name[p] "_cpu", $(col[p] + 1) / 100 / v
		}
	}' >>"$work/results"
}

build_tree_clyde() {
	[ -n "${CLYDE:-}" ] && return 0
	say "building clyde in $work"
	sh "$root/tests/bench/build_clyde.sh" "$work/build"
	CLYDE=$work/build/clyde
}

BENCH_AWK='
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# exact two-sided sign test: the chance that n rounds split at least as
# unevenly as up against n - up if neither figure were the larger one
function sign_p(up, n,   k, i, c, sum) {
	k = up < n - up ? up : n - up
	c = 1
	sum = 0
	for (i = 0; i <= k; i++) {
		sum += c
		c = c * (n - i) / (i + 1)
	}
	sum = 2 * sum / 2 ^ n
	return sum < 1 ? sum : 1
}
# the median over the rounds of val[t, a, r, key] / val[t, b, r, key],
# then "*" if the rounds split so unevenly (p < 0.05) that a and b differ,
# else " "; 5 rounds cannot show it, 6 can
function ratio(t, a, b, key,   r, n, q, up) {
	n = up = 0
	for (r = 1; r <= runs; r++)
		if ((t, a, r, key) in val && (t, b, r, key) in val &&
		    val[t, b, r, key] > 0) {
			q[++n] = val[t, a, r, key] / val[t, b, r, key]
			up += q[n] > 1
		}
	if (!n)
		return "- "
	return sprintf("%.2f%s", median(q, n), sign_p(up, n) < 0.05 ? "*" : " ")
}
function legend() {
	return "*: the rounds split so unevenly that the sign test finds a " \
	    "real difference (p < 0.05)"
}
# the median rate of tool over the rounds
function rate(t, tool, key,   r, n, q) {
	n = 0
	for (r = 1; r <= runs; r++)
		if ((t, tool, r, key) in val)
			q[++n] = val[t, tool, r, key]
	return n ? sprintf("%.0f", median(q, n)) : "-"
}
'
