# cases.sh: the cases of tests/root/nfs.sh as they run inside the guest of
# guest.sh.  Sourced, not run, by the script that nfs.sh writes for each
# guest, after it has set CLYDE (the binary to test, an absolute path),
# ARGS (the sizes of every run) and T (a run's timeout in seconds).
#
# Each case records under a NAME, in the run directory $NFS_RUN:
#   NAME.out, NAME.err, NAME.rc   the program's output and exit status
#                                 (124: it was still running after T s)
#   NAME.left                     the export's entries after the run, a
#                                 directory with a / at the end
#   NAME.left2                    and after the holder closed (case b)
#   NAME.note                     what the case did and when (uptime)
# and then empties the export, so that the next case starts clean.  A
# program is "1.03" or "2.00" (clyde --compat=1.03 or 2.00) or
# "bonnie++"; every run is as root (-u root) in $NFS_MNT.

BONNIE=/usr/sbin/bonnie++

# prog P: the command line of program P
prog() {
	case $1 in
	bonnie++) echo "$BONNIE -d $NFS_MNT -u root -r 0 -q $ARGS" ;;
	*) echo "$CLYDE -d $NFS_MNT -u root -r 0 -q -m nfs --compat=$1 $ARGS" ;;
	esac
}

note() { echo "$*" >>"$NFS_RUN/$n.note"; }
up() { cut -d' ' -f1 /proc/uptime; }

# start NAME CMD...: CMD in the background, bounded by T s, with SIGINT
# at its default (a shell's background jobs ignore it); $bg is the shell
# that waits for it
start() {
	n=$1
	shift
	(
		timeout -k 5 "$T" env --default-signal=INT "$@" \
		    >"$NFS_RUN/$n.out" 2>"$NFS_RUN/$n.err" </dev/null
		echo $? >"$NFS_RUN/$n.rc"
	) &
	bg=$!
	note "started at $(up)"
}

# the PID of the program started by start (the child of timeout)
prog_pid() { pgrep -P "$(pgrep -P $bg)"; }

# running PID: not ended; a zombie has ended.  The loops of the cases
# use built-ins and the clock: a fork is slow in the guest.
running() {
	[ -n "$1" ] && { read -r _ _ s _ <"/proc/$1/stat"; } 2>/dev/null && [ "$s" != Z ]
}

# now: the guest's uptime in whole seconds, in $t
now() { read -r t _ </proc/uptime; t=${t%.*}; }

# within SECS CMD...: CMD every 0.1 s until it succeeds, SECS s at most
within() {
	now
	end=$((t + $1))
	shift
	until "$@"; do
		now
		[ "$t" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# listing FILE: the export's entries, from the server's side
listing() {
	(cd "$NFS_EXPORT" && find . -mindepth 1 ! -path './lost+found*' \
	    \( -type d -printf '%P/\n' -o -printf '%P\n' \) | sort) >"$1"
}

# done_case NAME [SUFFIX]: record what is left in NAME.SUFFIX (default
# left), empty the export for the next case
done_case() {
	wait $bg
	note "ended at $(up)"
	listing "$NFS_RUN/$1.${2:-left}"
	find "$NFS_EXPORT" -mindepth 1 -maxdepth 1 ! -name lost+found -exec rm -rf {} +
	sync
}

# first_file: the first small file of the run (30 s at most), as a path
# in the export, in $f; the runs of the cases b to e have no I/O phases,
# so it is one of the files of the sequential create
first_file() { within 30 file_or_end && [ -n "$f" ]; }
file_or_end() {
	# not clyde's made-by record of the scratch directory: a small file
	# of the measured ones
	f=$(cd "$NFS_EXPORT" && find . -mindepth 2 -type f ! -name made-by | head -1)
	f=${f#./}
	[ -n "$f" ] || ! running $bg
}

server_stop() { rpc.nfsd 0; }
server_start() { rpc.nfsd -G 10 -L 10 4; }

# a. a whole run: it completes and leaves nothing
case_a() { # case_a NAME PROG
	case $2 in
	bonnie++) start "$1" $(prog "$2") ;;
	*) start "$1" $(prog "$2") --json="$NFS_RUN/$1.json" ;;
	esac
	done_case "$1"
}

# b. another process of the client holds one of the run's files open
# while the run deletes it: the client renames it to .nfsXXXX instead
# (silly rename) until it is closed.  The holder keeps it until the run
# has ended, then closes it.
case_b() { # case_b NAME PROG
	start "$1" $(prog "$2")
	holder=
	if first_file; then
		sh -c 'exec 3<"$1" && exec sleep 600' holder "$NFS_MNT/$f" &
		holder=$!
		note "held open: $f"
	fi
	wait $bg
	listing "$NFS_RUN/$1.left"
	[ -n "$holder" ] && kill $holder && wait $holder
	# the client removes the .nfs file at the last close
	sleep 1
	done_case "$1" left2
}

# c. the export's content is removed on the server in the middle of the
# run, as when an export is deleted and made again: every file handle
# of the run's that the client holds turns stale.  The program is
# stopped (SIGSTOP) meanwhile, so that it cannot create more files in
# the directory being emptied; then it goes on (SIGCONT).
case_c() { # case_c NAME PROG
	start "$1" $(prog "$2")
	if first_file; then
		# the program and its children: clyde's process that measures
		# is the child of the one started, which watches it (--stall)
		pid=$(prog_pid)
		kids=$(pgrep -P "$pid")
		kill -STOP "$pid" $kids
		find "$NFS_EXPORT" -mindepth 1 -maxdepth 1 ! -name lost+found \
		    -exec rm -rf {} +
		kill -CONT "$pid" $kids
		note "export emptied at $(up)"
	fi
	done_case "$1"
}

# d. the server stops in the middle of the run (rpc.nfsd 0) and starts
# again 10 s later
case_d() { # case_d NAME PROG
	start "$1" $(prog "$2")
	if first_file; then
		server_stop
		note "server stopped at $(up)"
		sleep 10
		server_start
		note "server started at $(up)"
	fi
	done_case "$1"
}

# the program said which path is stuck, or it ended
said_or_ended() {
	! running "$pid" ||
	    grep -q "clyde\.[0-9]*\.[A-Za-z0-9]\{6\}.*[0-9]" "$NFS_RUN/$n.err"
}
ended() { ! running "$pid"; }

# e. hard mount, the server stops in the middle of the run: the program
# gets SIGINT twice once it said that it is stuck (or after 30 s), and
# the server starts again when the program has ended (or 15 s after the
# signals); bonnie++ says nothing: it gets them after 5 s, and the
# server starts 5 s later
case_e() { # case_e NAME PROG [MORE-ARGS]
	start "$1" $(prog "$2") $3
	if first_file; then
		server_stop
		note "server stopped at $(up)"
		pid=$(prog_pid)
		max=30 grace=15
		[ "$2" = bonnie++ ] && max=5 grace=5
		within $max said_or_ended
		note "$(grep -c . "$NFS_RUN/$1.err") lines on stderr at $(up)"
		if running "$pid"; then
			kill -INT "$pid"
			sleep 1
			kill -INT "$pid" 2>/dev/null
			note "SIGINT twice at $(up)"
			if within $grace ended; then
				note "it ended at $(up)"
			else
				note "still running $grace s after SIGINT"
			fi
		fi
		server_start
		note "server started at $(up)"
	fi
	done_case "$1"
}
