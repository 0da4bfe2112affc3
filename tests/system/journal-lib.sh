# tests/system/journal-lib.sh - what the journal-*.t tests compare. Source
# after tap.sh, with CVMBENCH_STATE_DIR set.

# mounts: mount point, type and super options of the cgroup, cgroup2 and
# tracefs mounts, sorted (mount ids left out: a remount keeps them anyway).
mounts() {
	awk '{ for (i = 1; $i != "-"; i++); print $5, $(i + 1), $(i + 3) }' /proc/self/mountinfo |
		grep -E ' (cgroup|cgroup2|tracefs) ' | sort
}

# state_left: what is in the state directory besides the journal and oci/.
state_left() {
	find "$CVMBENCH_STATE_DIR" -mindepth 1 ! -name journal ! -path "$CVMBENCH_STATE_DIR/oci"
}

# gone PID: ended, or a zombie nobody has reaped yet
gone() {
	[ ! -d "/proc/$1" ] || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}
