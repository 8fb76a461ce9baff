# Network faults for scripts/faults.sh, on this machine only: the harness runs in a network namespace
# of its own (unshare -n), so every rule below filters the namespace's own loopback and nothing else.
# This kernel has no netem qdisc, so faults are built from packet filters (iptables):
#
#   partition   one process cut off: every packet of its sockets (listening, established, and any it
#               opens while cut off) is dropped. New sockets are caught by moving the process into a
#               cgroup of its own (iptables' cgroup match), existing ones by their local ports (ss).
#   cut         as partition, but only its packets to or from some peer ports: a server cut from the
#               Ignite nodes while its clients still reach it.
#   loss        a share of the packets on some ports dropped at random: TCP retransmits them after
#               at least 200 ms, so a lossy link is also a slow one. (20 % for 10 s made every
#               node of a 3-node Ignite 3.1 cluster drop the others as failed, each then refusing
#               the others as stale until restarted.)
#
# Every rule lives in one chain, KUMIKO_FAULTS, jumped to from INPUT and OUTPUT; healing flushes it.

NET_CHAIN=KUMIKO_FAULTS
NET_CGROUP_ROOT=/sys/fs/cgroup/unified
NET_CGROUP="" # this run's cgroup directory, under NET_CGROUP_ROOT
NET_LOSS_PERCENT=${NET_LOSS_PERCENT:-5}
[[ $NET_LOSS_PERCENT =~ ^[1-9][0-9]?$ ]] || { echo "faults: NET_LOSS_PERCENT must be 1-99" >&2; exit 2; }
MULTIPORT_MAX=15 # iptables' multiport match takes at most 15 ports

# True when the filters this file needs work here: root, iptables with the statistic and cgroup
# matches, and a cgroup v2 hierarchy to place processes in.
net_faults_possible() {
  [[ $(id -u) == 0 ]] && command -v iptables >/dev/null && command -v ss >/dev/null &&
    [[ -w $NET_CGROUP_ROOT/cgroup.procs ]]
}

# Inside the namespace, once: loopback up, the chain hooked in, this run's cgroup made.
net_setup() {
  ip link set lo up
  iptables -N "$NET_CHAIN"
  iptables -I INPUT -j "$NET_CHAIN"
  iptables -I OUTPUT -j "$NET_CHAIN"
  NET_CGROUP="$NET_CGROUP_ROOT/kumiko-faults-$$"
  mkdir -p "$NET_CGROUP"
}

# Every fault healed: rules flushed, processes back in the root cgroup.
net_heal() {
  iptables -F "$NET_CHAIN" 2>/dev/null
  local group pid
  for group in "$NET_CGROUP"/*/; do
    [[ -d $group ]] || continue
    for pid in $(cat "$group/cgroup.procs" 2>/dev/null); do
      echo "$pid" >"$NET_CGROUP_ROOT/cgroup.procs" 2>/dev/null
    done
  done
}

net_teardown() {
  [[ -n $NET_CGROUP ]] || return 0
  net_heal
  local group
  for group in "$NET_CGROUP"/*/; do [[ -d $group ]] && rmdir "$group" 2>/dev/null; done
  rmdir "$NET_CGROUP" 2>/dev/null
}

# PID: the local ports of every TCP socket the process holds (listening and connected).
net_local_ports() {
  ss -Htanp 2>/dev/null | awk -v pid="pid=$1," '
    index($0, pid) { n = split($4, a, ":"); print a[n] }' | sort -un
}

# RULE-PREFIX... -- PORTS...: one rule per 15 ports (multiport's limit), each ending in DROP.
net_drop_ports() {
  local prefix=() ports=() chunk
  while [[ $1 != -- ]]; do prefix+=("$1"); shift; done
  shift
  ports=("$@")
  while ((${#ports[@]})); do
    chunk=$(IFS=,; echo "${ports[*]:0:MULTIPORT_MAX}")
    iptables -A "$NET_CHAIN" "${prefix[@]}" -p tcp -m multiport --ports "$chunk" -j DROP
    ports=("${ports[@]:MULTIPORT_MAX}")
  done
}

# PID NAME: moves the process into its own cgroup, so that sockets it opens from now on are caught.
net_tag() {
  mkdir -p "$NET_CGROUP/$2"
  echo "$1" >"$NET_CGROUP/$2/cgroup.procs"
}

# PID NAME: cuts the process off from everything.
net_partition() {
  local pid=$1 name=$2 ports
  net_tag "$pid" "$name"
  iptables -A "$NET_CHAIN" -m cgroup --path "kumiko-faults-$$/$name" -j DROP
  mapfile -t ports < <(net_local_ports "$pid")
  ((${#ports[@]})) && net_drop_ports -- "${ports[@]}"
}

# PID NAME PEER-PORTS (comma-separated): cuts the process off from the peers listening on those
# ports, and from nothing else.
net_cut() {
  local pid=$1 name=$2 peers=$3 ports=() local_port peer
  net_tag "$pid" "$name"
  iptables -A "$NET_CHAIN" -m cgroup --path "kumiko-faults-$$/$name" -p tcp -m multiport --dports "$peers" -j DROP
  # The process's connections to those peers, by their local (ephemeral) ports.
  while read -r local_port peer; do
    [[ ,$peers, == *",$peer,"* ]] && ports+=("$local_port")
  done < <(ss -Htanp 2>/dev/null | awk -v pid="pid=$pid," '
    index($0, pid) { n = split($4, a, ":"); m = split($5, b, ":"); print a[n], b[m] }')
  ((${#ports[@]})) && net_drop_ports -- "${ports[@]}"
  return 0
}

# PORTS (comma-separated): drops NET_LOSS_PERCENT of the packets to or from those ports.
net_loss() {
  local ports=() p
  IFS=, read -r -a ports <<<"$1"
  net_drop_ports -m statistic --mode random --probability "0.$(printf '%02d' "$NET_LOSS_PERCENT")" -- "${ports[@]}"
}
