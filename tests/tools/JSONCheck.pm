# JSONCheck.pm: what the Perl checks of the shell tests use (lib.sh's pl),
# with perl's own modules alone.  load(PATH) reads a JSON file; in what it
# returns, reading a key that an object lacks dies (as a KeyError would)
# and no array grows; slurp(PATH) reads a text.  check(COND, WHAT...)
# dies unless COND, with the line and WHAT as JSON; num(V) is V if it is
# a number, else an error.  same(A, B) compares values as JSON has them:
# a number equals a number of the same value, a string the same string,
# null null, true true, an array or object the same members (a number
# is told from a string by how perl holds it: compare a number before it
# is used as a string, a hash key say).  round_even(X) rounds as Python.
package JSONCheck;
use strict;
use warnings;
use B ();
use Exporter 'import';
use Hash::Util ();
use JSON::PP ();
use POSIX ();

our @EXPORT = qw(load slurp check same num round_even true false kind dump_json);

sub true () { JSON::PP::true }
sub false () { JSON::PP::false }

sub restrict {
	my ($v) = @_;
	if (ref $v eq 'HASH') {
		restrict($_) for values %$v;
		Hash::Util::lock_hashref($v);
	} elsif (ref $v eq 'ARRAY') {
		restrict($_) for @$v;
		Internals::SvREADONLY(@$v, 1);
	}
	return $v;
}

sub load {
	my ($path) = @_;
	return restrict(JSON::PP->new->decode(slurp($path)));
}

# slurp PATH: the whole text of a file
sub slurp {
	my ($path) = @_;
	open my $f, '<', $path or die "$path: $!\n";
	local $/;
	return scalar <$f>;
}

sub dump_json {
	return JSON::PP->new->canonical->allow_nonref->encode($_[0]);
}

# kind VALUE: null, bool, number, string, ARRAY or HASH
sub kind {
	my ($v) = @_;
	return 'null' unless defined $v;
	my $r = ref $v;
	return 'bool' if $r eq 'JSON::PP::Boolean';
	return $r if $r;
	my $flags = B::svref_2object(\$v)->FLAGS;
	return ($flags & (B::SVp_IOK | B::SVp_NOK)) && !($flags & B::SVp_POK) ?
	    'number' : 'string';
}

# num VALUE: VALUE, which must be a number (a comparison with a string or
# null dies, as it does in Python)
sub num {
	my ($v) = @_;
	kind($v) eq 'number' or die "not a number: " . dump_json($v) . "\n";
	return $v;
}

# round_even X: X to the nearest whole number, a half to the even one (as
# Python's round)
sub round_even {
	my ($x) = @_;
	my $f = POSIX::floor($x);
	my $d = $x - $f;
	return $d > 0.5 || ($d == 0.5 && POSIX::fmod($f, 2) != 0) ? $f + 1 : $f;
}

sub same {
	my ($a, $b) = @_;
	my ($ka, $kb) = (kind($a), kind($b));
	return 0 if $ka ne $kb;
	return 1 if $ka eq 'null';
	return !$a == !$b if $ka eq 'bool';
	return $a == $b if $ka eq 'number';
	return $a eq $b if $ka eq 'string';
	if ($ka eq 'ARRAY') {
		return 0 if @$a != @$b;
		same($a->[$_], $b->[$_]) or return 0 for 0 .. $#$a;
		return 1;
	}
	return 0 if join("\0", sort keys %$a) ne join("\0", sort keys %$b);
	same($a->{$_}, $b->{$_}) or return 0 for keys %$a;
	return 1;
}

sub check {
	my ($ok, @what) = @_;
	return 1 if $ok;
	my $line = (caller)[2];
	die "check failed at line $line: " .
	    join(' ', map { dump_json($_) } @what) . "\n";
}

1;
