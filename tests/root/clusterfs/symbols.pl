#!/usr/bin/perl
# symbols.pl KALLSYMS: the hexadecimal words on standard input (gdb's x/gx
# of a stack) that fall in kernel text, as symbol+offset [module], in the
# order read ("  at SYMBOL+OFFSET [MODULE]"), repeats of a symbol dropped; for a guest's kernel that no
# longer runs its processes (guests.sh)
use strict;
use warnings;
no warnings 'portable';

my (@addr, @name);
open my $k, '<', shift or die "usage: symbols.pl KALLSYMS\n";
my @s;
while (<$k>) {
	my ($a, $t, $n, $m) = split;
	next unless $t =~ /^[tT]$/;
	push @s, [hex($a), $n . ($m ? " $m" : '')];
}
@s = sort { $a->[0] <=> $b->[0] } @s;
@addr = map { $_->[0] } @s;
@name = map { $_->[1] } @s;
die "symbols.pl: no text symbols\n" unless @addr;
my %seen;
my $n = 0;
while (<STDIN>) {
	for my $w (/0x([0-9a-f]{8,16})/g) {
		my $v = hex $w;
		next if $v < $addr[0] || $v > $addr[-1] + 0x10000;
		my ($lo, $hi) = (0, $#addr);
		while ($lo < $hi) {
			my $mid = int(($lo + $hi + 1) / 2);
			if ($addr[$mid] <= $v) { $lo = $mid } else { $hi = $mid - 1 }
		}
		# a function's address is a pointer, not where a call returns
		next if $v == $addr[$lo] || $v - $addr[$lo] > 0x10000;
		my ($sym, $mod) = split / /, $name[$lo], 2;
		next if $seen{$sym}++;
		printf "  at %s+0x%x%s\n", $sym, $v - $addr[$lo], $mod ? " $mod" : '';
		last if ++$n >= 40;
	}
}
