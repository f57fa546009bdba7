#!/bin/sh
# make lint as cases of make check: the man page passes mandoc -Tlint,
# and every source builds without a warning (-Werror) on gcc and, for
# dist/mpi.c, on MPI's mpicc.  A test of its own so that it runs beside
# the others (prove -j) rather than before them all; a compiler that is
# not installed is a skip that names it.  clang's pass (make lint-clang)
# is left to make lint, which .ci/run runs: it would add a tenth to the
# suite's CPU time.
. "$(dirname "$0")/../lib.sh"

MAKE=${MAKE:-make}

# lint PART WHAT TOOL PACKAGE: make lint-PART, one case (skipped without
# TOOL, from the Debian package PACKAGE); the compiler's or mandoc's
# complaints are its diagnostics
lint() {
	if needs "$3" "$4"; then
		"$MAKE" -s --no-print-directory "lint-$1" >"$WORK/$1.out" 2>&1
	fi
	ok $? "$2" || diag <"$WORK/$1.out"
}

lint man "the man page passes mandoc -Tlint -W warning" mandoc mandoc
lint gcc "every source compiles without a warning on gcc (-Werror)" gcc gcc
lint mpi "dist/mpi.c compiles without a warning on mpicc (-Werror)" \
    "${MPICC:-mpicc}" libopenmpi-dev

done_testing
