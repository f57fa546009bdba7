# ssh.sh, sourced by the root suites whose mpirun starts ranks over ssh
# (tests/root/cluster/hosts.sh, tests/root/clusterfs.sh): keys made for one
# run and the configs of a client and a server that use only them.
# StrictModes is off, as the keys lie under a directory of the run's.

# ssh_keys DIR COMMENT SECS: in DIR (made, mode 700), a client key id, a
# host key host_key, authorized_keys, and ssh_config: root, that key alone,
# no host key checks, SECS to connect
ssh_keys() {
	mkdir -p "$1" && chmod 700 "$1" &&
	    ssh-keygen -q -t ed25519 -N '' -C "$2" -f "$1/id" &&
	    ssh-keygen -q -t ed25519 -N '' -C "$2" -f "$1/host_key" &&
	    cp "$1/id.pub" "$1/authorized_keys" || return 1
	cat >"$1/ssh_config" <<-EOC
	Host *
	  User root
	  IdentityFile $1/id
	  IdentitiesOnly yes
	  StrictHostKeyChecking no
	  UserKnownHostsFile /dev/null
	  BatchMode yes
	  LogLevel ERROR
	  ConnectTimeout $3
	EOC
}

# sshd_config DIR ADDR: on stdout, an sshd's config that listens on ADDR
# alone and lets in DIR's key (ssh_keys) as root, nothing else
sshd_config() {
	cat <<-EOC
	ListenAddress $2
	HostKey $1/host_key
	PidFile /run/sshd.pid
	UsePAM no
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	AuthorizedKeysFile $1/authorized_keys
	StrictModes no
	PrintMotd no
	EOC
}
