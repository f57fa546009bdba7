#!/usr/bin/perl
# modload.pl DIR MODULE...: load kernel modules and what they depend on
# (DIR/modules.dep) with finit_module(2), for the UML guest of guest.sh: its
# userland is the host's, which may have no kmod (no modprobe, insmod).
# x86_64 only (system call 313).  A module already loaded is fine.
use strict;
use warnings;

my $dir = shift or die "usage: modload.pl DIR MODULE...\n";
my (%path, %dep, %loaded);

# a module's name as the kernel knows it, from its file name
sub name { my $n = shift; $n =~ s{.*/}{}; $n =~ s/\.ko(\..*)?$//; $n =~ tr/-/_/; $n }

open my $d, '<', "$dir/modules.dep" or die "$dir/modules.dep: $!\n";
while (<$d>) {
	chomp;
	my ($file, $deps) = split /:\s*/, $_, 2;
	my $n = name($file);
	$path{$n} = $file;
	$dep{$n} = [ map { name($_) } split ' ', ($deps // '') ];
}
if (open my $p, '<', '/proc/modules') {
	while (<$p>) { $loaded{(split)[0]} = 1 }
}

my $rc = 0;
sub load {
	my $n = name(shift);
	return if $loaded{$n};
	die "modload.pl: no module $n in $dir/modules.dep\n" unless $path{$n};
	# modules.dep lists the deepest dependency last
	load($_) for reverse @{ $dep{$n} };
	open my $f, '<', "$dir/$path{$n}" or die "$dir/$path{$n}: $!\n";
	# the parameters string must be a variable: syscall() may write to it
	my $params = '';
	if (syscall(313, fileno($f), $params, 0) != 0 && !$!{EEXIST}) {
		warn "modload.pl: finit_module $n: $!\n";
		$rc = 1;
	}
	$loaded{$n} = 1;
}
load($_) for @ARGV;
exit $rc;
