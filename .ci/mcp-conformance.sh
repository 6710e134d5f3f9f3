#!/usr/bin/env bash
# The official MCP conformance suite against `memtrace mcp --http`.
# Runs the server scenarios that apply to memtrace (docs/agents.md lists the
# others and why they do not apply) and fails when any of their checks fails.
# The suite needs Node >= 22; the npm package "node" brings one into a cache
# directory, so the machine's node (20 in CI) is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFORMANCE_VERSION=0.1.16
NODE_VERSION=22
SCENARIOS=(server-initialize ping tools-list server-sse-multiple-streams dns-rebinding-protection)

cache="${MEMTRACE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memtrace-ci}/mcp-conformance-$CONFORMANCE_VERSION"
if [ ! -x "$cache/node_modules/.bin/conformance" ] || [ ! -x "$cache/node_modules/.bin/node" ]; then
	mkdir -p "$cache"
	[ -f "$cache/package.json" ] || echo '{"name":"memtrace-mcp-conformance","private":true}' >"$cache/package.json"
	(cd "$cache" && npm install --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION")
fi
export PATH="$cache/node_modules/.bin:$PATH"
echo "mcp-conformance: node $(node --version), @modelcontextprotocol/conformance $CONFORMANCE_VERSION"

work="$(mktemp -d)"
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then
		kill -INT "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/memtrace" .
"$work/memtrace" mcp --db "$work/conformance.db" --http 127.0.0.1:0 2>"$work/server.log" &
server_pid=$!
url=""
for _ in $(seq 1 100); do
	url="$(sed -n 's/^memtrace mcp: serving \(http:[^ ]*\)$/\1/p' "$work/server.log")"
	[ -n "$url" ] && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
	sleep 0.1
done
[ -n "$url" ] || { echo "mcp-conformance: the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }

passed=0 failed=0 bad=()
for sc in "${SCENARIOS[@]}"; do
	out="$(timeout 120 conformance server --url "$url" --scenario "$sc" 2>&1 | sed 's/\x1b\[[0-9;]*m//g')" || true
	line="$(printf '%s\n' "$out" | sed -n 's/^Passed: \([0-9]*\)\/\([0-9]*\), \([0-9]*\) failed.*/\1 \2 \3/p' | tail -1)"
	read -r p total f <<<"${line:-0 0 1}"
	if [ "$f" != 0 ] || [ "$p" = 0 ]; then
		bad+=("$sc")
		printf '%s\n' "$out" >&2
	fi
	echo "mcp-conformance: $sc: $p/$total checks passed"
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "mcp-conformance: ${#SCENARIOS[@]} scenarios, $passed checks passed, $failed failed"
if [ "${#bad[@]}" -gt 0 ]; then
	echo "mcp-conformance: failing scenarios: ${bad[*]}" >&2
	exit 1
fi
