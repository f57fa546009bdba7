# mpi_lib.sh: what tests/mpi/ranks.sh and tests/mpi/rank_faults.sh share: clyde-mpi
# built (make check builds it first, when mpicc is there), mpirun on
# loopback, a target directory under /dev/shm (or TMPDIR when /dev/shm
# is small).  Sourced, not run.
. "$(dirname "$0")/../lib.sh"

# MPI_CASES: the count of the sourcing test's cases, for needs_all
needs_all mpicc libopenmpi-dev "$MPI_CASES"
needs_all mpirun openmpi-bin "$MPI_CASES"
if [ -n "${CLYDE_SANITIZED:-}" ]; then
	skip "not on the sanitizer build (MPI's own allocations)" all
fi
# both tests may start at once (prove -j): two makes that each find
# clyde-mpi out of date link it from objects the other is writing, and
# one fails; so one builds while the other waits (flock, util-linux)
mkdir -p build
lock=
command -v flock >/dev/null && lock="flock build/.mpi.lock"
$lock make -s mpi build/tests/clyde-mpi-hooks >/dev/null ||
    skip "make mpi failed" all
# ranks on one host that talk over TCP (root's, see dist/mpi.c) use loopback
MPIRUN="mpirun --oversubscribe --allow-run-as-root --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo"
# /dev/shm when it has room (a container's is 64 MiB), else TMPDIR's
# work directory, for the targets and for Open MPI's shared-memory
# segments (4 MiB a rank), which would otherwise fail with SIGBUS
shm=/dev/shm
if ! [ -d "$shm" ] || ! [ -w "$shm" ] ||
    [ "$(df -Pk "$shm" | awk 'NR == 2 { print $4 }')" -lt 1048576 ]; then
	shm=$WORK
	mkdir "$WORK/mpi-shm" && chmod 1777 "$WORK/mpi-shm"
	export OMPI_MCA_btl_vader_backing_directory="$WORK/mpi-shm"
fi
base=$(mktemp -d "$shm/clyde-mpi-test.XXXXXX")
chmod 755 "$base"
trap 'rm -rf "$WORK" "$base"' EXIT

mpi_run() { # NP ARGS...: a run in a fresh target under $base
	np=$1
	shift
	t=$(mktemp -d "$base/t.XXXXXX")
	chmod 755 "$t"
	timeout 300 $MPIRUN -np "$np" ./clyde-mpi -d "$t" $AS_USER -r 0 -m mpi \
	    "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
}

# json_sums FILE NP [PHASE...]: the record of NP ranks sums every rank's
# own figures of each phase that ran; each PHASE ran
json_sums() {
	pl 'my ($r, $n, @ran) = (load($ARGV[0]), $ARGV[1] + 0, @ARGV[2 .. $#ARGV]);
check(same($r->{concurrency}, $n), $r->{concurrency});
my $ranks = $n > 1 ? $r->{ranks} : undef;
check(!defined($ranks) == ($n == 1), $ranks);
check(defined $r->{phases}{$_}, $_) for @ran;
for my $name (sort keys %{$r->{phases}}) {
	my $ph = $r->{phases}{$name};
	next if !defined $ph || $n == 1;
	check(@$ranks > 0, $ranks);
	my @of = map { $_->{phases}{$name} } @$ranks;
	for my $key (qw(ops bytes cpu_ns)) {
		my $sum = 0;
		$sum += num($_->{$key}) for @of;
		check(same($ph->{$key}, $sum), $name, $key);
	}
	my ($max, $elapsed) = (num($of[0]{latency_ns}{max}), num($of[0]{elapsed_ns}));
	for (@of) {
		$max = num($_->{latency_ns}{max}) if num($_->{latency_ns}{max}) > $max;
		$elapsed = num($_->{elapsed_ns}) if num($_->{elapsed_ns}) > $elapsed;
	}
	check(same($ph->{latency_ns}{max}, $max), $name);
	check(num($ph->{elapsed_ns}) >= $elapsed * 0.99, $name);
}' "$@"
}

# have_files N DIR: true once the N scratch directories in DIR have their
# files/ (the small-file phases have begun); a glob, no process started,
# as the waits of tests/mpi/rank_faults.sh ask every 20 ms
have_files() {
	n=$1
	set -- "$2"/clyde.*/files
	[ -e "$1" ] && [ $# = "$n" ]
}
