#!/bin/sh
# The build (Makefile, src/README): objects in build/ only, rebuilt when a
# header they include changes and only then (-MMD -MP); clyde --version
# from git describe, changed by a new commit; make dist's tarball builds
# without git and says the same version.  On a copy of this working tree
# (its files as they are now, uncommitted changes too) in a git of its own.
. "$(dirname "$0")/../lib.sh"

needs_all git git 5
# the makes below print their commands: a make -s above (make -s check)
# passes its flags down in MAKEFLAGS and would silence them
unset MAKEFLAGS MFLAGS MAKELEVEL

tree=$WORK/tree
mkdir "$tree"
# the tree's files by git when this is a clone's top; else (the copy that
# make check-sanitize makes under build/, a tarball) all but build/
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
	git ls-files -z --cached --others --exclude-standard |
	    xargs -0 tar cf - 2>/dev/null | tar xf - -C "$tree"
else
	tar cf - --exclude=./build --exclude=./.git . | tar xf - -C "$tree"
fi
cd "$tree" || exit 1
# what the build makes is never part of the copy's commits, .gitignore or
# not (the copy of make check-sanitize has none)
git init -q && printf '%s\n' /build/ /clyde /clyde-mpi '/clyde-*.tar.gz' \
    /.version /fuzz-artifacts/ >.git/info/exclude && git add -A && git -c user.name=t -c user.email=t@t \
    commit -q -m one || exit 1
# -O0: what is checked is what make rebuilds, not the code; it builds fastest
make_s() { make -s -j2 CFLAGS=-O0 "$@" >"$WORK/make.log" 2>&1; }

# 1: objects in build/, none beside the sources
make_s clyde
[ -x clyde ] && [ -f build/run/runner.o ] && [ -f build/run/runner.d ] &&
    [ -z "$(find src include -name '*.o' -o -name '*.d')" ]
ok $? "make: objects and their dependency files in build/, none in src/ or include/" ||
    diag < "$WORK/make.log"

# 2: a header changed rebuilds what includes it, and nothing else
make CFLAGS=-O0 clyde 2>/dev/null | grep -- ' -c -o ' >"$WORK/again"
sleep 1
touch src/report/stats.h
make CFLAGS=-O0 clyde 2>/dev/null | sed -n 's/.* -c -o \([^ ]*\) .*/\1/p' | sort >"$WORK/rebuilt"
grep -q '^build/report/stats\.o$' "$WORK/rebuilt" &&
    grep -q '^build/report/average\.o$' "$WORK/rebuilt" &&
    ! grep -q '^build/report/set\.o$' "$WORK/rebuilt" &&
    ! grep -q '^build/cli/main\.o$' "$WORK/rebuilt" &&
    ! grep -q '^build/phases/io\.o$' "$WORK/rebuilt" && [ ! -s "$WORK/again" ]
ok $? "a changed header (report/stats.h) rebuilds the objects that include it, not the others; nothing when nothing changed" ||
    { echo "rebuilt:"; cat "$WORK/rebuilt"; echo "with nothing changed:"; cat "$WORK/again"; } | diag

# 3: the version follows the commit
v1=$(./clyde --version)
echo "# a change" >>README
git -c user.name=t -c user.email=t@t commit -q -am two
make_s clyde
v2=$(./clyde --version)
h2=$(git rev-parse --short HEAD)
[ "$v1" != "$v2" ] && case $v2 in "clyde "*"-g$h2"*) true ;; *) false ;; esac
ok $? "a new commit changes clyde --version after make ('$v1', then '$v2')"

# 4: a tag names the release
git tag v9.8.7
make_s clyde
[ "$(./clyde --version)" = "clyde 9.8.7" ]
ok $? "on a tag v9.8.7, clyde --version says 'clyde 9.8.7'" || ./clyde --version | diag

# 5: make dist: a tarball that builds without git, with the same version
echo "# not committed" >>README
make -s dist >"$WORK/dist.log" 2>&1
dirty=$?
git checkout -q README
make_s dist
tarball=$(ls clyde-*.tar.gz 2>/dev/null)
mkdir "$WORK/unpacked"
[ "$dirty" != 0 ] && [ "$tarball" = clyde-9.8.7.tar.gz ] &&
    tar xzf "$tarball" -C "$WORK/unpacked" &&
    [ ! -e "$WORK/unpacked/clyde-9.8.7/.git" ] &&
    make -s -j2 CFLAGS=-O0 -C "$WORK/unpacked/clyde-9.8.7" clyde >"$WORK/make.log" 2>&1 &&
    [ "$("$WORK/unpacked/clyde-9.8.7/clyde" --version)" = "clyde 9.8.7" ]
ok $? "make dist refuses changes not committed, then makes clyde-9.8.7.tar.gz, which builds without git as 'clyde 9.8.7'" ||
    { cat "$WORK/dist.log"; cat "$WORK/make.log"; } | diag

done_testing
