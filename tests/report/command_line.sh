#!/bin/sh
# clyde report from the command line: every file of the corpus (copied
# into tests/fixtures/corpus from the shared corpus of real bonnie++
# output), the broken lines named with their line numbers, run -> CSV ->
# report -> the same table, several results in one table, --average and
# --compare, JSON and HTML, stdin, options and errors.
. "$(dirname "$0")/../lib.sh"

C=tests/fixtures/corpus

# report ARGS...: sets $rc, $WORK/out, $WORK/err
report() {
	"$CLYDE" report "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}

# results in $WORK/out of --csv (a header comes first for several)
csv_results() { grep -vc '^name,\|^format_version,' "$WORK/out"; }

# every corpus file: how many results, and no complaint
for spec in c001_bonnie2gchart_bonnie.csv:7 \
    c003_1.96_perfkitbenchmarker_fixture.csv:1 \
    g001_1.97_wifo3-02_laura-dietz_wifo3-2.txt:4 \
    g002_1.96_cunnie_iSCSI_80G.txt:9 g003_1.97_cunnie_NVMe_4G.txt:9 \
    g004_1.97_cunnie_azure_premium_lrs.txt:1 \
    g005_1.97_cunnie_vsphere_nvme.txt:1 g006_1.97_cunnie_gce_pd-ssd.txt:1 \
    m001_1.03_txiki_lkml_formatflowed.txt:1 \
    m002_1.92a_SunWave1_lkml_wrapped.txt:2 \
    m003_1.02c_galaxy_lkml_wrapped.txt:1 \
    m006_2.00_nfs_SERVER_CLIENT_linux-nfs_QPdecoded.txt:2 \
    m006_2.00_nfs_SERVER_CLIENT_linux-nfs_quotedprintable.txt:2 \
    m009_1.03_acrypto_csv2txt_atversion_lkml.txt:3 \
    m010_1.02c_siva_lkml_wrapped.txt:2 m013_1.03_meghan_nfs_f_n0_lkml.txt:1 \
    m014_2.00_seeks65536_chunk4k_noname_linux-xfs.txt:1; do
	f=${spec%:*} want=${spec##*:}
	report --csv "$C/$f"
	[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && [ "$(csv_results)" = "$want" ]
	ok $? "$f: $want results, nothing to complain about" ||
	    { echo "rc=$rc"; cat "$WORK/err"; } | diag
done

# the broken lines, with their line numbers, after all the rest
report --csv "$C/c002_bonnie2gchart_fake103.csv"
[ "$rc" = 1 ] && [ "$(cat "$WORK/err")" = "$C/c002_bonnie2gchart_fake103.csv:1: no bonnie++ CSV format is called '1.03'" ] &&
    [ ! -s "$WORK/out" ]
ok $? "c002, the hand-made hybrid: line 1 named, exit 1" || diag < "$WORK/err"
f001=$C/f001_mixed_1.03c-1.03e-1.96_ubuntuforums_post_your_hdd_results.txt
report --csv "$f001"
[ "$rc" = 1 ] && [ "$(cat "$WORK/err")" = "$f001:156: 47 fields: cut short? (a 1.96 line has 48)" ] &&
    [ "$(csv_results)" = 16 ] && grep -q '^1.96,1.96,kubuntu,1,,6G,,233,98,' "$WORK/out"
ok $? "f001: the truncated line 156 named, the other 15 printed and the table above it, exit 1" ||
    diag < "$WORK/err"

# quoted-printable and its decoded form read the same
report --json "$C/m006_2.00_nfs_SERVER_CLIENT_linux-nfs_quotedprintable.txt"
cp "$WORK/out" "$WORK/qp"
report --json "$C/m006_2.00_nfs_SERVER_CLIENT_linux-nfs_QPdecoded.txt"
cmp -s "$WORK/qp" "$WORK/out"
ok $? "quoted-printable: the same records as the decoded text"

# run -> CSV -> report -> the same table, both profiles.  The 2.00 run
# without per-char (-f): 2.00a's writes and reads a byte per system call,
# seconds per MiB here; its cells are printed by the loop that prints the
# block phases', and the 1.03 run has them.
for compat in 1.03 2.00; do
	t=$(fresh_target)
	"$CLYDE" -d "$t" $AS_USER -m host -r 0 -s 16 -n 1:1k:0:2 --precise \
	    --compat=$compat $([ $compat = 2.00 ] && echo -f) >"$WORK/run" 2>/dev/null
	tail -1 "$WORK/run" > "$WORK/line"
	sed '$d' "$WORK/run" > "$WORK/table"
	report --compat=$compat "$WORK/line"
	cmp -s "$WORK/out" "$WORK/table" && [ "$rc" = 0 ]
	ok $? "--compat=$compat: a run's CSV line prints the run's table" ||
	    diff "$WORK/table" "$WORK/out" | diag
	report --csv --compat=$compat "$WORK/line"
	cmp -s "$WORK/out" "$WORK/line"
	ok $? "--compat=$compat: and its CSV line, unchanged" ||
	    diff "$WORK/line" "$WORK/out" | diag
done

# several generations in one table: each row is the row of its own table
mixed=$WORK/mixed.csv
grep -h -E '^(galaxy,|1\.92a|1\.96,1\.96,beta|1\.98,2\.00,CLIENT|1\.97,1\.97,wifo3-02,1,1438076799)' \
    "$C/m003_1.02c_galaxy_lkml_wrapped.txt" "$C/m002_1.92a_SunWave1_lkml_wrapped.txt" \
    "$f001" "$C/m006_2.00_nfs_SERVER_CLIENT_linux-nfs_QPdecoded.txt" \
    "$C/g001_1.97_wifo3-02_laura-dietz_wifo3-2.txt" > "$mixed"
for compat in 1.03 2.00; do
	report --compat=$compat "$mixed"
	cp "$WORK/out" "$WORK/all"
	fail=0
	while IFS= read -r line; do
		printf '%s\n' "$line" > "$WORK/one"
		report --compat=$compat "$WORK/one"
		# the I/O row of the single table: the line after the header
		row=$(sed -n 4p "$WORK/out")
		grep -qxF "$row" "$WORK/all" || { echo "missing: $row"; fail=1; }
	done < "$mixed"
	[ "$fail" = 0 ] && [ "$(grep -c '^Version' "$WORK/all")" = \
	    "$([ $compat = 1.03 ] && echo 1 || echo 2)" ]
	ok $? "--compat=$compat: six results of five generations, one table" ||
	    diag < "$WORK/all"
done
report --compat=2.00 "$mixed"
grep -A1 '^galaxy ' "$WORK/out" | tail -1 | grep -qx 'Latency *'
ok $? "a 1.0x row has an empty Latency row in the 2.00 layout"

# --average: the seven DAMETH_RROBIN runs and the author's avg-rr line
# (tests/fixtures/dameth_rrobin.txt).  The expected figures are computed by
# hand (unit_report.c explains where they differ from avg-rr): means rounded as the column
# prints them, min and max, and the CV (sample standard deviation over
# the mean, in percent) of 6064 5785 5666 6058 5668 5865 5678 (3.02),
# of put_block (2.35), rewrite (0.66), getc (0.30), get_block (1.16)
# and seeks (4.22).
rr=tests/fixtures/dameth_rrobin.txt
report --average "$rr"
{
	echo 'mean:spyder      1G  5826  63 13527  11  7806   5  9438  90 16091   4 148.7   0'
	printf '%-19s %5d     %5d     %5d     %5d     %5d     %5.1f    \n' \
	    '  min' 5666 13228 7741 9396 15923 140.5
	printf '%-19s %5d     %5d     %5d     %5d     %5d     %5.1f    \n' \
	    '  max' 6064 14048 7869 9479 16311 157.9
	printf '%-19s %5.1f     %5.1f     %5.1f     %5.1f     %5.1f     %5.1f    \n' \
	    '  cv %' 3.0 2.3 0.7 0.3 1.2 4.2
} > "$WORK/want"
grep -A3 '^mean:spyder      1G' "$WORK/out" > "$WORK/got"
cmp -s "$WORK/want" "$WORK/got" && [ "$rc" = 0 ]
ok $? "--average: the mean, min, max and CV rows of the I/O section" ||
    diff "$WORK/want" "$WORK/got" | diag
grep -qx 'mean:spyder      16   590  15  7589  69   114   1   612  16 19770  69   113   1' "$WORK/out"
ok $? "--average: the file row (seq_create and ran_stat differ from avg-rr)" ||
    diag < "$WORK/out"
report --average --csv "$rr"
tail -1 "$WORK/out" | grep -qx 'mean:spyder,1G,5826,63,13527,11,7806,5,9438,90,16091,4,148.7,0,16,590,15,7589,69,114,1,612,16,19770,69,113,1'
ok $? "--average --csv: the mean line"
report --average --json "$rr"
grep -q '"average": {"runs": 7, "spread": {' "$WORK/out" &&
    grep -q '"putc": {"runs": 7, "min": 5666, "max": 6064, "cv": 3.02, "too_fast": 0, "stopped": 0, "median": 5785, ' "$WORK/out"
ok $? "--average --json: runs and spread" || diag < "$WORK/out"

# --compare: the seeds' OSDL runs, cl049 as a percentage of cl038
cmp_in=$WORK/osdl.csv
printf '%s\n' \
    'cl038,496M,6209,62,10723,13,6471,8,8678,82,18728,9,210.7,3,16,479,19,1811,25,323,4,1126,26,+++++,+++,233,4' \
    'cl049,5000M,6000,59,10612,12,7364,14,9827,92,23422,13,148.2,1,16,439,20,+++++,+++,257,6,897,27,+++++,+++,247,4' \
    > "$cmp_in"
report --compare=cl038 "$cmp_in"
# pct_row CELL...: "  vs cl038" and six cells of " %5s    "
pct_row() {
	printf '%-19s' '  vs cl038'
	for c in "$@"; do printf ' %5s    ' "$c"; done
	echo
}
{ pct_row -3% -1% +14% +13% +25% -30%; pct_row -8% '' -20% -20% '' +6%; } > "$WORK/want"
grep '^  vs ' "$WORK/out" > "$WORK/got"
cmp -s "$WORK/want" "$WORK/got" && [ "$rc" = 0 ]
ok $? "--compare=cl038: a row of percentages under cl049 only" ||
    diff "$WORK/want" "$WORK/got" | diag
report --compare=nobody "$cmp_in"
[ "$rc" = 1 ] && grep -q 'no result has that name' "$WORK/err" &&
    grep -q '^cl049 ' "$WORK/out"
ok $? "--compare with an unknown name: exit 1, the table still printed"

# JSON: valid, every key of clyde(1)'s JSON record in every record
report --json --average --compare=spyder "$rr" "$f001" "$C/m006_2.00_nfs_SERVER_CLIENT_linux-nfs_QPdecoded.txt"
py3 - "$WORK/out" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))
top = ["source", "generation", "format_version", "bonnie_version", "name", "concurrency",
       "seed", "file_size", "file_size_mib", "io_chunk_size", "seeks",
       "seek_procs", "files", "tests", "clyde_version", "compat", "started",
       "target", "options", "phases", "ranks", "status", "error", "average", "compare"]
tests = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
         "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del",
         "dir_create", "dir_stat", "dir_del", "ran_dir_create", "ran_dir_stat",
         "ran_dir_del"]
# 8 + 16 + 2 results, the means of spyder (7 runs) and of plug1 (f001, 2)
assert len(recs) == 28, len(recs)
for r in recs:
    # the man page's keys, in its order; keys added later may sit between
    keys = [k for k in r if k in top]
    assert keys == top, list(r)
    assert list(r["tests"]) == tests
    for t in r["tests"].values():
        assert list(t) == ["status", "rate", "cpu", "latency_us", "rate_precision"]
        assert t["status"] in ("ok", "too_fast", "skipped", "unknown")
        if t["status"] != "ok":
            assert t["rate"] is None and t["cpu"] is None
gens = {r["generation"] for r in recs}
assert gens == {"1.0x", "1.96", "1.98"}, gens
assert [r["name"] for r in recs if r["source"] == "table"] == ["kubuntu"]
client = [r for r in recs if r["name"] == "CLIENT"][0]
assert client["tests"]["rewrite"]["latency_us"] == 12422000
assert client["seed"] == "1694022898" and client["concurrency"] == 1
PY
ok $? "--json: valid, every key of the JSON record in every record, latencies in us"
printf 'a"b\\c\001\377\303\251,2G,1,1,1,1,1,1,1,1,1,1,1.0,1,16,1,1,1,1,1,1,1,1,1,1,1,1\n' > "$WORK/odd"
report --json "$WORK/odd"
grep -qF '"name": "a\"b\\c?\u00ffé"' "$WORK/out"
ok $? "--json: quotes, backslashes and bytes that are not UTF-8 escaped, a control byte read as '?'" ||
    diag < "$WORK/out"

# HTML: one page, no script, nothing external, the input escaped
printf '<script>alert(1)</script>,2G,1,1,1,1,1,1,1,1,1,1,1.0,1,16,1,1,1,1,1,1,1,1,1,1,1,1\n' > "$WORK/xss"
report --html "$WORK/xss" "$mixed"
! grep -qi '<script\|src=\|href=\|@import\|url(' "$WORK/out" &&
    grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$WORK/out" &&
    [ "$(grep -c '<svg ' "$WORK/out")" = 12 ] &&
    [ "$(grep -c '<table>' "$WORK/out")" = 2 ]
ok $? "--html: two tables, twelve charts, no script, names escaped"

# stdin, -, several files
report --csv < "$mixed"
cp "$WORK/out" "$WORK/stdin"
report --csv - < "$mixed"
cmp -s "$WORK/out" "$WORK/stdin" && [ "$(csv_results)" = 6 ]
ok $? "standard input, with and without -"
report --csv "$mixed" "$WORK/nonexistent" "$mixed"
[ "$rc" = 1 ] && [ "$(csv_results)" = 12 ] && grep -q 'nonexistent' "$WORK/err"
ok $? "a missing file: named, exit 1, the others printed"
report --csv --compat=2.00 "$C/m003_1.02c_galaxy_lkml_wrapped.txt"
[ "$(nfields "$(cat "$WORK/out")")" = 50 ] && cut -d, -f1-3 "$WORK/out" | grep -qx '1.98,,galaxy'
ok $? "--csv --compat=2.00: a 1.0x line as a 50-field line"

# results.csv kept with "clyde -q >> results.csv; echo $? >> results.csv"
galaxy=$(grep -h '^galaxy,' "$C/m003_1.02c_galaxy_lkml_wrapped.txt")
printf '%s\n0\n%s\n0\n' "$galaxy" "$galaxy" > "$WORK/results.csv"
report --csv "$WORK/results.csv"
[ "$rc" = 0 ] && [ "$(grep -c "^$galaxy\$" "$WORK/out")" = 2 ]
ok $? "an exit status after each line is not glued to the last field" ||
    diag < "$WORK/out"
# text with commas before a line: the line read, no comma in any field
printf 'a,b,c,%s\n' "$galaxy" > "$WORK/prefixed"
report --csv "$WORK/prefixed"
[ "$rc" = 0 ] && [ "$(cat "$WORK/out")" = "$galaxy" ]
ok $? "text with commas before a 1.0x line: the line, 27 fields" ||
    diag < "$WORK/out"
client=$(grep -h '^1.98,2.00,CLIENT' "$C/m006_2.00_nfs_SERVER_CLIENT_linux-nfs_QPdecoded.txt")
printf '%s\n' "$client" | sed 's/,CLIENT,/,CLI,ENT,/' > "$WORK/comma"
report --csv --compat=2.00 "$WORK/comma"
[ "$rc" = 0 ] && [ "$(nfields "$(cat "$WORK/out")")" = 50 ] &&
    [ "$(field "$(cat "$WORK/out")" 3)" = 'CLI;ENT' ]
ok $? "a comma in a 1.98 name: written back as ';', 50 fields" ||
    diag < "$WORK/out"

# one comma too many (a decimal comma in the seeks of a 1.0x, a 1.97 and
# a 1.98 line) is named with its line, never read shifted; so is a %CP of
# five digits, a rate in the wrong column
wifo=$(grep -h '^1.97,1.97,wifo3-02,1,1438076799' "$C/g001_1.97_wifo3-02_laura-dietz_wifo3-2.txt")
{ echo "$galaxy" | sed 's/,318\.1,/,318,1,/'
  echo "$wifo" | sed 's/,439\.5,/,439,5,/'
  echo "$client" | sed 's/,407\.8,/,407,8,/'
  echo "$galaxy" | sed 's/,16268,72,/,16268,72000,/'; } > "$WORK/decimal"
report --csv "$WORK/decimal"
[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] &&
    [ "$(cut -d: -f1-2 "$WORK/err" | tr '\n' ' ')" = "$WORK/decimal:1 $WORK/decimal:2 $WORK/decimal:3 $WORK/decimal:4 " ] &&
    grep -qx "$WORK/decimal:4: putc_cpu: '72000' is out of range (%CP is 0 to 9999)" "$WORK/err"
ok $? "a decimal comma in 1.0x, 1.97 and 1.98 lines, a %CP of 72000: each line named, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag
# a spreadsheet's empty rows (27 and 50 fields) and a row of notes
# between two results are no result and no error
{ echo ',,,,,,,,,,,,,,,,,,,,,,,,,,'; echo "$galaxy"
  echo 'Notes,,see below'; echo 'Notes:,,,,,,,,,,,,,,,,,,,,,,,,,,'
  echo ',,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,'; echo "$client"; } > "$WORK/sheet"
report --csv "$WORK/sheet"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && [ "$(csv_results)" = 2 ]
ok $? "a spreadsheet's empty rows and a row of notes: no result, no error" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag
# bonnie++ writes any -m name: a 27-field line named "web01:2G" reads
# back as such, the 26 fields of name:size as before
echo "$galaxy" | sed 's/^galaxy,/web01:2G,/' > "$WORK/colon"
report --csv "$WORK/colon"
[ "$rc" = 0 ] && [ "$(cat "$WORK/out")" = "$(cat "$WORK/colon")" ]
ok $? "a 1.0x line of a machine named web01:2G: read, the name kept" ||
    { echo "rc=$rc"; cat "$WORK/err" "$WORK/out"; } | diag
# with -s 0 the size field is empty: still 27 fields, a 1.03 line
for s in 1 0; do
	run -m web01:2G -s $s -n 1 -q
	tail -1 "$WORK/out" > "$WORK/line"
	report --csv "$WORK/line"
	[ "$rc" = 0 ] && cmp -s "$WORK/out" "$WORK/line"
	ok $? "clyde -m web01:2G -s $s: its CSV line reads back unchanged" ||
	    { echo "rc=$rc"; cat "$WORK/err" "$WORK/line" "$WORK/out"; } | diag
done

# long lines: indentation and trailing blanks of any length are no part
# of the line; anything else past 8191 bytes is named, never skipped
{ printf '%9000s' ''; echo "$galaxy"; echo "$client"; printf '%9000s\n' ''; } > "$WORK/indented"
report --csv "$WORK/indented"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && [ "$(csv_results)" = 2 ]
ok $? "a line after 9000 blanks of indentation, and one before 9000 blanks: read" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
{ echo "$galaxy"; awk 'BEGIN { for (i = 0; i < 1000; i++) printf "some words "; print "" }'
  echo "$client"; } > "$WORK/long"
report --csv "$WORK/long"
[ "$rc" = 1 ] && [ "$(cat "$WORK/err")" = "$WORK/long:2: longer than 8191 bytes" ] &&
    [ "$(csv_results)" = 2 ]
ok $? "a line of 11000 bytes of words: named, exit 1, the lines around it read" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag
head -c 100000 /dev/zero > "$WORK/zeros"
report --csv "$WORK/zeros"
[ "$rc" = 1 ] && [ "$(cat "$WORK/err")" = "$WORK/zeros:1: longer than 8191 bytes" ] &&
    [ ! -s "$WORK/out" ]
ok $? "100000 NUL bytes: named as one long line, exit 1" ||
    { echo "rc=$rc"; cat "$WORK/err"; } | diag

# real tables that mail clients wrapped (KMail at 77 columns, Outlook at
# 76, inside words and +++++), without their CSV lines: the same results
for f in m002_1.92a_SunWave1_lkml_wrapped.txt m003_1.02c_galaxy_lkml_wrapped.txt \
    m010_1.02c_siva_lkml_wrapped.txt; do
	grep -v , "$C/$f" > "$WORK/table"
	report --csv --compat=1.03 "$C/$f"
	cp "$WORK/out" "$WORK/want"
	report --csv --compat=1.03 "$WORK/table"
	[ "$rc" = 0 ] && [ -s "$WORK/want" ] && cmp -s "$WORK/want" "$WORK/out"
	ok $? "$f: the wrapped tables alone read as their CSV lines" ||
	    diff "$WORK/want" "$WORK/out" | diag
done
# bon_csv2txt's table of three rows, its file rows repeating the names;
# a -f -n 0 table with numbers wider than their columns
report --csv "$C/m009_1.03_acrypto_csv2txt_atversion_lkml.txt" \
    "$C/m013_1.03_meghan_nfs_f_n0_lkml.txt"
cat > "$WORK/want" <<'CSV'
acrypto,2500M,5479,74,8122,5,4886,4,5690,73,10713,4,22.0,0,16,1345,99,+++++,+++,+++++,+++,1403,99,+++++,+++,4538,100
cryptoloop,2500M,5812,71,10437,7,4402,5,7165,92,10763,6,88.3,0,16,1372,99,+++++,+++,+++++,+++,1405,99,+++++,+++,4501,99
dm_crypt,2500M,6040,90,6747,36,4768,8,5775,66,10161,5,90.6,0,16,1352,99,+++++,+++,+++++,+++,1371,99,+++++,+++,4278,100
meghan,512M,,,118985,30,5173,99,,,294404,25,+++++,+++,,,,,,,,,,,,,
CSV
sed 1d "$WORK/out" | cmp -s "$WORK/want" -
ok $? "m009, m013: the rows of the tables, cells that did not run empty" ||
    diag < "$WORK/out"

# a table with one bad cell is named with the line of the bad row, never
# skipped or read as a result of its other section: a letter in a 1.03e
# rate, a unit 2.00a never wrote (K), a rate of 15 digits, a %CP of five
# digits; the good table after each still read
T=tests/fixtures/tables
table_of() { grep -v -e , -e '^###' -e '^rc=' "$T/$1"; }
fail=0
for bad in 'v1.03e_big.txt|s/ 126176  57 / 12O176  57 /|4' \
    'v2.00a_big.txt|s/ 278k  50 / 278K  50 /|4' \
    'v2.00a_big.txt|s/ 1\.1g  46 / 99999999999999g  46 /|4' \
    'v1.97.3_default.txt|s/ 574  83 / 574  83123 /|4'; do
	f=${bad%%|*} line=${bad##*|} expr=${bad#*|}
	expr=${expr%|*}
	{ table_of "$f" | sed "$expr"; echo; table_of v1.97.3_default.txt; } > "$WORK/badtable"
	report --csv "$WORK/badtable"
	[ "$rc" = 1 ] && [ "$(cut -d: -f1-2 "$WORK/err")" = "$WORK/badtable:$line" ] &&
	    [ "$(csv_results)" = 1 ] && grep -q '^1\.97,1\.97,testhost,1,,64M,' "$WORK/out" ||
	    { fail=1; echo "$f $expr: rc=$rc"; cat "$WORK/err" "$WORK/out"; }
done > "$WORK/diag"
[ "$fail" = 0 ]
ok $? "a table with a bad rate, unit or %CP: the row named, exit 1, no phantom result" ||
    diag < "$WORK/diag"
# a bad Latency cell: its line named and dropped, the row read as without it
fail=0
for bad in 's/ 91876us / 9l876us /|5' 's/ 50us / 50xs /|10'; do
	line=${bad##*|} expr=${bad%|*}
	{ table_of v1.97.3_default.txt | sed "$expr"; echo; table_of v1.97.3_default.txt; } > "$WORK/badtable"
	{ table_of v1.97.3_default.txt | sed "${line}d"; echo; table_of v1.97.3_default.txt; } > "$WORK/without"
	report --csv "$WORK/without"
	mv "$WORK/out" "$WORK/want"
	report --csv "$WORK/badtable"
	[ "$rc" = 1 ] && [ "$(wc -l < "$WORK/err")" = 1 ] &&
	    grep -q "^$WORK/badtable:$line: Latency row: dropped " "$WORK/err" &&
	    [ "$(csv_results)" = 2 ] && cmp -s "$WORK/want" "$WORK/out" ||
	    { fail=1; echo "$expr: rc=$rc"; cat "$WORK/err" "$WORK/out"; }
done > "$WORK/diag"
[ "$fail" = 0 ]
ok $? "a bad Latency cell: its line named and dropped, exit 1, the row read as without that line" ||
    diag < "$WORK/diag"

# a 2.00a table without its CSV line (tests/fixtures/tables/INDEX.md)
grep -v -e , -e '^###' -e '^rc=' tests/fixtures/tables/v2.00a_big.txt > "$WORK/big"
report --csv "$WORK/big"
# the rates as read (236m = 241664 KiB/s), the garbage file rates empty
[ "$rc" = 0 ] && [ "$(cat "$WORK/out")" = '1.98,2.00a,bighost,1,,2G,,8192,,278,50,241664,48,513024,45,265,47,1153433,46,7291,35,64,,,,,,41,,37,,43,,63,+++++,+++,,62,233ms,25419us,8502us,132ms,7369us,104ms,31919us,4895us,30094us,28173us,1847us,17426us' ]
ok $? "a 2.00a table alone: its 1.98 line, rates as read, no garbage file rate" ||
    diag < "$WORK/out"
report --json "$WORK/big"
grep -q '"source": "table"' "$WORK/out" &&
    grep -q '"put_block": {"status": "ok", "rate": 241664, "cpu": 48, "latency_us": 25419, "rate_precision": 512}' "$WORK/out" &&
    grep -q '"seq_create": {"status": "unknown", "rate": null, "cpu": 41, "latency_us": 31919, "rate_precision": null}' "$WORK/out"
ok $? "--json of a table: source, the rounding of 236m, an unknown file rate" ||
    diag < "$WORK/out"
# --compare: 237m against 236m is inside the rounding (~), 1.0g against
# 1.1g is not, and whole KiB/s (278k) are exact
sed 's/^bighost   /otherhost /; s/ 236m / 237m /; s/ 1\.1g / 1.0g /' "$WORK/big" > "$WORK/other"
report --compare=bighost "$WORK/big" "$WORK/other"
{ printf '%-19s' '  vs bighost'; for c in 0% ~0% ~0% 0% -9% 0%; do
	printf ' %5s    ' "$c"; done; echo; } > "$WORK/want"
grep -A2 '^otherhost  *2G' "$WORK/out" | grep '^  vs' > "$WORK/got"
cmp -s "$WORK/want" "$WORK/got"
ok $? "--compare of two tables: ~ where the difference is inside the rounding" ||
    diff "$WORK/want" "$WORK/got" | diag
# a change that rounds to no percent has no sign: 999 against 1000 K/s
# is -0.1 %, printed 0% (not +0%) in text, Markdown and HTML
printf '%s\n' 'base,300M,,,1000,1,,,,,,,,,,,,,,,,,,,,,' \
    'less,300M,,,999,1,,,,,,,,,,,,,,,,,,,,,' > "$WORK/tenth"
report --compare=base "$WORK/tenth"
t_row=$(grep '^  vs base' "$WORK/out" | tr -s ' ')
report --markdown --compare=base "$WORK/tenth"
m_row=$(grep '^| vs base' "$WORK/out")
report --html --compare=base "$WORK/tenth"
[ "$t_row" = " vs base 0% " ] && [ "$m_row" = "| vs base | | | | 0% | | | | | | | | | |" ] &&
    grep -q '>0%</td>' "$WORK/out" && ! grep -q '+0%' "$WORK/out"
ok $? "-0.1 %: 0% without a sign, in text, Markdown and HTML" ||
    { echo "text: '$t_row'"; echo "markdown: '$m_row'"; } | diag
report --json --compare=bighost "$WORK/big" "$WORK/other"
tr -d ' \n' < "$WORK/out" | grep -q '"within_rounding":{"putc":false,"put_block":true,"rewrite":true,"getc":false,"get_block":false,"seeks":false'
ok $? "--compare --json: within_rounding" || diag < "$WORK/out"
# Sets whose truth is known (tests/tools/sets.awk): in one file under
# their machine names, and as LABEL=FILE sets of one machine name.
for s in old new two; do
	awk -v name="$s" -v set="$s" -f tests/tools/sets.awk
	awk -v name=box -v set="$s" -f tests/tools/sets.awk > "$WORK/set_$s.csv"
done > "$WORK/sets.csv"
# verdict_row CELL...: "  vs old" and six cells of " %5s    "
verdict_row() {
	printf '%-19s' '  vs old'
	for c in "$@"; do printf ' %5s    ' "$c"; done
	echo
}
for how in "one file" "LABEL=FILE"; do
	if [ "$how" = "one file" ]; then
		set -- "$WORK/sets.csv"
	else
		set -- old="$WORK/set_old.csv" new="$WORK/set_new.csv" \
		    two="$WORK/set_two.csv"
	fi
	report --average --compare=old "$@"
	{
		verdict_row '~' +20% '~' '~' -14% '~'
		verdict_row '~' '' '~' '~' '~' '~'
	} > "$WORK/want"
	grep -A1 '^mean:new ' "$WORK/out" | grep '^  vs old' > "$WORK/got"
	cmp -s "$WORK/want" "$WORK/got" && [ "$rc" = 0 ]
	ok $? "sets, $how: +20 % and -14 % significant, ~ where unchanged or bimodal" ||
	    { diff "$WORK/want" "$WORK/got"; cat "$WORK/out"; } | diag
	grep -A2 '^mean:new  *1G' "$WORK/out" | tail -1 |
	    grep -Eq '^  95% interval +\+1[5-9]\.\.\+2[1-5] +-1[5-8]\.\.-1[0-3] *$'
	ok $? "sets, $how: the 95 % intervals hold +20 % and -14 %, not 0" ||
	    diag < "$WORK/out"
	sed -n '/^mean:two  *16/,/^mean:/p' "$WORK/out" | grep -q '^  vs old' &&
	    [ "$(grep -c '^  too few runs (2): no verdict$' "$WORK/out")" = 2 ] &&
	    ! grep -A2 '^mean:two' "$WORK/out" | grep -q -e '~' -e '95%'
	ok $? "sets, $how: 2 runs, no verdict, too few runs (2) in each section" ||
	    diag < "$WORK/out"
	sed -n '/^mean:new  *16/,/^mean:two/p' "$WORK/out" |
	    grep -Eqx '  bimodal {13}yes {54}' &&
	    [ "$(grep -c '^  bimodal' "$WORK/out")" = 1 ]
	ok $? "sets, $how: seq_create of new is bimodal, nothing else" ||
	    diag < "$WORK/out"
done
# a LABEL=FILE set of one run: its row is named by its label, as the
# mean of a larger set is (mean:LABEL), in text, Markdown, HTML and JSON
head -1 "$WORK/set_new.csv" | sed 's/^box,/lonely,/' > "$WORK/set_one.csv"
bad=
for fmt in --text --markdown --html --json; do
	report $fmt --average old="$WORK/set_old.csv" one="$WORK/set_one.csv"
	case $fmt in
	--text) grep -q '^one  ' "$WORK/out" ;;
	--markdown) grep -q '^| one |' "$WORK/out" ;;
	--html) grep -q '<td class="name">one</td>' "$WORK/out" ;;
	--json) grep -q '"name": "one"' "$WORK/out" ;;
	esac && [ "$rc" = 0 ] && ! grep -q 'lonely' "$WORK/out" ||
	    { bad=$fmt; break; }
done
[ -z "$bad" ]
ok $? "a set of one run (one=FILE): its row is named one, not by its machine name, in text, Markdown, HTML and JSON" ||
    { echo "$bad rc=$rc"; cat "$WORK/out"; } | diag
report --json --average --compare=old old="$WORK/set_old.csv" \
    new="$WORK/set_new.csv" two="$WORK/set_two.csv"
py3 - "$WORK/out" <<'PY'
import json, sys
recs = {r["name"]: r for r in json.load(open(sys.argv[1]))}
new, two, old = recs["mean:new"], recs["mean:two"], recs["mean:old"]
c = new["compare"]
assert c["significant"]["put_block"] is True, c
lo, hi = c["ci_percent"]["put_block"]
assert 0 < lo < 20 < hi, c["ci_percent"]
lo, hi = c["ci_percent"]["get_block"]
assert lo < -14 < hi < 0 and c["significant"]["get_block"], c
assert c["p"]["put_block"] < 0.001 and c["p"]["get_block"] < 0.001, c["p"]
for ph in ("putc", "rewrite", "getc", "seeks", "seq_create", "seq_del"):
    assert c["significant"][ph] is False and c["p"][ph] >= 0.05, (ph, c)
    assert c["ci_percent"][ph][0] < 0 < c["ci_percent"][ph][1] or \
        c["ci_percent"][ph] == [0, 0], (ph, c)
# seq_stat: old has no rate (+++++ in all its runs)
assert c["significant"]["seq_stat"] is None and c["p"]["seq_stat"] is None
for k in ("significant", "p", "ci_percent"):
    assert set(two["compare"][k].values()) == {None}, two["compare"]
    assert set(old["compare"][k].values()) == {None}, old["compare"]
sp = new["average"]["spread"]
assert sp["seq_create"]["bimodal"] is True and sp["seq_create"]["median"] == 800, sp
assert [s["bimodal"] for p, s in sp.items() if p != "seq_create" and s] == [False] * 11, sp
assert sp["seq_stat"]["runs"] == 3 and sp["seq_stat"]["too_fast"] == 2, sp
assert sp["seq_stat"]["min"] == 20000, sp["seq_stat"]
assert old["average"]["spread"]["seq_stat"] is None, old
assert sp["put_block"]["ci"][0] < 120000 < sp["put_block"]["ci"][1], sp
PY
ok $? "sets --json: significant, p, ci_percent; bimodal, median, +++++ runs apart" ||
    diag < "$WORK/out"
report --markdown --average --compare=old "$WORK/sets.csv"
grep -qx '| vs old | | ~ | | +20% | | ~ | | ~ | | -14% | | ~ | |' "$WORK/out" &&
    grep -q '^| too few runs (2): no verdict |' "$WORK/out" &&
    grep -q '^| bimodal | | yes |' "$WORK/out"
ok $? "sets --markdown: ~, the signed changes, too few runs, bimodal" ||
    diag < "$WORK/out"
# --csv: the lines of before, no more: the same with or without --compare
report --csv --average "$WORK/sets.csv"
mv "$WORK/out" "$WORK/plain"
report --csv --average --compare=old "$WORK/sets.csv"
cmp -s "$WORK/plain" "$WORK/out" && grep -q '^mean:new,1G,5000,90,120000,' "$WORK/out"
ok $? "sets --csv: the mean lines unchanged by the verdicts" || diag < "$WORK/out"
# latencies (2.00 lines): lower is better; put_block's halved in new,
# get_block's 1.4 times old's, the rest unchanged (tests/tools/sets.awk)
for s in old new two; do
	awk -v name=box -v set="$s" -v format=1.98 -f tests/tools/sets.awk > "$WORK/lat_$s.csv"
done
report --compat=2.00 --average --compare=old old="$WORK/lat_old.csv" \
    new="$WORK/lat_new.csv" two="$WORK/lat_two.csv"
{
	printf '%-19s' '  latency vs old'
	for c in '~' -50% '~' '~' +40% '~'; do printf ' %5s    ' "$c"; done
	echo
} > "$WORK/want"
sed -n '/^mean:new  *1G/,/^  min/p' "$WORK/out" | grep '^  latency vs old' > "$WORK/got"
cmp -s "$WORK/want" "$WORK/got" && [ "$rc" = 0 ] &&
    sed -n '/^mean:new  *1G/,/^  min/p' "$WORK/out" | grep -A1 '^  latency vs' |
    grep -Eq '^  95% interval +-5[0-9]\.\.-4[0-9] +\+3[0-9]\.\.\+4[0-9] *$' &&
    sed -n '/^mean:new  *16/,/^  min/p' "$WORK/out" |
    grep -Eq '^  latency vs old( +~){6} *$'
ok $? "latency verdicts: -50 % (better) and +40 % (worse) beyond noise, ~ elsewhere" ||
    { diff "$WORK/want" "$WORK/got"; cat "$WORK/out"; } | diag
sed -n '/^mean:two  *1G/,/^  min/p' "$WORK/out" > "$WORK/got"
grep -q '^  latency vs old  *-1%  *-50%' "$WORK/got" &&
    grep -qx '  too few runs (2): no verdict' "$WORK/got" && ! grep -q '95%' "$WORK/got"
ok $? "latency verdicts: 2 runs, the plain percentages, no verdict" || diag < "$WORK/got"
# the 1.03 layout shows no latency, but says what changed in it
report --average --compare=old old="$WORK/lat_old.csv" new="$WORK/lat_new.csv"
n=$(grep -c '^  latency vs old' "$WORK/out")
report --average --compare=old "$WORK/sets.csv"
[ "$n" = 2 ] && grep -q '^  vs old' "$WORK/out" && ! grep -q '^  latency vs' "$WORK/out"
ok $? "latency verdicts in the 1.03 layout too; none for 1.0x lines, which have none" ||
    diag < "$WORK/out"
report --markdown --compat=2.00 --average --compare=old old="$WORK/lat_old.csv" \
    new="$WORK/lat_new.csv"
grep -qx '| latency vs old | | ~ | | -50% | | ~ | | ~ | | +40% | | ~ | |' "$WORK/out"
ok $? "latency verdicts --markdown" || diag < "$WORK/out"
report --json --average --compare=old old="$WORK/lat_old.csv" \
    new="$WORK/lat_new.csv" two="$WORK/lat_two.csv"
py3 - "$WORK/out" <<'PY'
import json, sys
recs = {r["name"]: r for r in json.load(open(sys.argv[1]))}
new, two = recs["mean:new"], recs["mean:two"]
lat = new["compare"]["latency"]
assert list(lat) == ["percent", "significant", "p", "ci_percent", "runs_needed"], list(lat)
assert lat["percent"]["put_block"] == -50 and lat["percent"]["get_block"] == 40, lat
assert lat["significant"]["put_block"] is True and lat["significant"]["get_block"] is True
assert lat["p"]["put_block"] < 0.001, lat["p"]
lo, hi = lat["ci_percent"]["put_block"]
assert lo < -50 < hi < 0, lat["ci_percent"]
for ph in ("putc", "rewrite", "getc", "seeks", "seq_create", "seq_stat", "ran_del"):
    assert lat["significant"][ph] is False, (ph, lat)
assert set(two["compare"]["latency"]["significant"].values()) == {None}
ls = new["average"]["latency_spread"]
assert ls["put_block"]["runs"] == 5 and ls["put_block"]["median"] == 25000, ls
# +++++ runs have their latency: seq_stat has 5, its rate 3
assert ls["seq_stat"]["runs"] == 5 and new["average"]["spread"]["seq_stat"]["runs"] == 3
assert recs["mean:old"]["compare"]["latency"]["significant"]["put_block"] is None
PY
ok $? "latency verdicts --json: compare.latency, average.latency_spread" ||
    diag < "$WORK/out"
# unlike sets: new ran on 2G with 64k chunks; one line says so, once
sed 's/^box,1G,/box,2G:64k,/' "$WORK/set_new.csv" > "$WORK/set_new2g.csv"
report --average --compare=old old="$WORK/set_old.csv" new="$WORK/set_new2g.csv"
[ "$(grep -c '^  unlike old: ' "$WORK/out")" = 1 ] &&
    grep -A6 '^mean:new ' "$WORK/out" |
    grep -qx '  unlike old: file size 2G vs 1G, chunk 64k vs 8k'
ok $? "unlike sets: one line names the file size and chunk" || diag < "$WORK/out"
# The OpenGFS runs of 2003 (tests/fixtures/opengfs: OpenGFS_Performance,
# one node, bonnie++ 1.02c, three directory allocation methods), the
# README's worked example
og=tests/fixtures/opengfs
report --average --compare=rrobin random=$og/random.txt single=$og/single.txt \
    rrobin=$og/rrobin.txt
sed -n '/^mean:random  *1G/,/^mean:single/p' "$WORK/out" | sed -n 2,3p > "$WORK/got"
{
	printf '%-19s' '  vs rrobin'
	for c in +4% +7% '~' +1% '~' +18%; do printf ' %5s    ' "$c"; done
	echo
	printf '%-19s %9s %9s %9s %9s %9s %9s\n' '  95% interval' +2..+7 +4..+9 '' \
	    +0..+2 '' +14..+22
} > "$WORK/want"
cmp -s "$WORK/want" "$WORK/got"
ok $? "OpenGFS: DAMETH_RANDOM writes and seeks faster than round robin, beyond noise" ||
    { diff "$WORK/want" "$WORK/got"; cat "$WORK/out"; } | diag
sed -n '/^mean:single  *16/,/^mean:rrobin/p' "$WORK/out" > "$WORK/got"
grep -q '^  median  *73 ' "$WORK/got" && grep -q '^  bimodal  *yes ' "$WORK/got" &&
    grep -q '^  too few runs (2): no verdict$' "$WORK/got" &&
    grep -A1 '^mean:single  *1G' "$WORK/out" | grep -Eq '^  vs rrobin( +~){6} *$'
ok $? "OpenGFS: DAMETH_SINGLE's create is bimodal (829 801 825, 73 72 72 71), its I/O ~" ||
    diag < "$WORK/out"
# --best: each set's median in % of the best set's, per phase.  old and
# new of tests/tools/sets.awk: new's put_block is 1.2 times old's (old:
# 83 %), old's get_block 200000 against new's 172000 (new: 86 %), the
# other medians the same (a tie: both best); seq_stat only new measured.
best_row() { # NAME CELL...: a row of the best-case table
	printf '%-19s' "$1"
	shift
	for c in "$@"; do printf ' %5s    ' "$c"; done
	echo
}
report --average --best old="$WORK/set_old.csv" new="$WORK/set_new.csv"
{
	echo "Best case: each set's median in % of the best set's (*: the best; ~: not significantly different from it)"
	printf '%20s%s\n' '' '------Sequential Output------ --Sequential Input- --Random-' \
	    '' '-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--'
	best_row old '*100' 83 '*100' '*100' '*100' '*100'
	best_row new '*100' '*100' '*100' '*100' 86 '*100'
	printf '%20s%s\n' '' '------Sequential Create------ --------Random Create--------' \
	    '' '-Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--'
	best_row old '*100' '' '*100' '*100' '*100' '*100'
	best_row new '*100' '*100' '*100' '*100' '*100' '*100'
} > "$WORK/want"
sed -n '/^Best case/,$p' "$WORK/out" > "$WORK/got"
[ "$rc" = 0 ] && cmp -s "$WORK/want" "$WORK/got"
ok $? "--best: the medians in % of the best, * the best, beyond noise unmarked" ||
    { diff "$WORK/want" "$WORK/got"; cat "$WORK/out"; } | diag
# latencies: the lowest is the best; new's put_block latency is half
# old's (old: 200 %), old's get_block latency 10000 against 14000 (140 %)
report --average --best --compat=2.00 old="$WORK/lat_old.csv" new="$WORK/lat_new.csv"
sed -n '/^Best case/,/Sequential Create/p' "$WORK/out" | grep -A1 '^old ' | tail -1 > "$WORK/got"
sed -n '/^Best case/,/Sequential Create/p' "$WORK/out" | grep -A1 '^new ' | tail -1 >> "$WORK/got"
{ best_row '  latency' '*100' 200 '*100' '*100' '*100' '*100'
  best_row '  latency' '*100' '*100' '*100' '*100' 140 '*100'; } > "$WORK/want"
cmp -s "$WORK/want" "$WORK/got"
ok $? "--best: latencies, the lowest best" || { diff "$WORK/want" "$WORK/got"; cat "$WORK/out"; } | diag
# OpenGFS: DAMETH_RANDOM has the best median in every large-file phase;
# ~ marks the phases where --compare=random finds no change
report --average --best random=$og/random.txt single=$og/single.txt rrobin=$og/rrobin.txt
cp "$WORK/out" "$WORK/best"
report --average --compare=random random=$og/random.txt single=$og/single.txt \
    rrobin=$og/rrobin.txt
fail=0
sed -n '/^Best case/,/Sequential Create/p' "$WORK/best" | grep -q '^random  *\*100  *\*100  *\*100  *\*100  *\*100  *\*100 *$' || fail=1
for set in single rrobin; do
	best=$(sed -n '/^Best case/,/Sequential Create/p' "$WORK/best" | grep "^$set " |
	    awk '{ for (i = 2; i <= NF; i++) printf "%s", ($i ~ /^~/ ? "~" : "x") }')
	cmpr=$(grep -A1 "^mean:$set  *1G" "$WORK/out" | tail -1 | sed 's/^  vs random//' |
	    awk '{ for (i = 1; i <= NF; i++) printf "%s", ($i == "~" ? "~" : "x") }')
	[ "$best" = "$cmpr" ] && [ ${#best} = 6 ] || { fail=1; echo "$set: $best vs $cmpr"; }
done > "$WORK/diag"
grep -q '^single  *95  *93  *~97  *99  *~97  *79 *$' "$WORK/best" || fail=1
[ "$fail" = 0 ]
ok $? "--best, OpenGFS: random the best of the large file; ~ where --compare=random says ~" ||
    cat "$WORK/diag" "$WORK/best" | diag
# a best of 2 runs: no verdict, said
report --average --best old="$WORK/set_old.csv" two="$WORK/set_two.csv"
sed -n '/^Best case/,$p' "$WORK/out" > "$WORK/got"
grep -q '^two  *100  *\*100  *100  *100  *86  *100 *$' "$WORK/got" &&
    grep -q '^old  *\*100  *77  *\*100 ' "$WORK/got" &&
    [ "$(grep -c '^  too few runs (2): no verdict$' "$WORK/got")" = 3 ] && ! sed 1d "$WORK/got" | grep -q '~'
ok $? "--best: a best set of 2 runs: the percentages, too few runs for a verdict" ||
    diag < "$WORK/out"
report --best "$WORK/sets.csv"
[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] && grep -q '^clyde report: --best: needs --average' "$WORK/err"
ok $? "--best without --average: exit 1, said" || diag < "$WORK/err"
# --csv: the lines of --average, then lines of their own, which a reader
# of results takes for none
report --csv --average old="$WORK/lat_old.csv" new="$WORK/lat_new.csv"
mv "$WORK/out" "$WORK/plain"
report --csv --average --best old="$WORK/lat_old.csv" new="$WORK/lat_new.csv"
cp "$WORK/out" "$WORK/bestcsv"
n=$(wc -l < "$WORK/plain")
head -n "$n" "$WORK/bestcsv" | cmp -s "$WORK/plain" - &&
    sed -n "$((n + 1))p" "$WORK/bestcsv" | grep -qx 'best_case,set,phase,measure,median,percent_of_best,verdict,p,runs' &&
    grep -qx 'best_case,new,put_block,rate,120000,100.0,best,,5' "$WORK/bestcsv" &&
    grep -Eqx 'best_case,old,put_block,rate,100000,83.3,worse,[0-9.e-]+,5' "$WORK/bestcsv" &&
    grep -Eqx 'best_case,old,put_block,latency_us,50000,200.0,worse,[0-9.e-]+,5' "$WORK/bestcsv" &&
    [ "$(grep -c '^best_case,' "$WORK/bestcsv")" = $((1 + 11 + 12 + 2 * 12)) ]
ok $? "--best --csv: the lines of --average unchanged, then one line per set, phase and measure" ||
    diag < "$WORK/bestcsv"
report --csv "$WORK/bestcsv"
[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && [ "$(csv_results)" = 12 ]
ok $? "--best --csv read back: its results, no complaint" || diag < "$WORK/err"
report --markdown --average --best --compat=2.00 old="$WORK/lat_old.csv" new="$WORK/lat_new.csv"
grep -qx '| old | \\\*100 | 83 | \\\*100 | \\\*100 | \\\*100 | \\\*100 |' "$WORK/out" &&
    grep -qx '| new latency | \\\*100 | \\\*100 | \\\*100 | \\\*100 | 140 | \\\*100 |' "$WORK/out"
ok $? "--best --markdown" || diag < "$WORK/out"
report --json --average --best --compat=2.00 old="$WORK/lat_old.csv" \
    new="$WORK/lat_new.csv" two="$WORK/lat_two.csv"
py3 - "$WORK/out" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))
by = {r["name"]: r for r in recs}
assert all(r["best"] is None for r in recs if not r["name"].startswith("mean:"))
keys = ["percent", "is_best", "significant", "p", "latency"]
old, new, two = by["mean:old"]["best"], by["mean:new"]["best"], by["mean:two"]["best"]
assert list(old) == keys and list(old["latency"]) == keys[:4], list(old)
# two's put_block median (131000 plus 1 % and less 2 %) is the best
assert two["is_best"]["put_block"] and not new["is_best"]["put_block"]
assert abs(new["percent"]["put_block"] - 120000 / 130345 * 100) < 0.01, new["percent"]
assert new["significant"]["put_block"] is None      # two has 2 runs
assert new["is_best"]["get_block"] is False and old["is_best"]["get_block"] is True
assert old["percent"]["seq_stat"] is None and new["percent"]["seq_stat"] == 100
lat = old["latency"]
# two's put_block latency (25000 plus 1 % and less 2 %) is the best
assert abs(lat["percent"]["put_block"] - 50000 / 24875 * 100) < 0.01, lat["percent"]
assert lat["is_best"]["get_block"] is True
assert new["latency"]["percent"]["get_block"] == 140
assert new["latency"]["significant"]["get_block"] is True
assert new["latency"]["p"]["get_block"] < 0.001
assert old["latency"]["significant"]["putc"] is None   # against two's 2 runs
PY
ok $? "--best --json: percent, is_best, significant, p, of rates and latencies" ||
    diag < "$WORK/out"
# clyde's own --json read back: tiny runs of both profiles, made here;
# the records give the CSV lines and tables of the runs themselves
for compat in 1.03 2.00; do
	t=$(fresh_target)
	"$CLYDE" -d "$t" $AS_USER -m jsonbox -s 8 -r 0 -n 1 -f -q --precise \
	    --compat=$compat --json="$WORK/run$compat.json" >"$WORK/line$compat" 2>"$WORK/err"
	report --csv "$WORK/run$compat.json"
	[ "$rc" = 0 ] && [ ! -s "$WORK/err" ] && [ -s "$WORK/line$compat" ] &&
	    cmp -s "$WORK/out" "$WORK/line$compat"
	ok $? "--json of a $compat run read back: its CSV line, field for field" ||
	    { cat "$WORK/err"; diff "$WORK/line$compat" "$WORK/out"; } | diag
	report --compat=$compat "$WORK/line$compat"
	mv "$WORK/out" "$WORK/table"
	report --compat=$compat "$WORK/run$compat.json"
	[ "$rc" = 0 ] && cmp -s "$WORK/out" "$WORK/table"
	ok $? "--json of a $compat run read back: the table of its CSV line" ||
	    diff "$WORK/table" "$WORK/out" | diag
done
report --json "$WORK/run2.00.json"
pl 'my ($run, $backs) = (load($ARGV[0]), load($ARGV[1]));
check(ref $backs eq "ARRAY" && @$backs == 1, $backs);
my $back = $backs->[0];
check(same($back->{source}, "run"), $back->{source});
# every key of the record of the run, the context and the raw figures too
check(same($back->{$_}, $run->{$_}), $_, $run->{$_}, $back->{$_}) for sort keys %$run;
# the filesystem, when a mount holds the target (fs_known)
check($ARGV[2] ? kind($back->{target}{fstype}) eq "string" && length $back->{target}{fstype} :
    !defined $back->{target}{fstype}, $back->{target});
my $lat = $back->{phases}{put_block}{latency_ns};
check(num($lat->{count}) > 0 && num($lat->{p50}) <= num($lat->{p99}) &&
    $lat->{p99} <= num($lat->{max}) * 1.07, $lat);
check(defined $back->{tests}{put_block}{latency_us})' "$WORK/run2.00.json" "$WORK/out" \
    "$(fs_known "$WORK" && echo known)"
ok $? "--json of a run read back: every key as the run wrote it, fstype and percentiles" ||
    diag < "$WORK/out"
# -x 3: an array of three records; --chunks: a sweep
t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -m xbox -s 8 -r 0 -n 1 -f -q --precise -x 3 \
    --json="$WORK/x3.json" >"$WORK/x3.csv" 2>/dev/null
report --csv "$WORK/x3.json"
[ "$rc" = 0 ] && cmp -s "$WORK/out" "$WORK/x3.csv" && [ "$(csv_results)" = 3 ]
ok $? "--json of -x 3 read back: the header and the three lines of the run" ||
    diff "$WORK/x3.csv" "$WORK/out" | diag
report --average "$WORK/x3.json"
grep -q '^mean:xbox ' "$WORK/out" && grep -q '^  cv %' "$WORK/out"
ok $? "--json of -x 3: one set, its mean and spread" || diag < "$WORK/out"
# a phase stopped for part of its time (SIGSTOP: the status "stopped",
# stopped_ns) has no valid rate: the second run's put_block, made so here,
# is left out of the mean, of the spread (counted apart) and of the
# verdicts; the text and Markdown say so under the mean, Markdown and
# HTML mark the run's figure; its CSV line is the run's, as measured
perl -MJSON::PP -e 'local $/; my $a = decode_json(<STDIN>);
	$a->[1]{tests}{put_block}{status} = "stopped";
	$a->[1]{tests}{put_block}{rate} = 1;
	$a->[1]{phases}{put_block}{stopped_ns} = 5000000000;
	print JSON::PP->new->encode($a)' <"$WORK/x3.json" >"$WORK/x3s.json"
{
fail=0
report --json --average "$WORK/x3s.json"
pl 'my ($runs, $report) = (load($ARGV[0]), load($ARGV[1]));
my @r = map { $_->{tests}{put_block}{rate} } @$runs;
my $m = $report->[3];
same($m->{name}, "mean:xbox");
same($m->{tests}{put_block}{rate}, sprintf("%.0f", ($r[0] + $r[2]) / 2));
same($m->{average}{spread}{put_block}{runs}, 2);
same($m->{average}{spread}{put_block}{stopped}, 1);
same($m->{average}{spread}{rewrite}{stopped}, 0);
same($m->{average}{latency_spread}{put_block}{runs}, 2);
same($report->[1]{tests}{put_block}{status}, "stopped")' \
    "$WORK/x3.json" "$WORK/out" 2>&1 || { fail=1; echo "--json: rc=$rc"; }
report --average "$WORK/x3s.json"
[ "$rc" = 0 ] && [ "$(grep -c '^  1 stopped phase left out$' "$WORK/out")" = 1 ] ||
    { fail=1; echo "text:"; cat "$WORK/out"; }
report --average --markdown "$WORK/x3s.json"
[ "$rc" = 0 ] && grep -q '^| 1 stopped phase left out |' "$WORK/out" &&
    [ "$(grep -c ' (stopped) |' "$WORK/out")" = 1 ] || { fail=1; echo "markdown:"; cat "$WORK/out"; }
report --html "$WORK/x3s.json"
[ "$rc" = 0 ] && [ "$(grep -o 'class="stopped"' "$WORK/out" | wc -l)" = 1 ] ||
    { fail=1; echo "html: rc=$rc"; }
report --csv "$WORK/x3s.json"
[ "$rc" = 0 ] && [ "$(sed -n 3p "$WORK/out" | cut -d, -f5)" = 1 ] &&
    [ "$(sed -n 2p "$WORK/out")" = "$(sed -n 2p "$WORK/x3.csv")" ] || { fail=1; echo "csv:"; cat "$WORK/out"; }
# three runs against three, of which one stopped: two, too few for a verdict
report --average --compare=old old="$WORK/x3.json" new="$WORK/x3s.json"
[ "$rc" = 0 ] && grep -qx '  too few runs (2): no verdict' "$WORK/out" ||
    { fail=1; echo "verdicts:"; cat "$WORK/out"; }
}>"$WORK/diag"
[ "$fail" = 0 ]
ok $? "a stopped phase: left out of the mean, the spread and the verdicts, said under the mean, marked in Markdown and HTML; its CSV line as measured" ||
    diag <"$WORK/diag"
t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -m sweepbox -s 8 -r 0 -n 0 -f -q --precise \
    --chunks=4k,64k --json="$WORK/sweep.json" >/dev/null 2>&1
report "$WORK/sweep.json"
grep -q '^sweepbox 8M: a sweep of 2 chunk sizes, 4k to 64k$' "$WORK/out"
ok $? "--json of a --chunks sweep read back: the sweep" || diag < "$WORK/out"
# sets of runs keep their context: -b in one, named in the unlike line
for s in plain sync; do
	t=$(fresh_target)
	"$CLYDE" -d "$t" $AS_USER -m box -s 8 -r 0 -n 0 -f -q --precise -x 2 \
	    $([ $s = sync ] && echo -b) --json="$WORK/ctx_$s.json" >/dev/null 2>&1
done
report --average --compare=plain plain="$WORK/ctx_plain.json" sync="$WORK/ctx_sync.json"
grep -qx '  unlike plain: -b yes vs no' "$WORK/out"
ok $? "sets from --json: the unlike line names -b, which no CSV line keeps" ||
    diag < "$WORK/out"
# refused FILE WANT: clyde report refuses FILE in the one line WANT, exit
# 1, nothing on stdout; else fail=1, and what it did
refused() {
	report "$1"
	[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] && [ "$(cat "$WORK/err")" = "$2" ] ||
	    { fail=1; echo "$1: rc=$rc, not: $2"; cat "$WORK/err"; }
}
# schema_as V FILE: the 2.00 run's record with schema_version V, in FILE
schema_as() {
	sed "s/^  \"schema_version\": 1,/  \"schema_version\": $1,/" \
	    "$WORK/run2.00.json" >"$2"
}
# what is not a record is refused in one line, never passed over in silence
printf '{"name": "x"}\n' > "$WORK/notrec.json"
printf '[\n{"tests": \n' > "$WORK/cut.json"
printf '[]\n' > "$WORK/empty.json"
# clyde-mpi's ranks are read one at a time from the text: what is wrong in
# them is found and placed all the same
printf '{"tests": {},\n "ranks": [{"rank": 0},\n {"rank": 1,,\n' > "$WORK/ranks.json"
fail=0
for spec in 'notrec.json|notrec.json: JSON: record 1: tests is missing' \
    'cut.json|cut.json:3: JSON: the text ends before a value' \
    'ranks.json|ranks.json:3: JSON: an object'"'"'s member without its name' \
    'empty.json|empty.json: JSON: no result in this JSON (only the means of clyde report --average, or none)'; do
	refused "$WORK/${spec%%|*}" "$WORK/${spec#*|}"
done > "$WORK/diag"
[ "$fail" = 0 ]
ok $? "JSON that is no clyde record: one line says why, exit 1" || diag < "$WORK/diag"
# a record of a newer schema may have removed or changed a key: refused;
# one without schema_version (older clydes) is read; versions start at 1
fail=0
for spec in '2|schema_version 2 is newer than this clyde reads (1)' \
    '99|schema_version 99 is newer than this clyde reads (1)' \
    '0|schema_version 0 is no version of the record (they start at 1)'; do
	v=${spec%%|*}
	schema_as "$v" "$WORK/schema$v.json"
	refused "$WORK/schema$v.json" "$WORK/schema$v.json: JSON: record 1: ${spec#*|}"
done > "$WORK/diag"
grep -v '^  "schema_version": 1,$' "$WORK/run2.00.json" >"$WORK/schema_none.json"
report --csv "$WORK/schema_none.json"
[ "$rc" = 0 ] && [ "$(csv_results)" = 1 ] || { fail=1; echo "no schema_version: rc=$rc"; cat "$WORK/err"; } >>"$WORK/diag"
[ "$fail" = 0 ] && grep -q '^  "schema_version": 1,$' "$WORK/run2.00.json"
ok $? "schema_version 2, 99, 0: refused in one line, exit 1; none: read" || diag < "$WORK/diag"
# numbers of RFC 8259's grammar only: -? (0 | [1-9][0-9]*) (. [0-9]+)?
# ([eE] [+-]? [0-9]+)?  A leading zero, a plus sign, a fraction or an
# exponent without digits, hex: refused, as schema_version and as a rate
# (line 19, put_block's), one line with the file and line; the forms the
# grammar has read as the numbers they are
fail=0
for v in 01 00 -01 +1 .5 1. 1.e0 0x1 1e 1e+ - -.5 1.5e; do
	schema_as "$v" "$WORK/num.json"
	refused "$WORK/num.json" "$WORK/num.json:2: JSON: '$v' is not a JSON number"
done > "$WORK/diag"
sed '/"put_block": {"status"/s/"rate": \([0-9]\)/"rate": 0\1/' "$WORK/run2.00.json" >"$WORK/num0.json"
rate=$(sed -n '/"put_block": {"status"/s/.*"rate": \([0-9.]*\),.*/\1/p' "$WORK/num0.json")
case $rate in 0[0-9]*) ;; *) fail=1; echo "no rate with a leading zero: $rate" ;; esac >>"$WORK/diag"
refused "$WORK/num0.json" "$WORK/num0.json:19: JSON: '$rate' is not a JSON number" >>"$WORK/diag"
for v in 1.0 1e0 1E+0 10e-1 0.1e1 100e-2; do
	schema_as "$v" "$WORK/num.json"
	report --csv "$WORK/num.json"
	[ "$rc" = 0 ] && [ "$(csv_results)" = 1 ] ||
	    { fail=1; echo "schema_version $v: rc=$rc"; cat "$WORK/err"; } >>"$WORK/diag"
done
[ "$fail" = 0 ]
ok $? "JSON numbers RFC 8259 does not allow (01, +1, .5, 1., 0x1, 1e): refused in one line, exit 1; 1.0, 1e0, 10e-1: read" ||
    diag < "$WORK/diag"
# a member named twice in one object is two figures for one thing: the
# record is refused, naming the member and the line of the second, in
# every object of the record: the record's own (name), a test's (rate),
# the host's (kernel, the second spelt with an escape), a phase's latency
# (max), and a rank's of clyde-mpi, read from the text one at a time
line_of() { grep -n "$1" "$WORK/run2.00.json" | sed 's/:.*//;q'; }
sed '/^  "name": "jsonbox",$/a\
  "name": "otherbox",' "$WORK/run2.00.json" >"$WORK/twice_name.json"
sed '/"put_block": {"status"/s/"rate": /"rate": 1, "rate": /' \
    "$WORK/run2.00.json" >"$WORK/twice_rate.json"
sed 's/"host": {"name"/"host": {"kern\\u0065l": "x", "name"/' \
    "$WORK/run2.00.json" >"$WORK/twice_kernel.json"
sed '/^    "seeks": {"ops"/s/"max": /"max": 1, "max": /' \
    "$WORK/run2.00.json" >"$WORK/twice_max.json"
printf '{"tests": {},\n "ranks": [{"rank": 0},\n {"rank": 1, "host": "a",\n  "rank": 2}]}\n' \
    >"$WORK/twice_rank.json"
fail=0
for spec in "name|$(($(line_of '^  "name": "jsonbox",$') + 1))" \
    "rate|$(line_of '"put_block": {"status"')" \
    "kernel|$(line_of '"host": {"name"')" \
    "max|$(line_of '^    "seeks": {"ops"')" "rank|4"; do
	k=${spec%%|*}
	refused "$WORK/twice_$k.json" "$WORK/twice_$k.json:${spec#*|}: JSON: two members named \"$k\" in one object"
done >"$WORK/diag"
[ "$fail" = 0 ]
ok $? "a member named twice in one object, at any depth: refused in one line naming it, exit 1" ||
    diag <"$WORK/diag"
# an ok test without its rate (clyde report crashed on it)
fail=0
sed '/"put_block": {"status"/s/"status": "[a-z_]*", "rate": [0-9.]*,/"status": "ok",/' \
    "$WORK/run2.00.json" >"$WORK/norate.json"
refused "$WORK/norate.json" "$WORK/norate.json: JSON: record 1: rate is missing" >"$WORK/diag"
[ "$fail" = 0 ] && ! grep -q '"put_block": {"status": "ok", "rate"' "$WORK/norate.json"
ok $? "an ok test without its rate: refused in one line, exit 1" || diag <"$WORK/diag"
# control characters in the names read (a JSON name with a newline and an
# escape, a host with an OSC title and a BEL, a CSV name and a set label
# with an escape) are written as '?', as -m would take them: the CSV line
# stays one line, nothing reaches the terminal
esc=$(printf '\033')
sed -e 's/^  "name": "jsonbox",$/  "name": "two\\nlines\\u001b[31m",/' \
    -e 's/"host": {"name": "[^"]*"/"host": {"name": "h\\u001b]0;title\\u0007"/' \
    "$WORK/run2.00.json" >"$WORK/ctl.json"
sed "s/^jsonbox,/csv${esc}[2Jname,/" "$WORK/line1.03" >"$WORK/ctl.csv"
{
	fail=0
	report --csv "$WORK/ctl.json"
	[ "$rc" = 0 ] && [ "$(csv_results)" = 1 ] &&
	    grep -q ',two?lines?\[31m,' "$WORK/out" || { fail=1; echo "--csv:"; cat -v "$WORK/out"; }
	report --markdown "$WORK/ctl.json"
	[ "$rc" = 0 ] && grep -q 'host h?\\\]0;title?' "$WORK/out" &&
	    ! grep -q "$esc\|$(printf '\007')" "$WORK/out" || { fail=1; echo "--markdown:"; cat -v "$WORK/out"; }
	report "lab${esc}[1mel=$WORK/ctl.csv" "$WORK/ctl.json"
	[ "$rc" = 0 ] && ! grep -q "$esc" "$WORK/out" && grep -q '^two?lines?\[31m ' "$WORK/out" &&
	    grep -q 'csv?\[2Jname' "$WORK/out" || { fail=1; echo "text:"; cat -v "$WORK/out" "$WORK/err"; }
	[ "$fail" = 0 ] && grep -q '"host": {"name": "h' "$WORK/ctl.json" &&
	    grep -q "^csv${esc}" "$WORK/ctl.csv"
} >"$WORK/diag"
ok $? "control characters in names, hosts and labels read: written as '?', the CSV line one line" ||
    diag <"$WORK/diag"

# the 2.00 CSV line of a run of --dirs alone has no figures: named, passed
# over, and with nothing else the input has no results (exit 1)
t=$(fresh_target)
"$CLYDE" -d "$t" $AS_USER -m dirsbox -r 0 -s 0 -n 0 --dirs=1:2:4 --compat=2.00 -q \
    >"$WORK/dirs_only.csv" 2>/dev/null
cat "$WORK/dirs_only.csv" "$WORK/line1.03" >"$WORK/dirs_mixed.csv"
report "$WORK/dirs_only.csv"
rc1=$rc
cp "$WORK/err" "$WORK/err1"
report --csv "$WORK/dirs_mixed.csv"
[ "$rc1" = 1 ] && grep -q '^1\.98,[^,]*,dirsbox,' "$WORK/dirs_only.csv" &&
    [ "$(cat "$WORK/err1")" = "$WORK/dirs_only.csv:1: a line without figures (-s 0 -n 0: a run of --dirs alone, whose figures are in its --json record only); passed over
$WORK/dirs_only.csv: no bonnie++ results found" ] &&
    [ "$rc" = 0 ] && [ "$(csv_results)" = 1 ] && ! grep -q dirsbox "$WORK/out" &&
    grep -q '^dirsbox\|^[^,]*,[^,]*,dirsbox' "$WORK/dirs_only.csv"
ok $? "the CSV line of a --dirs-only run: named as without figures, passed over; alone, exit 1" ||
    { echo "rc=$rc1/$rc"; cat "$WORK/err1" "$WORK/err" "$WORK/out"; } | diag
# file names with an escape and a newline, a set label and a --compare
# name with an escape, a rate read with an escape in it: every message
# has its control characters as '?', so that none forges a "clyde:" line
# or reaches the terminal; each message stays one line
esc=$(printf '\033')
h="$WORK/a$esc[31m
clyde: forged"
m="$WORK/a?[31m?clyde: forged"
echo hello >"$h.txt"
awk -F, -v OFS=, -v e="$esc" '{ $12 = "6x" e "[2J"; print }' \
    "$WORK/line2.00" >"$h.bad"
printf '{"tests": \n' >"$h.json"
cp "$WORK/dirs_only.csv" "$h.dirs"
report --compare="c$esc[1m" "$h.txt" "$h.bad" "$h.json" "$h.none" \
    "l$esc[1m=$h.dirs" "$WORK/line1.03"
{
	fail=0
	for want in "$m.txt: no bonnie++ results found" \
	    "$m.bad:1: put_block: '6x?[2J' is not a rate" \
	    "$m.json:2: JSON: the text ends before a value" \
	    "clyde report: $m.none: No such file or directory" \
	    "$m.dirs:1: a line without figures (-s 0 -n 0: a run of --dirs alone, whose figures are in its --json record only); passed over" \
	    "$m.dirs: no bonnie++ results found" \
	    "clyde report: --compare=c?[1m: no result has that name"; do
		grep -qxF "$want" "$WORK/err" || { fail=1; echo "missing: $want"; }
	done
	[ "$rc" = 1 ] && [ "$fail" = 0 ] && [ "$(grep -c '' "$WORK/err")" = 7 ] &&
	    ! grep -q "$esc" "$WORK/err" && ! grep -q '^clyde: forged' "$WORK/err" &&
	    grep -q '^jsonbox ' "$WORK/out" || { fail=1; echo "rc=$rc"; cat -v "$WORK/err"; }
	[ "$fail" = 0 ]
} >"$WORK/diag"
ok $? "file names, labels and names read: control characters '?' in every message, one line each" ||
    diag <"$WORK/diag"

# a table pasted in BBCode ([b]) or a note in braces is no JSON
{ printf '[b]not JSON[/b]\n{ a note }\n'; cat "$WORK/line1.03"; } > "$WORK/bbcode"
report --csv "$WORK/bbcode"
[ "$rc" = 0 ] && cmp -s "$WORK/out" "$WORK/line1.03"
ok $? "text that starts with [ or { is read as text" || diag < "$WORK/err"
# clyde -x 3: after the runs, on stderr, the median and the half-width
# of the 95 % interval of each phase that ran; stdout is bonnie++'s, the
# CSV header and one line per run (the figures: unit_report's summary)
run -s 8 -n 1 -f --precise -x 3
sed -n '/^clyde: 3 runs: /,$p' "$WORK/err" > "$WORK/summary"
[ "$rc" = 0 ] && [ "$(wc -l < "$WORK/out")" = 4 ] &&
    head -1 "$WORK/out" | grep -q '^name,file_size,putc,' &&
    [ "$(sed 1d "$WORK/out" | grep -c '^host,8M,')" = 3 ] &&
    [ "$(sed -n '2,11p' "$WORK/summary" |
        grep -Ec '^  [A-Z][a-z -]+ +[0-9.]+ (K/s|/s) +\+-[0-9]+\.[0-9]%$')" = 10 ] &&
    grep -q '^  Block write ' "$WORK/summary" && ! grep -q '^  Per-char' "$WORK/summary" &&
    [ "$(grep -vc '^clyde: runs vary by more than 10% (CV) in: ' "$WORK/summary")" = 11 ]
ok $? "-x 3: the summary on stderr, ten phases (-f: no per-char); stdout the header and 3 lines" ||
    { echo "rc=$rc"; cat "$WORK/out" "$WORK/err"; } | diag
run -s 8 -n 0 -f --precise -x 3 -q
[ "$rc" = 0 ] && ! grep -q 'runs: the median' "$WORK/err" && [ "$(wc -l < "$WORK/out")" = 4 ]
ok $? "-x 3 -q: no summary" || diag < "$WORK/err"
run -s 8 -n 0 -f --precise -x 2
[ "$rc" = 0 ] && ! grep -q 'runs: the median' "$WORK/err"
ok $? "-x 2: too few runs for a summary" || diag < "$WORK/err"
# --html with --average --compare: per phase every run of every set as a
# dot, each set's row coloured by its verdict, the median and the 95 %
# interval drawn, a legend (the OpenGFS sets: 3, 7 and 7 runs)
report --html --average --compare=rrobin random=$og/random.txt single=$og/single.txt \
    rrobin=$og/rrobin.txt
cp "$WORK/out" "$WORK/sets.html"
dots() { # PHASE-TITLE: that phase's chart of sets
	sed -n "/<figure class=\"sets\"><figcaption>$1 /,/<\/svg>/p" "$WORK/sets.html"
}
dots 'Block write' > "$WORK/bw"
dots 'Random delete' > "$WORK/rd"
[ "$rc" = 0 ] && [ "$(grep -c '<svg class="dots"' "$WORK/sets.html")" = 12 ] &&
    [ "$(grep -o '<circle class="run"' "$WORK/bw" | wc -l)" = 17 ] &&
    [ "$(grep -o '<line class="median"' "$WORK/bw" | wc -l)" = 3 ] &&
    [ "$(grep -o '<rect class="[a-z]*"' "$WORK/bw" | tr '\n' ' ')" = '<rect class="better" <rect class="same" <rect class="base" ' ] &&
    grep -q '<rect class="worse"' "$WORK/rd" && grep -q '>-20%</text>' "$WORK/rd" &&
    grep -q 'the 95% interval of the mean' "$WORK/sets.html" &&
    grep -q 'too few runs for a verdict' "$WORK/sets.html" &&
    grep -q '<td class="better" title="95% interval: +4..+9">+7%</td>' "$WORK/sets.html" &&
    ! grep -qi '<script\|src=\|href=' "$WORK/sets.html"
ok $? "--html, sets compared: every run a dot, rows coloured better, ~, worse, base; a legend" ||
    { cat "$WORK/bw"; cat "$WORK/rd"; } | diag
report --html --average random=$og/random.txt rrobin=$og/rrobin.txt
! grep -q 'class="dots"' "$WORK/out"
ok $? "--html --average without --compare: no chart of sets" || diag < "$WORK/out"
# a file whose own name has '=' is read as a file
cp "$WORK/set_two.csv" "$WORK/a=b.csv"
report --average "$WORK/a=b.csv"
[ "$rc" = 0 ] && grep -q '^mean:box ' "$WORK/out"
ok $? "a file named a=b.csv is a file, not a label" || diag < "$WORK/err"
# options
for bad in --compat=1.97 --frobnicate --compare=; do
	report "$bad" "$mixed"
	[ "$rc" = 1 ] && [ ! -s "$WORK/out" ] && grep -q "Try 'clyde report --help'" "$WORK/err"
	ok $? "bad option $bad: exit 1"
done
report --help
[ "$rc" = 0 ] && grep -q '^usage: clyde report' "$WORK/out"
ok $? "--help"
if [ -w /dev/full ]; then
	"$CLYDE" report "$mixed" >/dev/full 2>"$WORK/err"
	[ $? = 3 ]
	ok $? "a full disk under stdout: exit 3"
fi

# standard output closed: nowhere to write the report is an error, exit 3
"$CLYDE" report "$mixed" >&- 2>"$WORK/err"
rc=$?
[ "$rc" = 3 ] && grep -qx 'clyde report: standard output is closed: nowhere to write the report' "$WORK/err"
ok $? "standard output closed: named, exit 3" || { echo "rc=$rc"; cat "$WORK/err"; } | diag
# a reader that goes away (head -1): ended by SIGPIPE, quietly, as a
# filter is (clyde(1), EXIT STATUS); 3000 results are more than a pipe holds
# (the six of $mixed 600 times, in one awk, not 600 cats)
awk '{ l[NR] = $0 } END { for (i = 0; i < 600; i++) for (j = 1; j <= NR; j++) print l[j] }' \
    "$mixed" > "$WORK/many"
{ "$CLYDE" report --compat=1.03 "$WORK/many" 2>"$WORK/err"; echo $? > "$WORK/rc"; } | head -1 > "$WORK/out"
[ "$(cat "$WORK/rc")" = 141 ] && [ ! -s "$WORK/err" ] && grep -q '^Version' "$WORK/out"
ok $? "report | head -1: ended by SIGPIPE (141), no message" ||
    { cat "$WORK/rc" "$WORK/err"; } | diag

# --markdown: bytes that are not UTF-8 in a name become U+FFFD, as in
# --html, so that the page is valid UTF-8; UTF-8 passes through
printf 'caf\303\251\377\300\257x\303,2G,1,1,1,1,1,1,1,1,1,1,1.0,1,16,1,1,1,1,1,1,1,1,1,1,1,1\n' > "$WORK/bytes"
report --markdown "$WORK/bytes"
[ "$rc" = 0 ] && iconv -f UTF-8 -t UTF-8 "$WORK/out" >/dev/null 2>&1 &&
    grep -q "^| café$(printf '\357\277\275\357\277\275\357\277\275')x$(printf '\357\277\275') | 2G |" "$WORK/out"
ok $? "--markdown: a name with bytes that are not UTF-8: valid UTF-8, each such byte U+FFFD" ||
    od -c "$WORK/out" | head -5 | diag

done_testing
