#!/usr/bin/env bash
# Throwaway PostgreSQL cluster for migrations and tests.
#   scripts/pg-cluster.sh start DIR   prints postgresql://anvil:anvil@127.0.0.1:PORT/anvil as its last line
#   scripts/pg-cluster.sh stop DIR    fast shutdown; does nothing when no server runs there
# Data lives in DIR/data, the unix socket and log in DIR. PostgreSQL refuses to run as root, so as root the
# cluster belongs to an unprivileged system user (created on first use).
set -euo pipefail

PG_USER=anvilpg

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}

[[ $# -eq 2 ]] || usage
action=$1
dir=$2

# Resolved here because runuser keeps PATH but a login shell would not.
bin() {
  command -v "$1" || { echo "$0: $1 not found on PATH" >&2; exit 1; }
}

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u "$PG_USER" -- "$@"
  else
    "$@"
  fi
}

ensure_owner() {
  [[ $(id -u) -eq 0 ]] || return 0
  if ! id -u "$PG_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$PG_USER" \
      || id -u "$PG_USER" >/dev/null 2>&1 # another start may have created it meanwhile
  fi
  chown -R "$PG_USER:" "$dir"
  # mkdtemp directories are 0700: let the server user pass through (search only) those under the temp dir.
  local tmp parent
  tmp=$(cd "${TMPDIR:-/tmp}" && pwd)
  parent=$(dirname "$dir")
  while [[ $parent == "$tmp"/* ]]; do
    chmod o+x "$parent"
    parent=$(dirname "$parent")
  done
  if ! as_owner test -w "$dir"; then
    echo "$0: $PG_USER cannot reach $dir (a parent directory is not searchable); use a directory under $tmp" >&2
    exit 1
  fi
}

running() {
  [[ -f $dir/data/PG_VERSION ]] && as_owner "$pg_ctl" status -D "$dir/data" >/dev/null 2>&1
}

# Free now (nothing answers on it); a race with another process is caught by the retry in start.
pick_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 40000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}

start() {
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  # The socket path must fit in 107 bytes.
  if (( ${#dir} + 20 > 107 )); then
    echo "$0: $dir is too long for a unix socket path" >&2
    exit 1
  fi
  ensure_owner

  if [[ ! -f $dir/data/PG_VERSION ]]; then
    local pwfile=$dir/pwfile
    printf 'anvil\n' >"$pwfile"
    [[ $(id -u) -ne 0 ]] || chown "$PG_USER:" "$pwfile"
    as_owner "$(bin initdb)" -D "$dir/data" -U anvil --pwfile="$pwfile" --auth-local=trust \
      --auth-host=scram-sha-256 --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; rm -f "$pwfile"; exit 1; }
    rm -f "$pwfile"
    # Single-user mode creates the database before any port is open, and needs no client binaries.
    echo 'CREATE DATABASE anvil' | as_owner "$(bin postgres)" --single -D "$dir/data" postgres >"$dir/single.log" 2>&1 \
      || { cat "$dir/single.log" >&2; exit 1; }
  fi

  if running; then
    echo "postgresql://anvil:anvil@127.0.0.1:$(cat "$dir/port")/anvil"
    return
  fi

  local attempt port
  for attempt in 1 2 3 4 5; do
    port=$(pick_port)
    # Durability is pointless for a throwaway cluster and fsync dominates migration time.
    if as_owner "$pg_ctl" start -w -t 60 -D "$dir/data" -l "$dir/postgres.log" -o \
      "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories='$dir' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      >/dev/null; then
      echo "$port" >"$dir/port"
      echo "postgresql://anvil:anvil@127.0.0.1:$port/anvil"
      return
    fi
    grep -q 'could not bind\|already in use' "$dir/postgres.log" 2>/dev/null || break
  done
  echo "$0: postgres did not start (attempt $attempt); log follows" >&2
  tail -n 30 "$dir/postgres.log" >&2 || true
  exit 1
}

stop() {
  [[ -d $dir ]] || return 0
  running || return 0
  as_owner "$pg_ctl" stop -D "$dir/data" -m fast -w >/dev/null
}

pg_ctl=$(bin pg_ctl)
case $action in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
