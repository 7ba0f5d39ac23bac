#!/usr/bin/env bash
# A throwaway PgBouncer in transaction pooling mode, in front of the Postgres that PGHOST, PGPORT,
# PGUSER and PGPASSWORD name (default postgres@127.0.0.1:5432). Every database name is passed
# through to the database of the same name. Its configuration, pid file and log live in DIR.
#
#   scripts/pgbouncer.sh start DIR [PORT]  start it (on PORT, or the first free port from 6432) and
#                                          print its address, postgres://USER@127.0.0.1:PORT/
#   scripts/pgbouncer.sh stop DIR          stop it and remove its files
#
# Each pooled server connection serves any client's transaction in turn, and there are few of them
# (POOL_SIZE, default 4), so a client that relied on its session (a prepared statement, a SET, a
# session lock) would soon find another client's connection under it.
set -euo pipefail

usage() { echo "usage: $0 start DIR [PORT] | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
command=$1 dir=$2

port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# PgBouncer refuses to run as root; root runs it as the postgres user.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
  local port=${1:-}
  if [ -z "$port" ]; then
    port=6432
    until port_is_free "$port"; do port=$((port + 1)); done
  fi
  local host=${PGHOST:-127.0.0.1} server_port=${PGPORT:-5432} user=${PGUSER:-postgres}
  mkdir -p "$dir"
  (
    umask 077
    cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=$host port=$server_port user=$user${PGPASSWORD:+ password=$PGPASSWORD}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = any
pool_mode = transaction
default_pool_size = ${POOL_SIZE:-4}
max_client_conn = 1000
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
EOF
  )
  if [ "$(id -u)" = 0 ]; then
    chown -R postgres "$dir"
    if ! runuser -u postgres -- test -w "$dir"; then
      echo "$dir must be reachable by the postgres user, who runs pgbouncer (it does not run as root)" >&2
      exit 1
    fi
  fi
  as_owner pgbouncer -d "$dir/pgbouncer.ini" >/dev/null
  for _ in $(seq 1 50); do
    if ! port_is_free "$port"; then
      echo "postgres://$user@127.0.0.1:$port/"
      return
    fi
    sleep 0.1
  done
  echo "pgbouncer did not start; its log:" >&2
  cat "$dir/pgbouncer.log" >&2 || true
  exit 1
}

stop() {
  local pidfile=$dir/pgbouncer.pid
  if [ -f "$pidfile" ]; then
    local pid
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$dir/pgbouncer.ini" "$dir/pgbouncer.pid" "$dir/pgbouncer.log"
  rmdir "$dir" 2>/dev/null || true
}

case $command in
  start) start "${3:-}" ;;
  stop) stop ;;
  *) usage ;;
esac
