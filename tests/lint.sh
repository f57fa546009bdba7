#!/bin/sh
# make lint as cases of make check: the man page passes mandoc -Tlint,
# and every source builds without a warning (-Werror) on gcc and, for
# dist_mpi.c, on MPI's mpicc.  A test of its own so that it runs beside
# the others (prove -j) rather than before them all; a compiler that is
# not installed is a skip that names it.  clang's pass (make lint-clang)
# is left to make lint, which .ci/run runs: it would add a tenth to the
# suite's CPU time.
. "$(dirname "$0")/lib.sh"

MAKE=${MAKE:-make}

# lint PART WHAT TOOL: make lint-PART, one case; the compiler's or
# mandoc's complaints are its diagnostics
lint() {
	if [ -n "$3" ] && ! command -v "$3" >/dev/null 2>&1; then
		skip_all "$3 is not installed" 1
		return
	fi
	"$MAKE" -s --no-print-directory "lint-$1" >"$WORK/$1.out" 2>&1
	ok $? "$2" || diag <"$WORK/$1.out"
}

lint man "the man page passes mandoc -Tlint -W warning" mandoc
lint gcc "every source compiles without a warning on gcc (-Werror)" gcc
lint mpi "dist_mpi.c compiles without a warning on mpicc (-Werror)" \
    "${MPICC:-mpicc}"

done_testing
