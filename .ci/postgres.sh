#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the SuggestPostgres tests: loopback only, its own folder and port, trust
# authentication, one database. A developer can run it too:
#
#   eval "$(bash .ci/postgres.sh start)"   # prints the export lines (SUGGEST_TEST_POSTGRES_URL=…)
#   swift test --filter SuggestPostgresTests
#   bash .ci/postgres.sh stop              # stops the cluster and removes its folder
#
# install: installs Debian's postgresql and postgresql-contrib (pg_trgm) when no server binaries are found.
# Settings: SUGGEST_PG_DIR (default /tmp/suggest-postgres-test), SUGGEST_PG_PORT (default 54329).
# As root, the server runs as the `postgres` user (it refuses to run as root).
set -euo pipefail

DIR="${SUGGEST_PG_DIR:-/tmp/suggest-postgres-test}"
PORT="${SUGGEST_PG_PORT:-54329}"
USER_NAME=suggest
DATABASE=suggest_test

bindir() {
  local found=""
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then found="$(pg_config --bindir)"; fi
  if [ -z "$found" ]; then
    found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  fi
  [ -n "$found" ] && [ -x "$found/initdb" ] && echo "$found"
}

# Runs a command as the cluster's owner (the postgres user when we are root).
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install() {
  if bindir >/dev/null && [ -n "$(ls /usr/share/postgresql/*/extension/pg_trgm.control 2>/dev/null)" ]; then return; fi
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  # The package's own cluster (port 5432) is not used; policy-rc.d keeps it from starting where services can't.
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql postgresql-contrib >/dev/null
}

start() {
  local bin; bin="$(bindir)" || { echo "postgres.sh: no PostgreSQL server found (run: bash .ci/postgres.sh install)" >&2; exit 1; }
  if [ -f "$DIR/data/postmaster.pid" ] && as_owner "$bin/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
    echo "postgres.sh: reusing the cluster running in $DIR (bash .ci/postgres.sh stop ends it)" >&2
  else
    rm -rf "$DIR"
    mkdir -p "$DIR"
    [ "$(id -u)" = 0 ] && chown postgres: "$DIR"
    as_owner "$bin/initdb" -D "$DIR/data" -U "$USER_NAME" --auth=trust -E UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 \
      || { cat "$DIR/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
      -o "-p $PORT -c listen_addresses=127.0.0.1 -k $DIR -c fsync=off" start >/dev/null \
      || { cat "$DIR/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$PORT" -U "$USER_NAME" "$DATABASE"
  fi
  echo "export SUGGEST_TEST_POSTGRES_URL=postgres://$USER_NAME@127.0.0.1:$PORT/$DATABASE?sslmode=disable"
}

stop() {
  local bin
  if [ -f "$DIR/data/postmaster.pid" ] && bin="$(bindir)"; then
    as_owner "$bin/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$DIR"
}

# Stops the server but keeps its data (to try what the provider does when the database goes away), and starts it again.
pause() {
  local bin; bin="$(bindir)"
  as_owner "$bin/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null
}
resume() {
  local bin; bin="$(bindir)"
  as_owner "$bin/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
    -o "-p $PORT -c listen_addresses=127.0.0.1 -k $DIR -c fsync=off" start >/dev/null
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  pause) pause ;;
  resume) resume ;;
  *) echo "usage: bash .ci/postgres.sh install|start|stop|pause|resume" >&2; exit 64 ;;
esac
