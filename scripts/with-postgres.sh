#!/usr/bin/env bash
# with-postgres.sh COMMAND...: runs COMMAND with a throwaway PostgreSQL server.
#
# The server is Debian's (package postgresql): initdb into a fresh temporary folder,
# listening on 127.0.0.1 at a free port and on a socket in that folder, trust
# authentication for local connections only, fsync off (a test server: nothing in
# it outlives the command; RACEKIT_PG_DURABLE=1 keeps PostgreSQL's durable defaults,
# fsync and synchronous commits, for benchmarks). RACEKIT_TEST_PG is set to its URL for COMMAND; the
# server is stopped and its folder removed when COMMAND ends, however it ends.
#
# Without PostgreSQL installed, COMMAND runs without RACEKIT_TEST_PG and the
# PostgreSQL tests say "skipped: PostgreSQL not installed".
# As root, the server runs as the `postgres` user (PostgreSQL refuses root).
set -euo pipefail

pg_bin=""
for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && pg_bin="$dir"
done
if [ -z "$pg_bin" ] && command -v initdb >/dev/null 2>&1; then
    pg_bin=$(dirname "$(command -v initdb)")
fi
if [ -z "$pg_bin" ]; then
    echo "with-postgres: PostgreSQL not installed (Debian: apt-get install postgresql); its tests are skipped" >&2
    unset RACEKIT_TEST_PG
    exec "$@"
fi

run_as=()
owner=$(id -un)
if [ "$(id -u)" = 0 ]; then
    run_as=(runuser -u postgres --)
    owner=postgres
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/racekit-pg.XXXXXX")
chmod 755 "$dir"
chown "$owner" "$dir"
stop() {
    "${run_as[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM

durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
if [ "${RACEKIT_PG_DURABLE:-0}" = 1 ]; then durability=""; fi

# A free port: ask the kernel for one, then let the server bind it.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

"${run_as[@]}" "$pg_bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 70; }
"${run_as[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir $durability -c max_connections=100" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 70; }
"${run_as[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U postgres racekit_test

export RACEKIT_TEST_PG="postgresql://postgres@127.0.0.1:$port/racekit_test"
echo "with-postgres: PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') at $RACEKIT_TEST_PG" >&2
set +e
"$@"
status=$?
set -e
exit $status
