#!/usr/bin/env bash
# The service as it runs on several machines, on this one, from Debian packages (postgresql,
# pgbouncer, haproxy):
#
#   a primary Postgres and a hot-standby replica of it (pg_basebackup -R, streaming replication),
#   PgBouncer in transaction pooling mode in front of the primary,
#   3 API instances whose pools go through PgBouncer (DB_POOLER=transaction), whose
#   live-update listeners and migrations go straight to the primary (DATABASE_DIRECT_URL) and
#   whose reads of histories and statistics go to the replica once it has caught up
#   (DATABASE_REPLICA_URL),
#   HAProxy in front of the instances, round robin.
#
#   scripts/cluster.sh install  install the Debian packages it needs that are missing (up does too)
#   scripts/cluster.sh up       start it all and print the addresses
#   scripts/cluster.sh status   say what runs
#   scripts/cluster.sh heal     start again the replica and the API instances that are not running
#   scripts/cluster.sh down     stop it all and remove everything up made
#
# Everything lives in CLUSTER_DIR (default /tmp/primegames-cluster): the two Postgres data
# directories, configuration, pid files, logs and the built binary. Ports are the first free ones
# from CLUSTER_PORT (default 15432) for Postgres and PgBouncer and from CLUSTER_HTTP_PORT (default
# 18080) for the proxy and the instances. The machine's own Postgres is not touched.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${CLUSTER_DIR:-/tmp/primegames-cluster}
instances=3

pg_bin() {
  local version
  version=$(ls /usr/lib/postgresql | sort -n | tail -1)
  echo "/usr/lib/postgresql/$version/bin/$1"
}

# Postgres, like PgBouncer, refuses to run as root; root runs them as the postgres user.
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# free_ports N FROM prints N free ports, the first from FROM on.
free_ports() {
  local n=$1 port=$2
  while [ "$n" -gt 0 ]; do
    if port_is_free "$port"; then echo "$port"; n=$((n - 1)); fi
    port=$((port + 1))
  done
}

install_missing() {
  local missing=()
  [ -d /usr/lib/postgresql ] || missing+=(postgresql)
  command -v pgbouncer >/dev/null 2>&1 || missing+=(pgbouncer)
  command -v haproxy >/dev/null 2>&1 || missing+=(haproxy)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "cluster: installing ${missing[*]}"
    local sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

wait_for() { # wait_for WHAT COMMAND...: up to 30 s
  local what=$1
  shift
  for _ in $(seq 1 300); do
    if "$@" >/dev/null 2>&1; then return; fi
    sleep 0.1
  done
  echo "cluster: $what did not come up; see $dir/*.log" >&2
  exit 1
}

up() {
  if [ -e "$dir" ]; then
    echo "cluster: $dir exists; run '$0 down' first" >&2
    exit 1
  fi
  install_missing
  trap 'echo "cluster: up failed; $0 down removes what it made" >&2' ERR
  mkdir -p "$dir"
  chmod 755 "$dir"
  [ "$(id -u)" != 0 ] || chown postgres "$dir"

  local ports http_ports
  mapfile -t ports < <(free_ports 3 "${CLUSTER_PORT:-15432}")
  mapfile -t http_ports < <(free_ports $((instances + 1)) "${CLUSTER_HTTP_PORT:-18080}")
  local primary=${ports[0]} replica=${ports[1]} bouncer=${ports[2]} proxy=${http_ports[0]}
  printf '%s\n' "primary=$primary" "replica=$replica" "pgbouncer=$bouncer" "proxy=$proxy" \
    "instances=${http_ports[*]:1}" >"$dir/ports"

  echo "cluster: primary Postgres on port $primary"
  as_postgres "$(pg_bin initdb)" -D "$dir/primary" -U postgres --auth=trust >"$dir/initdb.log"
  postgres_conf "$dir/primary" "$primary"
  as_postgres "$(pg_bin pg_ctl)" -D "$dir/primary" -l "$dir/primary.log" -w start >/dev/null
  as_postgres "$(pg_bin createdb)" -h 127.0.0.1 -p "$primary" -U postgres primegames

  echo "cluster: hot-standby replica on port $replica"
  as_postgres "$(pg_bin pg_basebackup)" -h 127.0.0.1 -p "$primary" -U postgres -D "$dir/replica" -R -X stream --checkpoint=fast
  postgres_conf "$dir/replica" "$replica"
  as_postgres "$(pg_bin pg_ctl)" -D "$dir/replica" -l "$dir/replica.log" -w start >/dev/null
  wait_for "streaming replication" streaming

  echo "cluster: PgBouncer (transaction pooling) on port $bouncer"
  PGHOST=127.0.0.1 PGPORT=$primary PGUSER=postgres POOL_SIZE=20 \
    scripts/pgbouncer.sh start "$dir/pgbouncer" "$bouncer" >/dev/null

  echo "cluster: building the API"
  go build -o "$dir/primegames" ./cmd/primegames
  local i
  for i in $(seq 1 "$instances"); do start_instance "$i"; done
  for i in $(seq 1 "$instances"); do
    wait_for "API instance $i" curl -fsS "http://127.0.0.1:${http_ports[$i]}/readyz"
  done

  echo "cluster: HAProxy on port $proxy"
  {
    cat <<EOF
global
  pidfile $dir/haproxy.pid
  daemon

defaults
  mode http
  option forwardfor
  # A connection an instance refuses (it died) is tried again on another instance, not on the same
  # one until the health check notices. Only connection failures are retried, never a request an
  # instance received, so a POST without an Idempotency-Key is not sent twice.
  retries 2
  option redispatch 1
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  # Event streams stay open; the instances send a heartbeat every 15 s.
  timeout tunnel 1h

frontend api
  bind 127.0.0.1:$proxy
  default_backend instances

backend instances
  balance roundrobin
  option httpchk GET /readyz
EOF
    for i in $(seq 1 "$instances"); do
      echo "  server api$i 127.0.0.1:${http_ports[$i]} check inter 2s"
    done
  } >"$dir/haproxy.cfg"
  haproxy -f "$dir/haproxy.cfg"
  wait_for "HAProxy" curl -fsS "http://127.0.0.1:$proxy/readyz"
  echo "cluster: up; the API is at http://127.0.0.1:$proxy"
  echo "cluster: the replica's test runs with"
  echo "  TEST_PRIMARY_URL=postgres://postgres@127.0.0.1:$primary/primegames?sslmode=disable \\"
  echo "  TEST_REPLICA_URL=postgres://postgres@127.0.0.1:$replica/primegames?sslmode=disable go test ./repo -run TestReads"
}

# start_instance I starts API instance I (1, 2, …) on its port of the ports file.
start_instance() {
  local port
  port=$(port instances | cut -d' ' -f"$1")
  echo "cluster: API instance $1 on port $port"
  DATABASE_URL="postgres://postgres@127.0.0.1:$(port pgbouncer)/primegames?sslmode=disable" DB_POOLER=transaction \
    DATABASE_DIRECT_URL="postgres://postgres@127.0.0.1:$(port primary)/primegames?sslmode=disable" \
    DATABASE_REPLICA_URL="postgres://postgres@127.0.0.1:$(port replica)/primegames?sslmode=disable" \
    LISTEN_ADDR="127.0.0.1:$port" TRUSTED_PROXIES=127.0.0.1 \
    SECRET_KEY=local-cluster-secret-key-0123456789abcdef \
    setsid "$dir/primegames" serve >>"$dir/api$1.log" 2>&1 </dev/null &
  echo $! >"$dir/api$1.pid"
}

# heal starts again the replica and the API instances that are not running (after a crash, or
# the cluster test's outage) and waits until the replica streams and the instances are ready.
heal() {
  if [ ! -f "$dir/ports" ]; then
    echo "cluster: not up ($dir does not exist)" >&2
    exit 1
  fi
  if ! as_postgres "$(pg_bin pg_ctl)" -D "$dir/replica" status >/dev/null 2>&1; then
    echo "cluster: starting the replica again"
    as_postgres "$(pg_bin pg_ctl)" -D "$dir/replica" -l "$dir/replica.log" -w start >/dev/null
  fi
  wait_for "streaming replication" streaming
  local i
  for i in $(seq 1 "$instances"); do
    running "$dir/api$i.pid" || start_instance "$i"
  done
  for i in $(seq 1 "$instances"); do
    wait_for "API instance $i" curl -fsS "http://127.0.0.1:$(port instances | cut -d' ' -f"$i")/readyz"
  done
  echo "cluster: healed"
}

# postgres_conf DATA PORT makes the server in DATA listen on 127.0.0.1:PORT, with its socket in the
# cluster's directory.
postgres_conf() {
  as_postgres tee -a "$1/postgresql.conf" >/dev/null <<EOF
port = $2
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
max_connections = 200
EOF
}

streaming() {
  [ "$(psql -h 127.0.0.1 -p "$(port primary)" -U postgres -d postgres -Atc \
    "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" = 1 ]
}

port() { sed -n "s/^$1=//p" "$dir/ports"; }

running() { [ -f "$1" ] && alive "$(head -n 1 "$1")"; }

# alive PID says whether process PID runs. One that has ended is not, even while it waits to be
# reaped: the processes up starts are orphans, reaped by init, which some containers' init does
# only every second or two, and until then heal would not start a killed instance again.
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

status() {
  if [ ! -f "$dir/ports" ]; then
    echo "cluster: not up ($dir does not exist)"
    return 1
  fi
  local state
  for server in primary replica; do
    if as_postgres "$(pg_bin pg_ctl)" -D "$dir/$server" status >/dev/null 2>&1; then state=running; else state=stopped; fi
    echo "postgres $server (port $(port $server)): $state"
  done
  if streaming 2>/dev/null; then state=streaming; else state="not streaming"; fi
  echo "replication: $state"
  if running "$dir/pgbouncer/pgbouncer.pid"; then state=running; else state=stopped; fi
  echo "pgbouncer (port $(port pgbouncer)): $state"
  local i=0
  for p in $(port instances); do
    i=$((i + 1))
    if curl -fsS "http://127.0.0.1:$p/readyz" >/dev/null 2>&1; then state=ready; else state="not ready"; fi
    echo "api$i (port $p): $state"
  done
  if curl -fsS "http://127.0.0.1:$(port proxy)/readyz" >/dev/null 2>&1; then state=ready; else state="not ready"; fi
  echo "haproxy (port $(port proxy)): $state"
}

down() {
  if [ ! -e "$dir" ]; then
    echo "cluster: nothing to stop ($dir does not exist)"
    return
  fi
  local pid_files=("$dir/haproxy.pid")
  for i in $(seq 1 "$instances"); do pid_files+=("$dir/api$i.pid"); done
  stop_pids "${pid_files[@]}"
  if [ -d "$dir/pgbouncer" ]; then scripts/pgbouncer.sh stop "$dir/pgbouncer"; fi
  for server in replica primary; do
    if [ -f "$dir/$server/postmaster.pid" ]; then
      as_postgres "$(pg_bin pg_ctl)" -D "$dir/$server" -m fast -w stop >/dev/null || true
    fi
  done
  rm -rf "$dir"
  echo "cluster: down"
}

# stop_pids FILE... ends the processes the files name that run, all at once, and waits up to 20 s
# for them.
stop_pids() {
  local file pids=() pid
  for file in "$@"; do
    if running "$file"; then
      pid=$(cat "$file")
      kill "$pid"
      pids+=("$pid")
    fi
  done
  for _ in $(seq 1 200); do
    local still=()
    for pid in "${pids[@]}"; do
      if alive "$pid"; then still+=("$pid"); fi
    done
    [ ${#still[@]} -gt 0 ] || return 0
    sleep 0.1
  done
  echo "cluster: processes ${still[*]} did not stop" >&2
}

case ${1:-} in
  install) install_missing ;;
  up) up ;;
  down) down ;;
  status) status ;;
  heal) heal ;;
  *) echo "usage: $0 install|up|status|heal|down" >&2; exit 2 ;;
esac
