#!/bin/sh
# Dependencies point one way: no cycle between source files (from the
# symbols each object defines and uses, by nm) and none between headers
# (from their #include lines).  A cycle is printed with the symbols or
# includes that make it, e.g.
#   build/run/runner.o -> build/phases/io.o (phase_io_cleanup)
#   build/phases/io.o -> build/run/runner.o (phase_fail)
# Needs the objects of a build (make clyde); clyde-mpi's dist/proxy.o and
# dist/mpi.o are checked in place of dist/local.o when they are there.
. "$(dirname "$0")/../lib.sh"

needs_all nm binutils 4

# edges FILE...: "user provider symbol" for every symbol that one object
# uses and another defines (one nm per kind: nm costs more to start than
# to read an object)
edges() {
	{
		nm -A -g --defined-only "$@" |
		    awk '{ f = $1; sub(/:.*/, "", f); print "D", f, $NF }'
		nm -A -u "$@" |
		    awk '{ f = $1; sub(/:.*/, "", f); print "U", f, $NF }'
	} | awk '
		$1 == "D" { def[$3] = $2; next }
		{ use[++n] = $2 " " $3 }
		END {
			for (i = 1; i <= n; i++) {
				split(use[i], u, " ")
				if ((u[2] in def) && def[u[2]] != u[1])
					print u[1], def[u[2]], u[2]
			}
		}'
}

# header_edges: "includer included header-name" for the headers of
# include/ and src/ (an include names its header from either)
header_edges() {
	for h in include/*.h src/*/*.h; do
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$h" |
		    while read -r inc; do
			if [ -f "src/$inc" ]; then
				echo "$h src/$inc $inc"
			else
				echo "$h include/$inc $inc"
			fi
		    done
	done
}

# cycles: reads "from to why" lines; prints every edge that lies on a
# cycle (both ends reach each other), grouped by strongly connected set
cycles() {
	awk '
		{
			if (!(($1, $2) in why)) {
				out[$1] = out[$1] " " $2
				why[$1, $2] = $3
			} else if (length(why[$1, $2]) < 60) {
				why[$1, $2] = why[$1, $2] ", " $3
			}
			node[$1] = node[$2] = 1
		}
		END {
			for (s in node) {
				delete seen
				top = 0
				stack[++top] = s
				while (top > 0) {
					v = stack[top--]
					m = split(out[v], next_, " ")
					for (i = 1; i <= m; i++)
						if (!(next_[i] in seen)) {
							seen[next_[i]] = 1
							reach[s, next_[i]] = 1
							stack[++top] = next_[i]
						}
				}
			}
			for (k in why) {
				split(k, e, SUBSEP)
				if ((e[1], e[2]) in reach && (e[2], e[1]) in reach)
					printf "  %s -> %s (%s)\n", e[1], e[2], why[k]
			}
		}' | sort
}

objs=$(ls build/*/*.o 2>/dev/null | grep -v -e 'build/dist/mpi\.o$' -e 'build/dist/proxy\.o$')
if [ -z "$objs" ]; then
	skip "no objects: run make clyde first" all
fi

found=$(edges $objs | cycles)
[ -z "$found" ]
ok $? "no cycle between the source files of clyde" || {
	echo "source files that depend on each other:"
	echo "$found"
} | diag

if [ -f build/dist/mpi.o ] && [ -f build/dist/proxy.o ]; then
	found=$(edges $(echo "$objs" | grep -v 'build/dist/local\.o$') \
	    build/dist/proxy.o build/dist/mpi.o | cycles)
	[ -z "$found" ]
	ok $? "no cycle between the source files of clyde-mpi" || {
		echo "source files that depend on each other:"
		echo "$found"
	} | diag
else
	skip "no objects of clyde-mpi (make mpi, with mpicc: Debian package libopenmpi-dev)" 1
fi

# The statistics are a leaf: src/report/stats.c uses nothing of clyde's, and
# src/report/stats.h includes no header of clyde's.  Only report/set.c
# computes with them: a formatter prints what the set computed.
found=$(edges $objs | awk '$1 == "build/report/stats.o" ||
    ($2 == "build/report/stats.o" && $1 != "build/report/set.o")')
found="$found$(sed -n 's/^#include "\([^"]*\)".*/ src\/report\/stats.h -> \1/p' \
    src/report/stats.h)"
[ -z "$found" ]
ok $? "src/report/stats.c is a leaf, used by report/set.c alone" || {
	echo "uses that break it:"
	echo "$found"
} | diag

found=$(header_edges | cycles)
[ -z "$found" ]
ok $? "no cycle between the headers" || {
	echo "headers that include each other:"
	echo "$found"
} | diag

done_testing
