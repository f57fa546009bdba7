# clyde: a filesystem benchmark compatible with bonnie++.
# make, make check, make install/uninstall (PREFIX, DESTDIR, MANDIR), make clean;
# make deps (as root) installs what every test suite uses.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man

CC ?= cc
CFLAGS ?= -O2 -g
# Project flags go after the user's CFLAGS, so a user's -O or -g still counts.
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wformat=2 -Wstrict-prototypes \
	-Wmissing-prototypes -Wold-style-definition -Wvla
# -pthread: core/stop.c's lock, pthread_sigmask(), clyde-mpi's beat thread (the
# copies of -c are processes, not threads)
ALL_CFLAGS = -std=c11 -pthread $(WARN) $(CFLAGS)
ALL_CPPFLAGS = -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 \
	-D_FILE_OFFSET_BITS=64 -Isrc -Iinclude $(CPPFLAGS)

# The sources, by stage (src/README): every .c of src/'s folders but the
# MPI side of dist/ (clyde-mpi below).  Objects go to $(B), mirroring src/,
# each with the header dependencies its compile found (-MMD -MP).
B = build
# clyde-mpi's side of dist/: MPI_SRC builds with cc, dist/mpi.c with mpicc
MPI_SRC = src/dist/proxy.c
SRC = $(filter-out $(MPI_SRC) src/dist/mpi.c,$(sort $(wildcard src/*/*.c)))
# the C library's math part (round, sqrt for --average; erfc, lgamma for
# the statistics of sets)
LDLIBS += -lm
OBJ = $(SRC:src/%.c=$(B)/%.o) $(B)/version.o
# Everything but main(), for the unit tests.
LIB_OBJ = $(filter-out $(B)/cli/main.o,$(OBJ))
DEP = $(wildcard $(B)/*/*.d $(B)/*.d)

# The version: `git describe` of a tagged tree (v0.1.0 -> 0.1.0), else
# VERSION_BASE and the commit (0.1.0-g1a2b3c4), "-dirty" with changes not
# committed; in a tarball of make dist, which has no .git, its .version.
# build/version.c is rewritten only when the version changes.  Only a
# clone's own top counts: a copy inside another clone (check-sanitize's
# build/san) takes its .version, not the outer tree's commits.
VERSION_BASE = 0.1.0
VERSION_CMD = if [ -e .git ] && git rev-parse --git-dir >/dev/null 2>&1; then \
		v=$$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null) && \
		    v=$${v\#v} || \
		v=$(VERSION_BASE)-g$$(git describe --always --dirty); \
	elif [ -f .version ]; then v=$$(cat .version); \
	else v=$(VERSION_BASE); fi; echo "$$v"

# The test programs are built in $(BT), beside the objects, none among the
# sources of tests/.
BT = $(B)/tests
UNIT = $(BT)/unit_util $(BT)/unit_report $(BT)/unit_tables $(BT)/unit_stats \
	$(BT)/unit_json_read $(BT)/unit_config
UNIT_SRC = $(UNIT:$(BT)/%=tests/unit/%.c)
# clyde with its test hooks (src/core/test_hooks.h) read from the
# environment, for the tests that stop or fail a run at a chosen point;
# the clyde that is built and installed has none.
HOOKS = $(BT)/clyde-hooks
TOOLS = $(BT)/csv_table
TOOLS_SRC = $(TOOLS:$(BT)/%=tests/tools/%.c)
# An LD_PRELOAD library that injects I/O errors, for the tests only.
SHIM = $(BT)/fault_shim.so
SHIM_SRC = tests/tools/fault_shim.c
# The libFuzzer targets (make fuzz; tests/fuzz/fuzz.sh builds them with
# clang), compiled by make lint too.
FUZZ_SRC = $(wildcard tests/fuzz/*.c)
# One that lets User-mode Linux 6.1 boot on CPUs with AMX (make check-nfs).
NFS_SHIM = $(BT)/xstate_shim.so
NFS_SHIM_SRC = tests/root/nfs/xstate_shim.c

SAN_DIR = $(B)/san
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

all: clyde

clyde: $(OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJ) $(LDLIBS)

$(B)/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# FORCE: the version is asked on every make; the file changes only with it.
# The temporary file is this shell's own: two makes at once (CI runs
# lanes side by side) each wrote and renamed one shared name, and one
# failed with "mv: cannot stat".
$(B)/version.c: FORCE
	@mkdir -p $(@D)
	@v=$$($(VERSION_CMD)); t=$@.$$$$.tmp; \
	printf '%s\n' '/* made by make from the version (Makefile: VERSION_CMD) */' \
	    '#include "config.h"' "const char clyde_version[] = \"$$v\";" \
	    >$$t; \
	if cmp -s $$t $@; then rm -f $$t; else mv $$t $@; fi

$(B)/version.o: $(B)/version.c
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(UNIT): $(BT)/%: tests/unit/%.c tests/unit/tap.h $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -MMD -MP \
	    -o $@ $< $(LIB_OBJ) $(LDLIBS)

$(TOOLS): $(BT)/%: tests/tools/%.c $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -MMD -MP \
	    -o $@ $< $(LIB_OBJ) $(LDLIBS)

HOOKS_OBJ = $(filter-out $(B)/core/test_hooks.o,$(OBJ)) $(B)/test_hooks_on.o

$(B)/test_hooks_on.o: src/core/test_hooks.c
	@mkdir -p $(@D)
	$(CC) -DCLYDE_TEST_HOOKS $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ src/core/test_hooks.c

$(HOOKS): $(HOOKS_OBJ)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(HOOKS_OBJ) $(LDLIBS)

# the shims, position-independent, with the C library's dlsym()
$(SHIM): $(SHIM_SRC)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -shared -fPIC $(LDFLAGS) -o $@ $< -ldl
$(NFS_SHIM): $(NFS_SHIM_SRC)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -shared -fPIC $(LDFLAGS) -o $@ $< -ldl

# The longest first (as measured idle: make check PROVE_FLAGS=--timer),
# so that the last to start are short
TESTS = tests/e2e/classic_profile.sh tests/mpi/rank_faults.sh
TESTS += tests/faults/odd_environment.sh tests/mpi/ranks.sh
TESTS += tests/faults/hangs_and_stopped_processes.sh
TESTS += tests/faults/signals_and_io_errors.sh tests/e2e/sync.sh
TESTS += tests/faults/netfs.sh tests/project/build.sh
TESTS += tests/faults/hangs_at_start_and_debugger_stops.sh
TESTS += tests/project/lint.sh tests/e2e/sizes.sh
TESTS += tests/report/labels_and_context.sh tests/project/docs.sh
TESTS += tests/e2e/chunks.sh
TESTS += tests/report/command_line.sh tests/report/sweeps.sh
TESTS += tests/e2e/progress_line_and_record_context.sh
TESTS += tests/report/html_in_browser.sh
TESTS += tests/e2e/bad_options.sh tests/e2e/interop.sh
TESTS += tests/e2e/table_and_csv_writers.sh tests/project/layering.sh
TESTS += tests/e2e/option_values.sh tests/faults/target.sh
TESTS += tests/e2e/directory_phases.sh tests/report/web_pages.sh
TESTS += tests/report/markdown_rendered.sh tests/report/table_posts.sh
TESTS += tests/report/pasted_posts.sh tests/e2e/too_fast_hint.sh
TESTS += tests/report/sets_of_runs.sh tests/e2e/links_one_directory.sh $(UNIT)

# The whole suite through prove, four scripts at a time as several of
# them mostly wait (each works in a directory of its own;
# e2e/classic_profile.sh alone uses the system-wide -p/-y semaphore):
# the man page and a warning-free build on gcc (tests/project/lint.sh:
# part of make lint, as a test, so that it overlaps the others), unit
# tests (TAP), golden files, end to end.  clang's warnings (make lint) and the fuzzer
# (make fuzz) cost a fifth of the suite's CPU time on 2 cores: they are
# targets of their own, which .ci/run runs.  Unless
# TMPDIR is set, the scripts work in /dev/shm when it has 4 GiB free: on a
# disk, making and removing their thousands of files can take most of the
# time.  The sanitizer pass (on TMPDIR or /tmp) is a target of its own
# too.  Each test runs through tests/tools/tap_run.sh, which repeats a
# failed case with its diagnostics on stderr, so that a log names what
# failed without prove -v (PROVE_FLAGS=-v shows every case).  clyde-mpi
# is built first: tests/mpi/ranks.sh and rank_faults.sh run side by side.
check: clyde $(UNIT) $(TOOLS) $(HOOKS) $(SHIM)
	tmp=$${TMPDIR:-}; \
	if [ -z "$$tmp" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && \
	    [ "$$(df -Pk /dev/shm | awk 'NR == 2 { print $$4 }')" -ge 4194304 ]; then \
		tmp=/dev/shm; \
	fi; \
	if command -v $(MPICC) >/dev/null; then \
		$(MAKE) -s mpi $(MPI_HOOKS) >/dev/null || :; \
	fi; \
	TMPDIR=$${tmp:-/tmp} \
	    prove -j4 $(PROVE_FLAGS) --exec tests/tools/tap_run.sh $(TESTS)

# The man page, and a warning-free build on gcc and on clang (when there);
# dist/mpi.c needs MPI's headers: through mpicc, when there.  Each part is
# a target of its own, a case of tests/project/lint.sh.
LINT_CC = gcc clang
lint: lint-man $(LINT_CC:%=lint-%) lint-mpi

lint-man:
	mandoc -Tlint -W warning man/clyde.1

$(LINT_CC:%=lint-%): $(B)/version.c
	@cc=$(@:lint-%=%); \
	if ! command -v $$cc >/dev/null; then echo "$$cc: not installed"; exit 0; fi; \
	printf '%s\n' $(SRC) $(MPI_SRC) $(UNIT_SRC) $(TOOLS_SRC) $(SHIM_SRC) \
	    $(NFS_SHIM_SRC) $(FUZZ_SRC) $(B)/version.c | \
	    xargs -P 2 -n 1 $$cc $(ALL_CPPFLAGS) -std=c11 -pthread $(WARN) \
	    -Werror -O2 -c -o /dev/null || exit 1; \
	$$cc $(ALL_CPPFLAGS) -DCLYDE_TEST_HOOKS -std=c11 $(WARN) -Werror \
	    -O2 -c -o /dev/null src/core/test_hooks.c

lint-mpi:
	@if ! command -v $(MPICC) >/dev/null; then echo "$(MPICC): not installed"; exit 0; fi; \
	$(MPICC) $(ALL_CPPFLAGS) -std=c11 $(WARN) -Werror -O2 \
	    -c -o /dev/null src/dist/mpi.c

# gcc's static analyser (-fanalyzer) over every source, warnings as
# errors.  Its leak checker is left to LeakSanitizer (make check-sanitize):
# it cannot see that a process's exit or exec frees what it held.
ANALYZE_FLAGS = -fanalyzer -Wno-analyzer-malloc-leak -Wno-analyzer-fd-leak
analyze: $(B)/version.c
	@if ! gcc -fanalyzer -x c -c -o /dev/null /dev/null 2>/dev/null; then \
		echo "gcc -fanalyzer: not available"; exit 0; fi; \
	printf '%s\n' $(SRC) $(MPI_SRC) | \
	    xargs -P 2 -n 1 gcc $(ALL_CPPFLAGS) -std=c11 -pthread $(WARN) \
	    $(ANALYZE_FLAGS) -Werror -O2 -c -o /dev/null

# The same tests on a build with AddressSanitizer and UBSan.
sanitize: check-sanitize
check-sanitize:
	rm -rf $(SAN_DIR) && mkdir -p $(SAN_DIR)
	cp -r src include tests man Makefile README .ci $(SAN_DIR)/
	if [ -f .version ]; then cp .version $(SAN_DIR)/; \
	else $(VERSION_CMD) >$(SAN_DIR)/.version; fi
	$(MAKE) -C $(SAN_DIR) clean
	$(MAKE) -C $(SAN_DIR) CFLAGS="$(SAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" clyde $(UNIT) $(TOOLS) $(HOOKS)
	cd $(SAN_DIR) && CLYDE_SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		prove -j2 --exec tests/tools/tap_run.sh $(TESTS)

# clyde-mpi: the same program with its ranks spread by MPI (Open MPI's
# mpicc); only the dist/dist.h part differs: dist/proxy.c in the measuring
# process, dist/mpi.c (the only file that uses MPI) in its parent.  The
# default build never needs MPI.
MPICC ?= mpicc
MPI_OBJ = $(filter-out $(B)/dist/local.o,$(OBJ)) $(MPI_SRC:src/%.c=$(B)/%.o) $(B)/dist/mpi.o

MPI_HOOKS_OBJ = $(filter-out $(B)/core/test_hooks.o,$(MPI_OBJ)) $(B)/test_hooks_on.o

mpi: clyde-mpi

clyde-mpi: $(MPI_OBJ)
	$(MPICC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(MPI_OBJ) $(LDLIBS)

# clyde-mpi with the test hooks, for tests/mpi/rank_faults.sh
MPI_HOOKS = $(BT)/clyde-mpi-hooks
$(MPI_HOOKS): $(MPI_HOOKS_OBJ)
	@mkdir -p $(@D)
	$(MPICC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(MPI_HOOKS_OBJ) $(LDLIBS)

$(B)/dist/mpi.o: src/dist/mpi.c
	@mkdir -p $(@D)
	$(MPICC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ src/dist/mpi.c

# libFuzzer on each target of tests/fuzz (clyde report's reader, the JSON
# parser, the option parser), FUZZ_SECONDS each, seeded with the corpus
# (clang and its fuzzer runtime needed); FUZZ_SECONDS=600 make fuzz
fuzz: clyde
	FUZZ_SECONDS=$${FUZZ_SECONDS:-60} tests/fuzz/fuzz.sh

.PHONY: fuzz

install: clyde
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	cp clyde $(DESTDIR)$(BINDIR)/clyde
	chmod 755 $(DESTDIR)$(BINDIR)/clyde
	v=$$($(VERSION_CMD)); sed "s/^\.Os clyde .*/.Os clyde $$v/" man/clyde.1 \
	    >$(DESTDIR)$(MANDIR)/man1/clyde.1
	chmod 644 $(DESTDIR)$(MANDIR)/man1/clyde.1

# A tarball of the committed tree, clyde-VERSION.tar.gz, with the version
# in .version for a build that has no git
dist:
	@v=$$($(VERSION_CMD)); case $$v in *-dirty) \
		echo "make dist: changes not committed (git status)" >&2; exit 1;; esac; \
	rm -rf $(B)/dist && mkdir -p $(B)/dist && \
	git archive --prefix=clyde-$$v/ HEAD | tar xf - -C $(B)/dist && \
	echo "$$v" >$(B)/dist/clyde-$$v/.version && \
	tar czf clyde-$$v.tar.gz -C $(B)/dist clyde-$$v && \
	rm -rf $(B)/dist && echo clyde-$$v.tar.gz

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/clyde $(DESTDIR)$(MANDIR)/man1/clyde.1

clean:
	rm -f clyde clyde-mpi
	rm -rf $(B)

# What every suite uses, from Debian's packages, as root
# (tests/tools/deps.sh; tests/tools/deps.sh -n lists the packages and
# what each adds).  make check
# itself needs only the build tools: it skips what it cannot run.
deps:
	tests/tools/deps.sh

# clyde on real filesystems, as root: a size-limited tmpfs, ext4, xfs and
# btrfs on loop devices, GlusterFS and sshfs over 127.0.0.1
# (tests/root/mounts.sh; the scripts in tests/root/mounts bring each one
# up and down), then the README's recipe on two tmpfs
# (tests/root/readme_recipe.sh).
check-mounts: clyde
	prove -v tests/root/mounts.sh tests/root/readme_recipe.sh

# clyde on real Linux NFS (v3 and v4.2, hard and soft mounts), as root:
# the kernel's nfsd and NFS client in a User-mode Linux or QEMU guest, on
# its own loopback (tests/root/nfs.sh; tests/root/nfs boots the guest and
# says how it is chosen).
check-nfs: clyde $(NFS_SHIM)
	prove -v tests/root/nfs.sh

# clyde and clyde-mpi on a cluster of hosts built from namespaces on this
# machine, as root: GlusterFS (replica 3 and distributed), MooseFS, sshd
# for mpirun, and faults (tests/root/cluster.sh; tests/root/cluster builds
# the hosts).  Without MPI's mpicc there is no clyde-mpi: the test skips.
check-cluster: clyde
	if command -v $(MPICC) >/dev/null; then $(MAKE) clyde-mpi; fi
	prove -v tests/root/cluster.sh

# clyde on cluster filesystems shared by two nodes, as root: GFS2 with
# lock_dlm and OCFS2 with o2cb in two User-mode Linux guests on one disk
# image and a network namespace of their own, a node powered off mid-run
# (tests/root/clusterfs.sh; tests/root/clusterfs boots the guests).
check-clusterfs: clyde $(NFS_SHIM)
	prove -v tests/root/clusterfs.sh

FORCE:

-include $(DEP)

.PHONY: FORCE analyze dist all deps check check-sanitize check-mounts check-nfs check-cluster check-clusterfs lint lint-man \
	$(LINT_CC:%=lint-%) lint-mpi sanitize mpi install uninstall clean
