# mpi_lib.sh: what tests/mpi.sh and tests/mpi_faults.sh share: clyde-mpi
# built (make check builds it first, when mpicc is there), mpirun on
# loopback, a target directory under /dev/shm (or TMPDIR when /dev/shm
# is small).  Sourced, not run.
. "$(dirname "$0")/lib.sh"

if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
	echo "1..0 # skip Open MPI is not installed"
	exit 0
fi
if [ -n "${CLYDE_SANITIZED:-}" ]; then
	echo "1..0 # skip not on the sanitizer build (MPI's own allocations)"
	exit 0
fi
make -s mpi tests/clyde-mpi-hooks >/dev/null ||
    { echo "1..0 # skip make mpi failed"; exit 0; }
# ranks on one host that talk over TCP (root's, see dist_mpi.c) use loopback
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
	python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert r["concurrency"] == n
ranks = r["ranks"] if n > 1 else None
assert (ranks is None) == (n == 1), ranks
for name in sys.argv[3:]:
    assert r["phases"][name] is not None, name
for name, ph in r["phases"].items():
    if ph is None or n == 1:
        continue
    for key in ("ops", "bytes", "cpu_ns"):
        assert ph[key] == sum(k["phases"][name][key] for k in ranks), (name, key)
    assert ph["latency_ns"]["max"] == max(k["phases"][name]["latency_ns"]["max"] for k in ranks)
    assert ph["elapsed_ns"] >= max(k["phases"][name]["elapsed_ns"] for k in ranks) * 0.99, name
PY
}

# have_files N DIR: true once the N scratch directories in DIR have their
# files/ (the small-file phases have begun); a glob, no process started,
# as the waits of tests/mpi_faults.sh ask every 20 ms
have_files() {
	n=$1
	set -- "$2"/clyde.*/files
	[ -e "$1" ] && [ $# = "$n" ]
}
