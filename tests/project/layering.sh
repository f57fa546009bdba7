#!/bin/sh
# Dependencies point one way: no cycle between source files (from the
# symbols each object defines and uses, by nm) and none between headers
# (from their #include lines).  A cycle is printed with the symbols or
# includes that make it, e.g.
#   build/run/runner.o -> build/phases/io.o (phase_io_cleanup)
#   build/phases/io.o -> build/run/runner.o (phase_fail)
# The folders of src/ are stages, and a stage uses only those below it
# (folder_order below; README, "Inside clyde", draws the pipeline): each
# object's uses and each #include go to its own folder, to one that the
# order allows, or to include/; one that does not is printed, e.g.
#   build/phases/ctx.o -> build/run/progress.o (progress_tick): phases may not use run
#   src/phases/ctx.h -> run/progress.h: phases may not use run
# A family of phases (phases/phase.h) is used through its descriptor
# alone: no file outside src/phases/ includes a family's header.
# Needs the objects of a build (make clyde); clyde-mpi's dist/proxy.o and
# dist/mpi.o are checked in place of dist/local.o when they are there.
. "$(dirname "$0")/../lib.sh"

needs_all nm binutils 8

# Who may use whom: a folder of src/, then the folders it may use.
folder_order='
lib:
core: lib
phases: core lib
dist: phases core lib
run: dist phases core lib
in: core lib
report: in core lib
out: report in core lib
cli: lib core phases dist run in report out
'

# against_order: reads "user provider why" lines, whose first folder
# under build/ or src/ (a header's, as its #include names it) is the
# stage; prints each that the order does not allow
against_order() {
	FOLDER_ORDER=$folder_order awk '
		BEGIN {
			n = split(ENVIRON["FOLDER_ORDER"], line, "\n")
			for (i = 1; i <= n; i++) {
				m = split(line[i], w, /[: ]+/)
				for (j = 2; j <= m; j++)
					if (w[j] != "")
						may[w[1], w[j]] = 1
			}
		}
		function folder(path) {
			sub(/^(build|src)\//, "", path)
			sub(/\/.*/, "", path)
			return path
		}
		{
			u = folder($1)
			p = folder($2)
			if (u == p || p == "include" || (u, p) in may)
				next
			printf "  %s -> %s%s: %s may not use %s\n", $1, $2,
			    $3 != "" ? " (" $3 ")" : "", u, p
		}'
}

# include_edges: "includer included" for every #include "..." of the
# sources and headers of src/; an include/ header is named include/X,
# one of src/ by its path there
include_edges() {
	for f in src/*/*.[ch]; do
		sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" |
		    while read -r inc; do
			if [ -f "src/$inc" ]; then
				echo "$f $inc"
			elif [ -f "include/$inc" ]; then
				echo "$f include/$inc"
			elif [ -f "${f%/*}/$inc" ]; then
				d=${f%/*}
				echo "$f ${d#src/}/$inc"
			fi
		    done
	done
}

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
# src/report/stats.h includes no header of clyde's.  Only report/ computes
# with them (the set's means and verdicts): a formatter prints what the set
# computed.
found=$(edges $objs | awk '$1 == "build/report/stats.o" ||
    ($2 == "build/report/stats.o" && $1 !~ /^build\/report\//)')
found="$found$(sed -n 's/^#include "\([^"]*\)".*/ src\/report\/stats.h -> \1/p' \
    src/report/stats.h)"
[ -z "$found" ]
ok $? "src/report/stats.c is a leaf, used by report/ alone" || {
	echo "uses that break it:"
	echo "$found"
} | diag

# The insides of a set are report/'s: the formatters and clyde report's
# command see report/set.h alone.
found=$(grep -l '^#include "report/set_items.h"' include/*.h src/*/*.[ch] \
    tests/*/*.c 2>/dev/null | grep -v '^src/report/')
[ -z "$found" ]
ok $? "src/report/set_items.h is included by report/ alone" || {
	echo "files that include it:"
	echo "$found"
} | diag

found=$(header_edges | cycles)
[ -z "$found" ]
ok $? "no cycle between the headers" || {
	echo "headers that include each other:"
	echo "$found"
} | diag

# clyde's objects and clyde-mpi's at once: the same stages
found=$(edges $(ls build/*/*.o | grep -v '^build/tests/') | against_order)
[ -z "$found" ]
ok $? "each object uses its own stage's or those below it" || {
	echo "uses against the folder order:"
	echo "$found"
} | diag

found=$(include_edges | against_order)
[ -z "$found" ]
ok $? "each source and header includes its own stage's headers, those below it, or include/'s" || {
	echo "includes against the folder order:"
	echo "$found"
} | diag

# A family's header is any of src/phases/ but the stage's own: phase.h
# (the families), ctx.h (the context) and names.h (the scratch
# directory's names, which cleanup reads).
found=$(grep -n '^#include "phases/' src/*/*.[ch] tests/*/*.c |
    grep -v '^src/phases/' |
    grep -v -e '"phases/phase\.h"' -e '"phases/ctx\.h"' -e '"phases/names\.h"')
[ -z "$found" ]
ok $? "no file outside src/phases/ includes a family's header: a family is used through phases/phase.h alone" || {
	echo "includes of a family's header:"
	echo "$found"
} | diag

# The formats sit behind their interfaces: src/cli/ reaches the writers
# of out/ through out/writer.h and the readers of in/ through in/reader.h
# (a new format is a file and a line of a table, cli/ unchanged).  The
# headers of out/ and in/ that src/cli/ may include, each for a reason:
#   out/writer.h       the writers' interface and their table
#   in/reader.h        the readers' interface and their table
#   out/output_file.h  the --json file, made before -u drops privileges:
#                      where the records go, not how they are written
#   out/summary.h      what -x says on stderr after its runs: one text,
#                      whatever the outputs, no format to choose
#   out/too_fast.h     what a run with +++++ says on stderr after it: the
#                      same kind of line
# (four cases, which need no nm: counted here, beside needs_all's count)
tap_count=$((tap_count + 4))
cli_may="out/writer.h in/reader.h out/output_file.h out/summary.h out/too_fast.h"
found=$(grep -H '^#include "\(out\|in\)/' src/cli/*.[ch] |
    while IFS= read -r line; do
	inc=${line#*\"}
	inc=${inc%%\"*}
	case " $cli_may " in
	*" $inc "*) ;;
	*) echo "  $line" ;;
	esac
    done)
[ -z "$found" ]
ok $? "src/cli/ includes no header of a format of out/ or in/ (but $cli_may)" || {
	echo "includes of a format's own header:"
	echo "$found"
} | diag

# table_files DIR KIND [TABLE]: every KIND_NAME of the table in TABLE
# (src/DIR/KINDs.c) is defined by src/DIR/NAME.c, a file of its own;
# every KIND defined anywhere is in the table
table_files() {
	table=${3:-src/$1/$2s.c}
	names=$(sed -n "s/^[[:space:]]*&$2_\([a-z0-9_]*\),.*/\1/p" "$table")
	[ -n "$names" ] || echo "  $table: no table of &$2_NAME lines"
	for n in $names; do
		grep -q "^const struct $2 $2_$n = " "src/$1/$n.c" 2>/dev/null ||
		    echo "  $2_$n: not defined in src/$1/$n.c"
	done
	grep "^const struct $2 $2_[a-z0-9_]* = " src/*/*.c |
	    sed "s/^\([^:]*\):const struct $2 $2_\([a-z0-9_]*\) = .*/\1 \2/" |
	    while read -r file n; do
		[ "$file" = "src/$1/$n.c" ] ||
		    echo "  $2_$n: defined in $file, not in src/$1/$n.c"
		echo "$names" | grep -qx "$n" ||
		    echo "  $2_$n: not in the table of $table"
	    done
}

for t in "out writer" "in reader" "phases phase_family src/phases/phase.c"; do
	set -- $t
	found=$(table_files "$@")
	[ -z "$found" ]
	ok $? "each $2 of ${3:-src/$1/$2s.c} has its own file, src/$1/NAME.c" || {
		echo "the $2 entries without a file of their own, or out of the table:"
		echo "$found"
	} | diag
done

done_testing
