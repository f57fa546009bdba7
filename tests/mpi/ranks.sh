#!/bin/sh
# clyde-mpi: ranks spread by MPI on one shared target (a tmpfs here).
# One table and one CSV line for the whole run, concurrency = ranks, the
# rates the sums of every rank's own figures, nothing left; the ranks
# agree on their options first.  Faults: tests/mpi/rank_faults.sh.  Skipped
# without Open MPI.
MPI_CASES=31
. "$(dirname "$0")/mpi_lib.sh"

# Without the per-char phases (-f): 2.00a's write and read a byte per
# system call, seconds per MiB and rank here.  The 1.03 run below has
# them (through stdio), and the sums of its JSON are checked too.
for np in 1 2 3; do
	rm -f "$WORK/run.json"
	mpi_run $np --compat=2.00 -s 32 -n 1 -f --json="$WORK/run.json"
	line=$(tail -1 "$WORK/out")
	[ "$rc" = 0 ] && [ "$(nfields "$line")" = 50 ] &&
	    [ "$(field "$line" 4)" = $np ] &&
	    [ "$(grep -c '^1.98,' "$WORK/out")" = 1 ] &&
	    [ "$(grep -c '^Version 2.00a' "$WORK/out")" = 2 ] && is_empty "$t"
	ok $? "$np rank(s): one table, one CSV line, concurrency $np, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; ls -A "$t"; } | diag
	json_sums "$WORK/run.json" $np
	ok $? "$np rank(s): the JSON sums every rank's own figures"
done

# the record of 3 ranks: every key of it, those of ranks too, is named in
# the man page (tests/project/docs.sh checks the rest of the record)
py3 tests/tools/manpage.py json-keys man/clyde.1 "$WORK/run.json" |
    grep '^in a record' >"$WORK/diff"
[ ! -s "$WORK/diff" ] && grep -q '"host"' "$WORK/run.json"
ok $? "3 ranks: The JSON record names every key of the record" ||
    diag < "$WORK/diff"

mpi_run 2 --compat=1.03 -s 16 -n 1 --json="$WORK/run103.json"
line=$(tail -1 "$WORK/out")
[ "$rc" = 0 ] && [ "$(nfields "$line")" = 27 ] && is_empty "$t"
ok $? "the 1.03 profile: the classic line for the whole run" || diag < "$WORK/err"
json_sums "$WORK/run103.json" 2 putc getc
ok $? "the 1.03 profile: the JSON sums every rank's own figures, per-char's too"

# --chunks: every rank sweeps the same points in step, each at the
# point's chunk; the small files at the first point only
mpi_run 2 --compat=2.00 -s 8::500 -f -n 1 --chunks=4k,1m --json="$WORK/sweep.json"
[ "$rc" = 0 ] && [ "$(grep '^1\.98,' "$WORK/out" | cut -d, -f4,7 | tr '\n' ' ')" = "2,4k 2,1m " ] &&
    pl 'my $r = load($ARGV[0]);
check(same([map { $_->{sweep}{point} } @$r], [1, 2]), $r);
my @chunks = (4096, 1 << 20);
for my $i (0, 1) {
	my ($x, $chunk) = ($r->[$i], $chunks[$i]);
	for my $k (@{$x->{ranks}}) {
		for my $ph (qw(put_block rewrite get_block)) {
			check(same($k->{phases}{$ph}{latency_ns}{count}, int((8 << 20) / $chunk)), $ph);
		}
	}
	my @files = map { defined($_->{phases}{seq_create}) ? 1 : 0 } @{$x->{ranks}};
	check(same(\@files, [($chunk == 4096 ? 1 : 0) x 2]), \@files);
}' "$WORK/sweep.json" && is_empty "$t"
ok $? "2 ranks --chunks=4k,1m: both ranks at each point's chunk, two lines" ||
    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; ls -A "$t"; } | diag

# -D: a chunk size that one rank's filesystem refuses is left out on both
# (rank 1 runs under the fault shim, which refuses O_DIRECT below 4 KiB)
if direct_io "$base"; then
	t=$(mktemp -d "$base/t.XXXXXX")
	chmod 755 "$t"
	args="-d $t $AS_USER -r 0 -m mpi --compat=2.00 -s 8::500 -f -n 0 -D --chunks=1k,4k -q"
	timeout 300 $MPIRUN -np 1 ./clyde-mpi $args : -np 1 -x LD_PRELOAD="$SHIM" \
	    -x CLYDE_FAULT_DIRECT_ALIGN=4096 ./clyde-mpi $args >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ "$rc" = 0 ] && [ "$(grep '^1\.98,' "$WORK/out" | cut -d, -f7)" = 4k ] &&
	    grep -q '^clyde: --chunks 1k: refused by -D (O_DIRECT) on another rank: skipped$' "$WORK/err" &&
	    is_empty "$t"
	ok $? "2 ranks -D: a chunk size one rank refuses is skipped by both" ||
	    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; ls -A "$t"; } | diag
else
	skip "the filesystem of $base refuses O_DIRECT" 1
fi

# --shift=1 on one host (where the default is 0): rank r reads back what
# rank (r+1) mod 3 wrote, in the per-char read, the block read, the
# rewrite and the seeks.  strace -f -y: every measuring process opens
# for reading (O_RDONLY, O_RDWR) only data files that another rank's
# measuring process created, Bonnie.PID of that process.  The small
# files' stat phases (4-byte files in two directories: stat and read)
# stat and open for reading each of the 1024 files of that same rank,
# in its files directory, once in name order and once at random, and
# never one of their own; each rank creates and deletes its own.  The JSON says
# options.shift, ranks[].read_from, a skew >= 1 for every phase, and a
# first-done rate made of the ranks' own figures; --shift=0 reads each
# rank's own, and so does a run without --shift on one host.
if needs strace strace && needs python3 python3; then
	t=$(mktemp -d "$base/t.XXXXXX")
	chmod 755 "$t"
	rm -f "$WORK/shift.json" "$WORK/strace"
	timeout 300 strace -f -y -qq \
	    -e trace=openat,clone,clone3,fork,vfork,mkdirat,newfstatat,unlinkat,fchdir \
	    -o "$WORK/strace" \
	    $MPIRUN -np 3 ./clyde-mpi -d "$t" $AS_USER -r 0 -m mpi -s 4 \
	    -n 1:4:4:2 --shift=1 --json="$WORK/shift.json" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ "$rc" = 0 ] && is_empty "$t" &&
	    py3 - "$WORK/strace" "$WORK/shift.json" <<'PY'
import collections, json, re, sys
made, read, parent = {}, [], {}
files_dir, small, cwd = {}, [], {}
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r'(\d+) +(?:<\.\.\. )?v?(?:clone3?|fork)\b.* = (\d+)$', line.rstrip())
    if m is not None:
        parent[m.group(2)] = m.group(1)
        if m.group(1) in cwd:
            cwd[m.group(2)] = cwd[m.group(1)]
        continue
    m = re.match(r'(\d+) +mkdirat\(\d+<([^>]*)>, "files", ', line)
    if m is not None:
        files_dir[m.group(2) + "/files"] = m.group(1)
        continue
    # the small-file phases work in the directory of the files (fchdir)
    m = re.match(r'(\d+) +fchdir\(\d+<([^>]*)>\) = 0', line)
    if m is not None:
        cwd[m.group(1)] = m.group(2)
        continue
    # strace 6 names AT_FDCWD's directory too; older ones do not
    m = re.match(r'(\d+) +(newfstatat|openat|unlinkat)\((?:\d+<([^>]*)>|AT_FDCWD(?:<([^>]*)>)?), "([^"]+)", (.*)', line)
    if m is not None and "Bonnie." not in m.group(5):
        pid, call, at, at_cwd, name, rest = m.groups()
        small.append((pid, call, at or at_cwd or cwd.get(pid, ""), name, rest))
        continue
    m = re.match(r'(\d+) +openat\(.*"(?:[^"]*/)?Bonnie\.(\d+)(?:\.\d+)?", ([A-Z_|]+)', line)
    if m is None or " = -1 " in line:
        continue
    pid, owner, flags = m.group(1), m.group(2), m.group(3)
    if "O_CREAT" in flags:
        assert pid == owner, line
        made[owner] = True
    else:
        read.append((pid, owner, line))
assert len(made) == 3, made
readers = set()
for pid, owner, line in read:
    # a seeker reads for the measuring process it is a child of
    reader = pid if pid in made else parent.get(pid)
    assert reader in made, line
    assert owner in made and owner != reader, line
    readers.add(reader)
assert readers == set(made), (readers, made)
# the small files: what each measuring process did in whose files directory
data_from = {reader: owner for reader, owner in
             ((p if p in made else parent.get(p), o) for p, o, _ in read)}
def subdir_lookup(call, at, top, name):
    # a subdirectory looked up again by its name before a random phase
    return call == "newfstatat" and at == top and re.fullmatch(r"[0-9]+", name)
did = collections.Counter()
for pid, call, at, name, rest in small:
    top = at if at in files_dir else re.sub(r'/[0-9]+$', '', at)
    if top not in files_dir or pid not in made:
        continue
    if call == "openat" and "O_DIRECTORY" in rest:
        continue
    if subdir_lookup(call, at, top, name):
        continue
    what = "create" if "O_CREAT" in rest else "read" if call == "openat" else \
        "stat" if call == "newfstatat" else "unlink" if "AT_REMOVEDIR" not in rest else None
    if what is not None:
        did[pid, files_dir[top] == pid, what] += 1
for pid in made:
    assert did[pid, True, "create"] == 2048 and did[pid, True, "unlink"] == 2048, (pid, did)
    assert did[pid, True, "stat"] == 0 and did[pid, True, "read"] == 0, (pid, did)
    assert did[pid, False, "stat"] == 2048 and did[pid, False, "read"] == 2048, (pid, did)
    assert did[pid, False, "create"] == 0 and did[pid, False, "unlink"] == 0, (pid, did)
owner = collections.defaultdict(set)
for pid, call, at, name, rest in small:
    top = at if at in files_dir else re.sub(r'/[0-9]+$', '', at)
    if top in files_dir and pid in made and call == "newfstatat" and \
            not subdir_lookup(call, at, top, name):
        owner[pid].add(files_dir[top])
assert owner == {p: {data_from[p]} for p in made}, (owner, data_from)
r = json.load(open(sys.argv[2]))
assert r["options"]["shift"] == 1, r["options"]
assert [k["read_from"] for k in r["ranks"]] == [1, 2, 0], r["ranks"]
ran = [n for n, p in r["phases"].items() if p is not None]
assert len(ran) == 12, ran
known = 0
for n in ran:
    p = r["phases"][n]
    assert p["skew"] >= 1, (n, p["skew"])
    mine = [k["phases"][n] for k in r["ranks"]]
    el = [m["elapsed_ns"] for m in mine]
    assert abs(p["skew"] - max(el) / min(el)) < 1e-6 * p["skew"], n
    if p["first_done_rate"] is None:
        continue
    known += 1
    unit = 1024 if n in ("putc", "put_block", "rewrite", "getc", "get_block") else 1
    want = sum(m["first_done_ops"] / unit / (m["first_done_ns"] / 1e9) for m in mine)
    assert abs(p["first_done_rate"] - want) <= 1e-6 * want, (n, p, want)
    for m in mine:
        assert 0 < m["first_done_ns"] <= m["elapsed_ns"], (n, m)
        assert m["first_done_ops"] <= m["ops"], (n, m)
assert known > 0, "no phase has a first-done rate"
PY
fi
ok $? "3 ranks --shift=1: each reads back the data files and stats and reads the small files of the next one (strace), JSON shift, read_from, skew, first done; nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag
# clyde report on that record: the per-rank table (text, Markdown) with
# each rank's own rate, the whole run's, the first-done rate and the skew
# as the JSON has them; per-rank bars in HTML
if [ -s "$WORK/shift.json" ]; then
	./clyde report "$WORK/shift.json" >"$WORK/ranks.txt" 2>"$WORK/err" &&
	    ./clyde report --markdown "$WORK/shift.json" >"$WORK/ranks.md" 2>>"$WORK/err" &&
	    ./clyde report --html "$WORK/shift.json" >"$WORK/ranks.html" 2>>"$WORK/err" &&
	    py3 - "$WORK/shift.json" "$WORK/ranks.txt" "$WORK/ranks.md" \
	    "$WORK/ranks.html" "$(hostname)" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
host = sys.argv[5]
ran = [n for n, p in r["phases"].items() if p is not None]
io = ("putc", "put_block", "rewrite", "getc", "get_block")
def rate(n, p):
    return p["ops"] / (1024 if n in io else 1) / (p["elapsed_ns"] / 1e9)
# a phase that the table prints as +++++: its figures in parentheses
fast = {n for n in ran if r["tests"][n]["status"] == "too_fast"}
def fig(n, v):
    return v if n not in fast or v == "-" else "(%s)" % v
want = {}
for k in r["ranks"]:
    want["%d (%s) <- %d" % (k["rank"], host, k["read_from"])] = \
        [fig(n, "%.0f" % rate(n, k["phases"][n])) for n in ran]
want["all, last done"] = [fig(n, "%.0f" % rate(n, r["phases"][n])) for n in ran]
want["all, first done"] = [fig(n, "-" if r["phases"][n]["first_done_rate"] is None
                           else "%.0f" % r["phases"][n]["first_done_rate"]) for n in ran]
want["skew (slow/fast)"] = [fig(n, "%.2f" % r["phases"][n]["skew"]) for n in ran]
text = open(sys.argv[2]).read().split("\n")
i = text.index("Per rank: mpi, 3 ranks, --shift=1 (large files in KiB/s, seeks and files per second)")
# the text: a table of the large-file phases, then one of the small-file
# phases, each label as wide as the widest, each line within 80 columns
# (the host name's length over 2 aside)
got = {}
heads = []
j = i + 1
for section in (ran[:6], ran[6:]):
    head = text[j]
    assert head.startswith("rank (host) <- from ") and head.split()[4:] == section, head
    w = max([19] + [len(k) for k in want])
    for l in text[j + 1:j + 7]:
        got.setdefault(l[:w].strip(), []).extend(l[w:].split())
        assert len(l) <= 80 + max(0, len(host) - 2), "\n".join(text[i:i + 20])
    j += 8
assert got == want, (got, want)
assert (text[j - 1] == "(n): the phase ran under 0.5 s, +++++ in the table: its figures as measured") == bool(fast), text[j - 1]
md = open(sys.argv[3]).read().split("\n")
unesc = lambda s: re.sub(r"\\(.)", r"\1", s)
i = [j for j, l in enumerate(md) if unesc(l) == "**Per rank: mpi, 3 ranks, --shift=1 (large files in KiB/s, seeks and files per second)**"][0]
rows = [[unesc(c).strip() for c in l.strip("|").split("|")] for l in md[i + 4:i + 10]]
assert {x[0]: x[1:] for x in rows} == want, rows
html = open(sys.argv[4]).read()
assert html.count("per rank\">") == len(ran), html.count("per rank\">")
for k in r["ranks"]:
    assert html.count(">rank %d (%s)</text>" % (k["rank"], host)) == len(ran)
PY
	ok $? "clyde report of a 3-rank record: per-rank table (text, Markdown) as the JSON says, per-rank bars (HTML)" ||
	    diag < "$WORK/err"
else
	skip "no record" 1 "clyde report of a 3-rank record"
fi
for shift in --shift=0 ""; do
	rm -f "$WORK/shift.json"
	mpi_run 2 -s 4 -f -n 0 $shift --json="$WORK/shift.json"
	[ "$rc" = 0 ] && is_empty "$t" && pl 'my $r = load($ARGV[0]);
check(same($r->{options}{shift}, 0), $r->{options});
check(same([map { $_->{read_from} } @{$r->{ranks}}], [0, 1]), $r->{ranks})' "$WORK/shift.json"
	ok $? "2 ranks ${shift:-without --shift} on one host: each reads back its own files" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
done

# --shift=1 with links: each rank stats the other's, each name the inode
# of the first name it met in that directory (the record says none)
for spec in 1:-1:0:2 1:-2:0:2; do
	rm -f "$WORK/shift.json"
	mpi_run 2 --compat=2.00 -s 0 -n $spec --shift=1 --json="$WORK/shift.json"
	[ "$rc" = 0 ] && is_empty "$t" && pl 'my $r = load($ARGV[0]);
check(same([map { $_->{read_from} } @{$r->{ranks}}], [1, 0]), $r->{ranks});
for my $k (@{$r->{ranks}}) {
	check(same($k->{phases}{$_}{ops}, 1024), $_) for qw(seq_stat ran_stat);
}' "$WORK/shift.json"
	ok $? "2 ranks --shift=1 -n $spec: each stats the other's links, exit 0, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t"; } | diag
done

# -u: started as root, the ranks drop to another user after MPI_Init;
# Open MPI must not complain (it could neither read the other rank's
# memory nor unlink its shared-memory segment).  Then the whole run as an
# unprivileged user.
mpi_noise() { grep -E 'Read -1|shared memory|errno = |ERROR' "$WORK/err"; }
if [ "$(id -u)" = 0 ]; then
	t=$(mktemp -d "$base/t.XXXXXX")
	chmod 777 "$t"
	timeout 300 $MPIRUN -np 2 ./clyde-mpi -d "$t" -u nobody -r 0 -m mpi \
	    --compat=2.00 -s 0 -n 1 >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ "$rc" = 0 ] && [ -z "$(mpi_noise)" ] && is_empty "$t" &&
	    grep -q '^Using uid:65534, gid:65534.$' "$WORK/err" &&
	    [ "$(grep -c '^1.98,' "$WORK/out")" = 1 ]
	ok $? "as root with -u nobody: 2 ranks, no complaint from Open MPI, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag
else
	skip "needs root" 1 "as root with -u nobody"
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	# Open MPI's session directory goes in TMPDIR: one nobody may write in,
	# whatever the mode of the TMPDIR make check was given
	mkdir -p "$base/tmp" && chmod 1777 "$base/tmp"
	as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=$base TMPDIR=$base/tmp"
else
	as_user=
fi
t=$(mktemp -d "$base/t.XXXXXX")
chmod 777 "$t"
timeout 300 $as_user $MPIRUN -np 2 ./clyde-mpi -d "$t" -r 0 -m mpi \
    --compat=2.00 -s 0 -n 1 >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" = 0 ] && [ -z "$(mpi_noise)" ] && is_empty "$t" &&
    [ "$(grep -c '^1.98,' "$WORK/out")" = 1 ]
ok $? "as an unprivileged user ($(id -un 2>/dev/null)${as_user:+ -> nobody}): 2 ranks, clean" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag

# The ranks agree on their options before anything is made (clyde(1),
# MANY CLIENTS): rank 0's figures are the sums of every rank's under its
# own label.  mpi_mix ARGS0 -- ARGS1: rank 0 with ARGS0, rank 1 with ARGS1.
mpi_mix() {
	first=
	while [ "$1" != -- ]; do first="$first $1"; shift; done
	shift
	t=$(mktemp -d "$base/t.XXXXXX")
	chmod 755 "$t"
	rm -f "$WORK/mix.json"
	timeout 300 $MPIRUN -np 1 ./clyde-mpi -d "$t" $AS_USER -m mpi \
	    --json="$WORK/mix.json" $first : -np 1 ./clyde-mpi -d "$t" $AS_USER \
	    -m mpi "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}
for mix in "-s 4:-s 8:-s 8M:8192:8000:3, rank 0 has -s 4M:8192:8000:3" \
    "-s 4:-s 4 --compat=2.00:--compat=2.00, rank 0 has --compat=1.03" \
    "-s 4:-s 4 -b:-b, rank 0 has no -b"; do
	a0=${mix%%:*} rest=${mix#*:}
	a1=${rest%%:*} said=${rest#*:}
	mpi_mix -r 0 -n 0 $a0 -- -r 0 -n 0 $a1
	[ "$rc" != 0 ] && is_empty "$t" && [ ! -e "$WORK/mix.json" ] &&
	    grep -qx "clyde: rank 1 ($(hostname)) has $said: the ranks must be given the same options" \
	    "$WORK/err" && ! grep -q '^Writing\|^Using' "$WORK/err"
	ok $? "ranks given $a0 and $a1: refused before anything is made, rank 0 naming the option and rank 1" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t"; } | diag
done
# a bad option is said once, by rank 0, as plain clyde says it (exit 1);
# one that a rank alone was given, by rank 0 naming that rank
mpi_run 3 -s abc
[ "$rc" != 0 ] && is_empty "$t" &&
    [ "$(grep -c '^clyde: ' "$WORK/err")" = 1 ] &&
    grep -qx "clyde: -s abc: size not a number (MiB, 0 to 1000G)" "$WORK/err" &&
    [ "$(grep -c "^Try 'clyde --help'.\$" "$WORK/err")" = 1 ]
ok $? "3 ranks given -s abc: one line, rank 0's" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
mpi_mix -r 0 -s 4 -n 0 -- -r 0 -s abc -n 0
[ "$rc" != 0 ] && is_empty "$t" && [ ! -e "$WORK/mix.json" ] &&
    [ "$(grep -c '^clyde: ' "$WORK/err")" = 1 ] &&
    grep -qx "clyde: rank 1 ($(hostname)): -s abc: size not a number (MiB, 0 to 1000G)" "$WORK/err"
ok $? "rank 1 alone given -s abc: one line, rank 0 naming rank 1" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
# --shift=1 with a -d for each rank: no rank finds the other's files;
# refused before any phase (exit 2), rank 0 naming its own, nothing left
t2=$(mktemp -d "$base/t.XXXXXX")
chmod 755 "$t2"
mpi_mix -r 0 -s 4 -n 0 --shift=1 -- -r 0 -s 4 -n 0 --shift=1 -d "$t2"
[ "$rc" = 2 ] && is_empty "$t" && is_empty "$t2" &&
    grep -q "^clyde: --shift=1: rank 0 ($(hostname)) cannot open $t/clyde\.[0-9]*\.[A-Za-z0-9]*, rank 1's scratch directory, to read back its files: No such file or directory; the ranks' -d must name one shared directory" \
    "$WORK/err" && ! grep -q '^Writing' "$WORK/err"
ok $? "--shift=1 with another -d on each rank: refused before any phase (exit 2), naming the directory, nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t" "$t2"; } | diag
# -s not given: the size comes from each rank's RAM (here -r), and rank
# 1 takes rank 0's, as the put_block bytes of each rank in the JSON show
mpi_mix --compat=2.00 -r 160 -f -n 0 -- --compat=2.00 -r 151 -f -n 0
[ "$rc" = 0 ] && is_empty "$t" && pl 'my $r = load($ARGV[0]);
my @got = map { num($_->{phases}{put_block}{bytes}) >> 20 } @{$r->{ranks}};
check(same(\@got, [320, 320]), \@got)' "$WORK/mix.json"
ok $? "-s not given: every rank writes rank 0's size (2 x -r 160), not its own (2 x -r 151)" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
# the skew lines speak only of phases the table gives a figure: one of
# +++++ (under 0.5 s) is too short for its ranks' times to mean much.
# Rank 1's first file of the sequential create waits 200 ms (the fault
# shim's delay): a skew far above 1.5 in a phase still too short; were
# the machine so slow that the phase took 0.5 s, its line is due.  The
# phase ends with sync(), which waits for every filesystem's writeback:
# while this machine writes much elsewhere, both ranks' syncs end
# together and there is no skew to tell of (seen: 1.0005, both ranks
# 2.70 s).  Up to 3 tries, then a skip that says so
if [ ! -f "$SHIM" ]; then
	skip "no fault shim for this build" 1
else
	try=0 skews=
	while [ $try -lt 3 ]; do
		try=$((try + 1))
		t=$(mktemp -d "$base/t.XXXXXX")
		chmod 755 "$t"
		rm -f "$WORK/skew.json"
		timeout 300 $MPIRUN -np 1 ./clyde-mpi -d "$t" $AS_USER -r 0 -m mpi \
		    -s 0 -n 1 --json="$WORK/skew.json" : -np 1 env LD_PRELOAD="$SHIM" \
		    CLYDE_FAULT_CALL=openat CLYDE_FAULT_FILE="$SEQ_FILES" \
		    CLYDE_FAULT_NTH=1 CLYDE_FAULT_ERR=delay CLYDE_FAULT_DELAY_MS=200 \
		    ./clyde-mpi -d "$t" $AS_USER -r 0 -m mpi -s 0 -n 1 \
		    >"$WORK/out" 2>"$WORK/err"
		rc=$?
		if [ "$rc" != 0 ] || ! is_empty "$t"; then
			rc="$rc, or something left in $t"
			break
		fi
		skew=$(pl 'print load($ARGV[0])->{phases}{seq_create}{skew} // 0' "$WORK/skew.json")
		skews="${skews:+$skews, }$skew"
		pl 'exit !($ARGV[0] > 1.5)' "$skew" && break
		rc=skew
	done
	said=$(grep -c '^clyde: Sequential create: skew ' "$WORK/err")
	if [ "$rc" = skew ]; then
		skip "2 ranks, one slow in a +++++ phase: the ranks ended together in 3 tries (skew $skews: sync() waited for writeback elsewhere), so there was no skew to leave out" 1
	else
		[ "$rc" = 0 ] && pl 'my ($r, $said) = (load($ARGV[0]), $ARGV[1]);
check($said == ($r->{tests}{seq_create}{status} eq "too_fast" ? 0 : 1),
    $said, $r->{tests}{seq_create})' "$WORK/skew.json" "$said"
		ok $? "2 ranks, one slow in a +++++ phase: no skew line for it (skew $skews)" ||
		    { echo "rc=$rc"; cat "$WORK/err"; } | diag
	fi
fi
# -y p: mpirun gives standard input to rank 0 alone
t=$(mktemp -d "$base/t.XXXXXX")
timeout 300 $MPIRUN -np 2 ./clyde-mpi -d "$t" $AS_USER -r 0 -s 4 -n 0 -y p \
    </dev/null >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" != 0 ] && is_empty "$t" &&
    grep -q "^clyde: -y p: waits for Enter on each rank's standard input, which mpirun gives to rank 0 alone" \
    "$WORK/err" && ! grep -q 'Writing\|interrupted' "$WORK/err"
ok $? "-y p with 2 ranks: refused at once, before anything is made" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# --dirs: each rank its own tree in its scratch directory (1024
# directories each, 8 above 1016), or with --dirs-shared one tree, whose
# 8 parents rank 0 makes and removes untimed: each rank times its own
# 1016.  The six phases per rank and summed, nothing left.
for shared in "" --dirs-shared; do
	rm -f "$WORK/dirs.json"
	mpi_run 3 --compat=2.00 -s 0 -n 0 --dirs=1:2:8 $shared -q \
	    --json="$WORK/dirs.json"
	[ "$rc" = 0 ] && is_empty "$t" && json_sums "$WORK/dirs.json" 3 \
	    dir_create dir_stat dir_del ran_dir_create ran_dir_stat ran_dir_del &&
	    grep -Eq '^ +1:2:8:3 ' "$WORK/err" &&
	    pl 'my $r = load($ARGV[0]);
my $shared = $ARGV[1] ne "";
check(same($r->{dirs}{shared}, $shared ? true : false), $r->{dirs});
my $each = $shared ? 1016 : 1024;
for my $ph (qw(dir_create dir_stat dir_del ran_dir_create ran_dir_stat ran_dir_del)) {
	check(same([map { $_->{phases}{$ph}{ops} } @{$r->{ranks}}], [($each) x 3]), $ph);
	check(same($r->{phases}{$ph}{ops}, 3 * $each), $ph);
}' "$WORK/dirs.json" "$shared"
	ok $? "3 ranks --dirs=1:2:8 ${shared:-(a tree each)}: the six phases per rank and summed, the label 1:2:8:3, nothing left" ||
	    { echo "rc=$rc"; cat "$WORK/err"; ls -AR "$t"; } | diag
done
# --dirs-shared with a -d for each rank: rank 1 cannot find rank 0's tree
t2=$(mktemp -d "$base/t.XXXXXX")
chmod 755 "$t2"
mpi_mix -r 0 -s 0 -n 0 --dirs=1 --dirs-shared -- -r 0 -s 0 -n 0 --dirs=1 \
    --dirs-shared -d "$t2"
[ "$rc" = 2 ] && is_empty "$t" && is_empty "$t2" &&
    grep -q "^clyde: --dirs-shared: rank 1 ($(hostname)) cannot open $t2/clyde\.[0-9]*\.[A-Za-z0-9]*, rank 0's scratch directory, to make its directories in rank 0's tree: No such file or directory; the ranks' -d must name one shared directory" \
    "$WORK/err" && ! grep -q '^Create' "$WORK/err"
ok $? "--dirs-shared with another -d on each rank: refused before any phase (exit 2), nothing left" ||
    { echo "rc=$rc"; cat "$WORK/err"; ls -A "$t" "$t2"; } | diag

done_testing
