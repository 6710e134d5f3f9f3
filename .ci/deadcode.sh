#!/usr/bin/env bash
# Dead code gate: golang.org/x/tools/cmd/deadcode at a pinned version, run
# twice over the module:
#   - from the product's main (no -test): a function no command of memtrace
#     reaches is dead, even when a test calls it;
#   - from the tests too (-test), with the shared test helper packages under
#     internal/testdata named (./... leaves testdata out, so the first pass
#     does not see them): a function not even a test reaches — including
#     test helpers and code in _test.go files — is dead.
# Anything reported that .ci/deadcode.allow does not list (with its reason)
# fails. An allowlist entry that is no longer reported is printed so that it
# can be removed.
set -euo pipefail
cd "$(dirname "$0")/.."

version=v0.52.0
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
GOBIN="$bin" go install "golang.org/x/tools/cmd/deadcode@$version"

{ grep -v '^[[:space:]]*\(#\|$\)' .ci/deadcode.allow || true; } | awk '{print $1}' | sort -u >"$bin/entries"
grep -v '\.\*$' "$bin/entries" >"$bin/allowed" || true
grep '\.\*$' "$bin/entries" | sed 's/\.\*$//' >"$bin/helpers" || true

# testhelpers lists the packages under internal/testdata (a pattern with
# ... matches none there).
testhelpers() { find internal/testdata -name '*.go' ! -name '*_test.go' -exec dirname {} \; | sort -u | sed 's|^|./|'; }

fmt='{{range .Funcs}}{{printf "%s.%s\n" $.Path .Name}}{{end}}'
{
	"$bin/deadcode" -f "$fmt" ./... | awk -F. -v helpers="$bin/helpers" '
		BEGIN { while ((getline h < helpers) > 0) helper[h] = 1 }
		!($1 in helper)'
	"$bin/deadcode" -test -f "$fmt" ./... $(testhelpers)
} | sort -u >"$bin/found"

stale=$(comm -13 "$bin/found" "$bin/allowed")
if [ -n "$stale" ]; then
	echo "deadcode: these allowlisted functions are reachable now; remove them from .ci/deadcode.allow:" >&2
	echo "$stale" | sed 's/^/  /' >&2
fi
dead=$(comm -23 "$bin/found" "$bin/allowed")
if [ -n "$dead" ]; then
	echo "deadcode: unreachable functions (delete them, wire them, or justify them in .ci/deadcode.allow):" >&2
	echo "$dead" | sed 's/^/  /' >&2
	exit 1
fi
echo "deadcode: clean ($(wc -l <"$bin/allowed") functions allowlisted, $(wc -l <"$bin/helpers") test helper packages named)"
