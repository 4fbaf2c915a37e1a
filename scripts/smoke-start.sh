#!/usr/bin/env bash
# Starts the gateway as a newcomer would (`npm start`, embedded database in a scratch folder),
# waits until /health/ready answers 200 (60 s at most), sends SIGTERM and expects exit code 0.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${SMOKE_PORT:-39017}"
data_dir="$(mktemp -d)"
log="$(mktemp)"
trap 'rm -rf "$data_dir"' EXIT

npm run --silent build

# A bad setting stops the start with one line that names it.
set +e
bad_output="$(env -u DATABASE_URL PORT=not-a-port DATA_DIR="$data_dir" node dist/src/main.js 2>&1)"
bad_status=$?
set -e
if [ "$bad_status" != 1 ] || [ "$(printf '%s\n' "$bad_output" | wc -l)" != 1 ] || ! grep -q '^pipes-gateway: configuration error: PORT ' <<<"$bad_output"; then
  echo "smoke: a bad PORT should stop the start with one line naming it; got exit $bad_status:"; echo "$bad_output"; exit 1
fi
echo "smoke: bad configuration refused: $bad_output"

# An unreachable database is loud, not swallowed.
set +e
db_output="$(DATABASE_URL=postgresql://smoke:secret-pw@127.0.0.1:1/none PORT="$port" node dist/src/main.js 2>&1)"
db_status=$?
set -e
if [ "$db_status" != 1 ] || ! grep -q 'failed to start: database postgresql://smoke:\*\*\*@127.0.0.1:1/none is not usable' <<<"$db_output" || grep -q secret-pw <<<"$db_output"; then
  echo "smoke: an unreachable database should stop the start with a clear line; got exit $db_status:"; echo "$db_output"; exit 1
fi
echo "smoke: unreachable database refused"
env -u DATABASE_URL PORT="$port" DATA_DIR="$data_dir" node dist/src/main.js >"$log" 2>&1 &
pid=$!

ready=0
for _ in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1; then ready=1; break; fi
  if ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 1
done
if [ "$ready" != 1 ]; then
  echo "smoke: the gateway did not become ready within 60 s"; cat "$log"; kill "$pid" 2>/dev/null || true; exit 1
fi
grep -q "listening on http://" "$log" || { echo "smoke: start-up did not print the address"; cat "$log"; exit 1; }
# The banner says which database and upstreams, where the docs are and which ways in are open; Nest's own
# start-up lines (one per module and per route) stay at debug.
for line in "console:    http://localhost:$port/console/" "docs:       http://localhost:$port/docs" "database:   embedded, in $data_dir/pglite" "pipes:      https://api.clickhouse.cloud:443 (PIPES_API_URL)" "dashboards: https://api.hyperdx.io:443 (DASHBOARDS_API_URL)" "admin:      platform routes /v1/admin closed" "sign-in:    gateway keys only"; do
  grep -qF "$line" "$log" || { echo "smoke: the banner lacks \"$line\""; cat "$log"; exit 1; }
done
# `npm run build` built the console too, and the gateway serves it under its own policy.
console_headers="$(curl -fsS -D - -o /dev/null "http://127.0.0.1:$port/console/")" || { echo "smoke: /console/ did not answer 200"; exit 1; }
grep -qi "^content-security-policy: default-src 'none'; script-src 'self';" <<<"$console_headers" || { echo "smoke: /console/ lacks its policy:"; echo "$console_headers"; exit 1; }
echo "smoke: the console is served at /console/"
if grep -qE 'Mapped \{|dependencies initialized' "$log"; then
  echo "smoke: framework start-up lines were printed at the default log level"; cat "$log"; exit 1
fi

# A second gateway on the same port (another data folder) stops naming the setting that chose it.
second_dir="$(mktemp -d)"
set +e
busy_output="$(env -u DATABASE_URL PORT="$port" DATA_DIR="$second_dir" node dist/src/main.js 2>&1)"
busy_status=$?
set -e
rm -rf "$second_dir"
if [ "$busy_status" != 1 ] || ! grep -qF "failed to start: port $port is in use by another process: stop it, or set PORT to a free port" <<<"$busy_output"; then
  echo "smoke: a port in use should stop the start naming PORT; got exit $busy_status:"; echo "$busy_output"; kill "$pid" 2>/dev/null || true; exit 1
fi
echo "smoke: port in use refused naming PORT"

kill -TERM "$pid"
status=0
wait "$pid" || status=$?
if [ "$status" != 0 ]; then echo "smoke: exit code $status after SIGTERM (expected 0)"; cat "$log"; exit 1; fi
echo "smoke: ready, then exited 0 on SIGTERM"
