#!/usr/bin/env bash
# The store's and the web app's suites against a real PostgreSQL server (issue 16), as well as
# the SQLite runs of `make test`. Starts a throwaway cluster in a temporary folder with Debian's
# server binaries (/usr/lib/postgresql/*/bin: apt-get install postgresql), listening on a Unix
# socket only, runs tests/tournament and tests/web with KOLRAMI_TEST_DB pointing at it, then
# stops the cluster and removes the folder. Works as root (the server runs as the postgres user
# Debian's package makes) and offline. Without the server binaries it says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "PostgreSQL tests skipped: no server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql)"
    exit 0
fi
as_server=()
if [ "$(id -u)" = 0 ]; then  # initdb and postgres refuse to run as root
    as_server=(runuser -u postgres --)
fi
dir=$(mktemp -d /tmp/kolrami-pg.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres: "$dir"
port=${KOLRAMI_PG_PORT:-54329}
stop() {
    "${as_server[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
"${as_server[@]}" "$bin/initdb" -D "$dir/data" -U kolrami --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log"; exit 1; }
# fsync off: a throwaway cluster; the store's durability under kill -9 is tested on SQLite
"${as_server[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-c listen_addresses='' -k $dir -p $port -c fsync=off -c max_connections=200" start >/dev/null \
    || { cat "$dir/server.log"; exit 1; }
"$bin/createdb" -h "$dir" -p "$port" -U kolrami kolrami
export KOLRAMI_TEST_DB="postgresql+psycopg://kolrami@/kolrami?host=$dir&port=$port"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $NF}') at $dir: tests/tournament and tests/web"
# any arguments go to pytest (a test file or -x, say); the suites are run unless a path is given
paths=(tests/tournament tests/web)
for arg in "$@"; do [[ $arg == tests/* ]] && paths=(); done
.venv/bin/pytest -q -p no:cacheprovider "$@" "${paths[@]}"
