# guest_lib.sh, sourced by the guest drivers of the root suites
# (tests/root/nfs/guest.sh, tests/root/clusterfs/guests.sh): what each
# kind of guest needs, how a failed one is told, and the probe that picks
# the first guest that runs here.  The driver sets UML, SHIM, QEMU and
# CACHE (tests/root/nfs/qemu-kernel.sh's) and defines why_not GUEST, what
# GUEST and failure DIR STATUS.

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

# kvm_not: why KVM cannot run an ordinary guest here, or nothing
kvm_not() {
	[ -c /dev/kvm ] || { echo "no /dev/kvm"; return; }
	[ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ] ||
	    { echo "/dev/kvm is not kvm_intel or kvm_amd ($(cd /sys/module &&
		ls -d kvm* 2>/dev/null | tr '\n' ' ')loaded)"; return; }
	grep -qwE 'vmx|svm' /proc/cpuinfo || echo "the CPU shows no vmx or svm"
}

# qemu_not GUEST [MOD...]: why QEMU (qemu-kvm, qemu-tcg) cannot boot the
# cached kernel here with the modules MOD in its initramfs, or nothing
qemu_not() {
	if [ "$1" = qemu-kvm ]; then
		r=$(kvm_not)
		[ -z "$r" ] || { echo "$r"; return; }
	fi
	shift
	command -v $QEMU >/dev/null || { echo "no $QEMU (qemu-system-x86)"; return; }
	[ -x /bin/busybox ] || { echo "no /bin/busybox (busybox-static)"; return; }
	rel=$(cat "$CACHE/current" 2>/dev/null)
	[ -n "$rel" ] && [ -f "$CACHE/$rel/vmlinux" ] &&
	    [ -f "$CACHE/$rel/modules.cpio.gz" ] ||
	    { echo "no kernel in $CACHE (tests/root/nfs/qemu-kernel.sh)"; return; }
	for m in "$@"; do
		grep -qw "$m" "$CACHE/$rel/mods" 2>/dev/null ||
		    { echo "no $m in $CACHE/$rel (tests/root/nfs/qemu-kernel.sh again)"; return; }
	done
}

# qemu_initrd DIR: DIR/initrd.gz, the cached modules and
# tests/root/nfs/initramfs-init.sh as /init (the kernel unpacks one
# archive after the other)
qemu_initrd() {
	rel=$(cat "$CACHE/current")
	mkdir "$1/rd" && cp "$(dirname "$HERE")/nfs/initramfs-init.sh" "$1/rd/init" &&
	    chmod 755 "$1/rd/init" &&
	    { cat "$CACHE/$rel/modules.cpio.gz" && (cd "$1/rd" && echo init |
	    /bin/busybox cpio -o -H newc 2>/dev/null | gzip -1); } >"$1/initrd.gz"
}

# qemu_accel kvm|tcg: QEMU's options for the accelerator and its CPU
qemu_accel() {
	case $1 in
	kvm) echo "-accel kvm -cpu host" ;;
	*) echo "-accel tcg,tb-size=256 -cpu max" ;;
	esac
}

# qemu_boot KIND DIR RUNDIR KCMD [ARG...]: in the background, bounded by
# $TMO s, QEMU (KIND kvm or tcg; $MEM of RAM, one CPU) boots the cached
# kernel with DIR/initrd.gz (qemu_initrd), quiet, with KCMD after the
# console's words on its command line; the host's / as 9p tag hostroot
# (read-only) and RUNDIR as rundir; its console in DIR/console.log, its
# own messages in DIR/qemu.log; ARG: its devices.  Off, not reset, at the
# guest's end or panic
qemu_boot() {
	kind=$1 out=$2 run=$3 kcmd=$4
	shift 4
	# what costs time under TCG and matters not here
	kcmd="console=ttyS0 panic=-1 quiet loglevel=3 cryptomgr.notests mitigations=off $kcmd"
	fs9p=security_model=none,multidevs=remap
	timeout -k 10 "$TMO" $QEMU $(qemu_accel "$kind") -machine pc -smp 1 -m "$MEM" \
	    -nodefaults -no-user-config -display none -monitor none -no-reboot \
	    -serial "file:$out/console.log" \
	    -kernel "$CACHE/$(cat "$CACHE/current")/vmlinux" -initrd "$out/initrd.gz" \
	    -append "$kcmd" \
	    -virtfs "local,path=/,mount_tag=hostroot,readonly=on,$fs9p" \
	    -virtfs "local,path=$run,mount_tag=rundir,$fs9p" \
	    "$@" </dev/null >"$out/qemu.log" 2>&1 &
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
