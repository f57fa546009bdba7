# guest_lib.sh, sourced by the guest drivers of the root suites
# (tests/root/nfs/guest.sh, tests/root/clusterfs/guests.sh): what every
# guest needs, how a failed one is told, and the probe that picks the first
# guest that runs here.  The driver sets UML and SHIM and defines
# why_not GUEST, what GUEST and failure DIR STATUS.

clock() { date +%s.%N; }

# uml_not GUEST: why User-mode Linux (uml, or uml-xstate with the shim
# preloaded) cannot run here, or nothing
uml_not() {
	[ -x "$UML" ] || { echo "no $UML (user-mode-linux)"; return; }
	[ "$1" = uml ] || [ -f "$SHIM" ] ||
	    { echo "no $SHIM (make build/tests/xstate_shim.so)"; return; }
	rel=$(ls /usr/lib/uml/modules 2>/dev/null | head -1)
	[ -n "$rel" ] && [ -f "/usr/lib/uml/modules/$rel/modules.dep" ] ||
	    echo "no /usr/lib/uml/modules (user-mode-linux)"
}

# panic_of CONSOLE...: what a guest's kernel said last before its panic,
# else the panic, or nothing when it did not panic
panic_of() {
	cat "$@" 2>/dev/null | awk '/Kernel panic/ {
	    print (last == "" ? $0 : last); exit } { last = $0 }' |
	    sed 's/^\[ *[0-9.]*\] *//; s/^userspace - //; s/^Kernel panic - not syncing: //'
}

# probe_guests VAR DIR DONE ARG...: boots the guests that VAR names (all
# of $GUESTS when it is empty or unset) in turn, each as "$0" run -g GUEST
# -w DIR/GUEST ARG...; prints "GUEST WHAT (WHY)" for the first that ends
# with status 0, WHY being what was tried before it and "DONE in S s",
# and returns 0; else prints what was tried and how each failed, and
# returns 1
probe_guests() {
	var=$1 dir=$2 done=$3
	shift 3
	eval "list=\${$var:-}"
	forced=
	[ -z "$list" ] || forced="$var=$list; "
	tried=
	for g in ${list:-$GUESTS}; do
		r=$(why_not "$g")
		if [ -z "$r" ]; then
			mkdir "$dir/$g"
			t0=$(clock)
			"$0" run -g "$g" -w "$dir/$g" "$@" >/dev/null 2>&1
			rc=$?
			if [ $rc = 0 ]; then
				took=$(awk -v a="$t0" -v b="$(clock)" 'BEGIN { printf "%.1f", b - a }')
				echo "$g $(what "$g") (${forced}${tried:+$tried; }$done in $took s)"
				return 0
			fi
			r=$(failure "$dir/$g" $rc)
		else
			r="cannot run: $r"
		fi
		tried="${tried:+$tried; }$(what "$g") $r"
	done
	echo "$tried"
	return 1
}
