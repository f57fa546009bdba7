# in_dir_lib.sh: what clock_cost.sh and at_cost.sh share.  Sourced, not run,
# after the script has set NAME; makes $work (removed at exit).
#
#   run_in_dir PROG [DIR]   runs PROG with a new directory of DIR, or of
#                           a fresh tmpfs (which needs root; one for all
#                           the calls) when no DIR is given; the tmpfs
#                           goes at exit
work=$(mktemp -d "/tmp/clyde-$NAME.XXXXXX")
mounted=""
trap '[ -n "$mounted" ] && umount "$work/mnt"; rm -rf "$work"' EXIT

run_in_dir() {  # prog [dir]
	if [ $# -gt 1 ]; then
		dir=$2
	else
		if [ -z "$mounted" ]; then
			mkdir "$work/mnt"
			mount -t tmpfs -o size=1g tmpfs "$work/mnt"
			mounted=1
		fi
		dir=$work/mnt
	fi
	mkdir "$dir/run.$$"
	"$1" "$dir/run.$$"
	rmdir "$dir/run.$$"
}
