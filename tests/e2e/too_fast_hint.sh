#!/bin/sh
# The line after a run whose phases print +++++ (clyde(1), -s): the -s
# and -n that make each last about 1 s, from the run's own times in its
# JSON record (twice 0.5 s over the time of the fastest of each kind,
# sizes and file counts to the next power of two, seeks to the next
# thousand), the user's own fields kept, options that clyde takes, a
# file larger than the target's free space said, and no line where it
# has nothing to say (--precise, -q, a sweep).
. "$(dirname "$0")/../lib.sh"

# want_hint JSON: the hint's options as clyde(1) says to make them, from
# the record's phases (elapsed_ns) and their status (too_fast)
want_hint() {
	perl -MJSON::PP -e '
	    local $/; open my $f, "<", $ARGV[0] or die; my $r = decode_json(<$f>);
	    my ($t, $p) = ($r->{tests}, $r->{phases});
	    sub f { my $m = 0; for (@_) { next unless $t->{$_} &&
	        $t->{$_}{status} eq "too_fast" && $p->{$_}{elapsed_ns} > 0;
	        my $x = 1e9 / $p->{$_}{elapsed_ns}; $m = $x if $x > $m } $m }
	    sub p2 { my $v = 1; $v *= 2 while $v < $_[0]; $v }
	    my $io = f(qw(putc put_block rewrite getc get_block));
	    my $sk = f("seeks"); my $fl = f(qw(seq_create seq_stat seq_del
	        ran_create ran_stat ran_del));
	    my @o; my $def = $r->{compat} eq "2.00" ? 8192 : 8000;
	    if ($io || $sk) {
	        my $mib = $io ? p2($r->{file_size_mib} * $io) : $r->{file_size_mib};
	        my $s = $mib >= 1024 && $mib % 1024 == 0 ? ($mib / 1024) . "g" : $mib;
	        my $seeks = $sk ? int(($r->{seeks} * $sk + 999) / 1000) * 1000 : $r->{seeks};
	        $s .= "::$seeks" if $seeks != $def;
	        push @o, "-s $s" }
	    push @o, "-n " . p2($r->{files}{count} * $fl) if $fl;
	    print join(" ", @o), "\n"' "$1"
}

# too_fast_cells: the +++++ among the twelve rates of the CSV line
too_fast_cells() {
	grep , "$WORK/out" | tail -1 | tr , '\n' | grep -c '^+++++$'
}

run -s 16 -n 1 --json="$WORK/r.json"
n=$(too_fast_cells)
if grep -q 'small-file phases would need -n' "$WORK/err"; then
	skip "the target holds fewer files than the hint's -n: $(grep -o 'more [a-z]* than the target holds ([^)]*)' "$WORK/err")" 2
elif [ "$rc" = 0 ] && [ "$n" -gt 0 ]; then
	want=$(want_hint "$WORK/r.json")
	line=$(grep '^clyde: [0-9]* phases* ran under 0.5 s' "$WORK/err")
	got=$(printf '%s\n' "$line" | sed -n "s/.*from this run's times, \\(.*\\) in place of its own would make each last about 1 s.*/\\1/p")
	[ "$(printf '%s\n' "$line" | grep -c .)" = 1 ] &&
	    printf '%s\n' "$line" | grep -q "^clyde: $n phases* ran under" &&
	    [ -n "$want" ] && [ "$got" = "$want" ] &&
	    printf '%s\n' "$line" | grep -Eq '(\(or --precise prints their rates as measured\)|the target has free: there, only --precise shows the rates of the file phases)$'
	ok $? "-s 16 -n 1: $n phases +++++, one line: $got, from the record's times" ||
	    { echo "want: $want"; cat "$WORK/err"; } | diag
	# what the hint names, with the run's other options, clyde takes:
	# the next refusal is the target's
	"$CLYDE" -d "$WORK/none" $AS_USER -r 0 $got >/dev/null 2>"$WORK/err2"
	[ $? = 2 ] && grep -q '^clyde: -d ' "$WORK/err2"
	ok $? "$got: options clyde takes" || diag < "$WORK/err2"
else
	skip "no phase of -s 16 -n 1 was +++++ here (rc=$rc)" 2
fi

# the user's own chunk, seekers and -n fields stay in the hint
run --compat=2.00 -s 16:4k:2000:3 -n 1:2048:1024:2
if [ "$rc" = 0 ] && [ "$(too_fast_cells)" -gt 0 ]; then
	line=$(grep 'ran under 0.5 s' "$WORK/err")
	got=$(printf '%s\n' "$line" | sed -n "s/.*from this run's times, \\(.*\\) in place of its own would make.*/\\1/p")
	printf '%s\n' "$got" | grep -Eq '^(-s [0-9]+g?:4096:[0-9]+:3 ?)?(-n [0-9]+:2048:1024:2)?$' &&
	    [ -n "$got" ] && "$CLYDE" -d "$WORK/none" $AS_USER -r 0 --compat=2.00 $got 2>/dev/null
	[ $? = 2 ]
	ok $? "-s 16:4k:2000:3 -n 1:2048:1024:2: the hint keeps the chunk, seekers and -n's fields ($got)" ||
	    diag < "$WORK/err"
else
	skip "no phase was +++++ here (rc=$rc: $(head -1 "$WORK/err"))" 1
fi

# the fault shim tells the free space and inodes; ASan must come first
# among the libraries, so the sanitizer build has no LD_PRELOAD shim
if [ -n "${CLYDE_SANITIZED:-}" ]; then
	skip "sanitizer build: the fault shim runs on the normal build" 3
else
	# a target with less free space than the file the hint names: said
	t=$(fresh_target)
	CLYDE_FAULT_FREE_MIB=100 LD_PRELOAD=$SHIM "$CLYDE" -d "$t" $AS_USER -r 0 \
	    -s 16 -n 0 -f >"$WORK/out" 2>"$WORK/err"
	rc=$?
	if [ "$rc" = 0 ] && [ "$(too_fast_cells)" -gt 0 ] &&
	    grep -q 'from this run.s times, -s [0-9]*g' "$WORK/err"; then
		grep -q 'but that file is more than the 100 MiB the target has free: there, only --precise shows the rates of the file phases$' "$WORK/err"
		ok $? "a target with 100 MiB free: the file the hint names does not fit, said" ||
		    diag < "$WORK/err"
	else
		skip "the hint names no file over 1 GiB here (rc=$rc)" 1
	fi

	# a target with too few inodes for the files the hint would name: the
	# most it holds, or none, and why
	for inodes in 3000 1500; do
		t=$(fresh_target)
		CLYDE_FAULT_FREE_INODES=$inodes LD_PRELOAD=$SHIM "$CLYDE" -d "$t" $AS_USER \
		    -r 0 -s 0 -n 1 >"$WORK/out" 2>"$WORK/err"
		rc=$?
		line=$(grep 'ran under 0.5 s' "$WORK/err")
		if [ "$rc" = 0 ] && [ "$(too_fast_cells)" -gt 0 ] &&
		    printf '%s\n' "$line" | grep -q 'would need -n [0-9]*, more files'; then
			if [ "$inodes" = 3000 ]; then most=', of which -n 2 is the most'; else most=; fi
			printf '%s\n' "$line" | grep -Eq "the small-file phases would need -n [0-9]+, more files than the target holds \($inodes inodes free\)$most; --precise prints their rates as measured\$" &&
			    is_empty "$t"
			ok $? "$inodes inodes free: the -n that fits${most:+ (-n 2)}, said with why" ||
			    diag < "$WORK/err"
		else
			skip "the small-file phases of -n 1 fit 1 s in $inodes inodes here (rc=$rc)" 1
		fi
	done
fi

# nothing to say: --precise prints the rates, -q is quiet, a sweep's
# small points are what it is for
for args in "--precise -s 16 -n 1" "-q -s 16 -n 1" "--sizes=1,2 -n 0 -f"; do
	run $args
	[ "$rc" = 0 ] && ! grep -q 'ran under 0.5 s' "$WORK/err"
	ok $? "$args: no hint" || diag < "$WORK/err"
done

done_testing
