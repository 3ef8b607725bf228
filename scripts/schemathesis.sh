#!/usr/bin/env bash
# Fuzzes the local API with schemathesis against the OpenAPI document the service
# publishes at /v1/openapi.json: no server errors, and every answer must match the
# documented status codes, content types and schemas. Then the person's channel
# the same way with the ui token: the /v1 handlers the app uses under /ui (the
# document's paths moved there) and /ui/settings (scripts/ui-openapi.py).
# Usage: scripts/schemathesis.sh  (env: RECORDER_BIN, XTASK_BIN, SCHEMATHESIS, ST_MAX_TIME)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${RECORDER_BIN:-target/debug/recorder}
xtask=${XTASK_BIN:-target/debug/xtask}
schemathesis=${SCHEMATHESIS:-schemathesis}
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# A few real meetings so that list, search and transcript answers have content.
if [ -x "$xtask" ]; then
  "$xtask" seed --data-dir "$work/data" --meetings 20 --segments 30 >/dev/null
fi
# Remote start on, so import requests get past the setting gate to path validation.
mkdir -p "$work/data"
[ -f "$work/data/settings.json" ] || echo '{"general": {"allow_remote_start": true}}' >"$work/data/settings.json"
RECORDER_POLICY_PATH="$work/no-policy.json" "$bin" serve --data-dir "$work/data" --port 0 >"$work/stdout" 2>"$work/stderr" &
pid=$!
for _ in $(seq 1 300); do grep -q "listening on" "$work/stdout" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/stdout")
[ -n "$port" ] || { echo "service did not start:"; cat "$work/stderr"; exit 1; }
token=$(cat "$work/data/api_token")
base="http://127.0.0.1:$port"
curl -sf -H "Authorization: Bearer $token" "$base/v1/openapi.json" >"$work/openapi.json"

checks=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
# /v1/events is an endless stream: documented, but not something to fuzz.
"$schemathesis" run "$work/openapi.json" --url "$base" \
  -H "Authorization: Bearer $token" \
  --checks "$checks" \
  --exclude-path /v1/events \
  --max-time "${ST_MAX_TIME:-120}" --seed 1 --no-color --workers 2

python3 scripts/ui-openapi.py "$work/openapi.json" >"$work/ui-openapi.json"
"$schemathesis" run "$work/ui-openapi.json" --url "$base" \
  -H "Authorization: Bearer $(cat "$work/data/ui_token")" \
  --checks "$checks" \
  --max-time "${ST_UI_MAX_TIME:-60}" --seed 1 --no-color --workers 2
