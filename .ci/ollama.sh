#!/usr/bin/env bash
# A real Ollama server for the real-server tests (issue 13).
#
# Sourced by .ci/run:   source .ci/ollama.sh && ollama_up
#   builds (or reuses) Ollama at a pinned version, writes the tiny models,
#   starts `ollama serve` on a free loopback port, creates the models and
#   exports OLLAMA_HOST and MEMTRACE_REAL_OLLAMA=1. ollama_down stops it
#   (.ci/run calls it from its EXIT trap).
# Run by hand:          .ci/ollama.sh env
#   does the same, leaves the server running and prints the exports and
#   the command that stops it, for running the tests locally.
#
# The module zip of Ollama leaves out llama/llama.cpp/vendor/, so three
# headers come from elsewhere: nlohmann/json (Debian nlohmann-json3-dev),
# stb_image.h (Debian libstb-dev) and miniaudio.h, which Debian 12 does not
# package but the Go module github.com/gen2brain/malgo ships at its root.

OLLAMA_VERSION="${OLLAMA_VERSION:-0.17.4}"
MALGO_VERSION="v0.11.24"
# Survives between CI runs on the same machine; the Go build cache is
# shared anyway, so a rebuild after a version bump is warm — as long as this
# path stays the same: the cache keys the C++ objects by CGO_CPPFLAGS, which
# name it.
if [ -z "${MEMTRACE_CI_CACHE:-}" ]; then
	if [ -w /var/cache ]; then MEMTRACE_CI_CACHE=/var/cache/memtrace-ci; else MEMTRACE_CI_CACHE="$HOME/.cache/memtrace-ci"; fi
fi
OLLAMA_BIN="$MEMTRACE_CI_CACHE/ollama-$OLLAMA_VERSION/ollama"

ollama_log() { echo "ollama.sh: $*" >&2; }

# ollama_headers installs the headers the build needs; prints -I flags.
ollama_headers() {
	if [ ! -f /usr/include/nlohmann/json.hpp ] || [ ! -f /usr/include/stb/stb_image.h ]; then
		if [ "$(id -u)" != 0 ]; then
			ollama_log "need nlohmann-json3-dev and libstb-dev: run as root, or apt-get install them"
			return 1
		fi
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nlohmann-json3-dev libstb-dev >/dev/null
	fi
	local inc="$MEMTRACE_CI_CACHE/include"
	if [ ! -f "$inc/miniaudio/miniaudio.h" ]; then
		local tmp dir
		tmp=$(mktemp -d)
		dir=$(cd "$tmp" && go mod download -json "github.com/gen2brain/malgo@$MALGO_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
		rm -rf "$tmp"
		if [ -z "$dir" ] || [ ! -f "$dir/miniaudio.h" ]; then
			ollama_log "could not get miniaudio.h from github.com/gen2brain/malgo@$MALGO_VERSION"
			return 1
		fi
		mkdir -p "$inc/miniaudio"
		cp "$dir/miniaudio.h" "$inc/miniaudio/miniaudio.h"
	fi
	echo "-I$inc -I/usr/include/stb -I/usr/include/nlohmann"
}

# ollama_build builds Ollama into the cache unless that version is there.
ollama_build() {
	if [ -x "$OLLAMA_BIN" ] && "$OLLAMA_BIN" --version 2>/dev/null | grep -q "$OLLAMA_VERSION"; then
		ollama_log "reusing $OLLAMA_BIN (Ollama $OLLAMA_VERSION)"
		return 0
	fi
	local flags start
	flags=$(ollama_headers) || return 1
	start=$(date +%s)
	ollama_log "building Ollama $OLLAMA_VERSION into $(dirname "$OLLAMA_BIN") (about 7 min cold on 2 cores, 1 min warm)"
	mkdir -p "$(dirname "$OLLAMA_BIN")"
	(cd "$(mktemp -d)" &&
		CGO_ENABLED=1 CGO_CPPFLAGS="$flags" GOBIN="$(dirname "$OLLAMA_BIN")" GOFLAGS=-buildvcs=false \
			go install -ldflags "-X github.com/ollama/ollama/version.Version=$OLLAMA_VERSION" \
			"github.com/ollama/ollama@v$OLLAMA_VERSION") || return 1
	ollama_log "built Ollama $OLLAMA_VERSION in $(($(date +%s) - start)) s"
}

# ollama_free_port prints a loopback port nobody listens on.
ollama_free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 20000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# ollama_up builds, starts the server, creates the tiny models, exports.
ollama_up() {
	ollama_build || return 1
	OLLAMA_CI_DIR=$(mktemp -d)
	export OLLAMA_CI_DIR
	local root port
	root=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
	(cd "$root" && go run ./internal/testdata/ollamatest/cmd/tinygguf -dir "$OLLAMA_CI_DIR/models") >&2 || return 1
	port=$(ollama_free_port) || { ollama_log "no free port"; return 1; }
	export OLLAMA_HOST="127.0.0.1:$port"
	mkdir -p "$OLLAMA_CI_DIR/home" "$OLLAMA_CI_DIR/store"
	HOME="$OLLAMA_CI_DIR/home" OLLAMA_MODELS="$OLLAMA_CI_DIR/store" OLLAMA_NOPRUNE=1 \
		"$OLLAMA_BIN" serve >"$OLLAMA_CI_DIR/serve.log" 2>&1 &
	OLLAMA_CI_PID=$!
	export OLLAMA_CI_PID
	local i
	for i in $(seq 100); do
		if "$OLLAMA_BIN" list >/dev/null 2>&1; then
			break
		fi
		if ! kill -0 "$OLLAMA_CI_PID" 2>/dev/null; then
			ollama_log "ollama serve exited:"; tail -20 "$OLLAMA_CI_DIR/serve.log" >&2
			return 1
		fi
		sleep 0.1
	done
	local kind
	for kind in chat embed repeat; do
		(cd "$OLLAMA_CI_DIR/models" && HOME="$OLLAMA_CI_DIR/home" "$OLLAMA_BIN" create "memtrace-tiny-$kind" -f "$kind.Modelfile") >/dev/null 2>&1 ||
			{ ollama_log "ollama create memtrace-tiny-$kind failed:"; tail -20 "$OLLAMA_CI_DIR/serve.log" >&2; return 1; }
	done
	export MEMTRACE_REAL_OLLAMA=1
	export MEMTRACE_REAL_OLLAMA_REPORT="$OLLAMA_CI_DIR/real-tests.txt"
	ollama_log "Ollama $OLLAMA_VERSION serving on $OLLAMA_HOST (pid $OLLAMA_CI_PID, log $OLLAMA_CI_DIR/serve.log) with memtrace-tiny-chat, -embed, -repeat"
}

# ollama_down lists the real-server tests that ran, by name, stops the
# server ollama_up started and removes its files.
ollama_down() {
	local r="${MEMTRACE_REAL_OLLAMA_REPORT:-}"
	if [ -n "$r" ] && [ -s "$r" ]; then
		ollama_log "real-server tests: $(grep -c '^PASS' "$r") passed, $(grep -c '^FAIL' "$r") failed, $(grep -c '^SKIP' "$r") skipped:"
		sort -k2 "$r" | sed 's/^/  /' >&2
	elif [ -n "$r" ]; then
		ollama_log "no real-server test ran"
	fi
	if [ -n "${OLLAMA_CI_PID:-}" ]; then
		kill "$OLLAMA_CI_PID" 2>/dev/null && wait "$OLLAMA_CI_PID" 2>/dev/null
		OLLAMA_CI_PID=
	fi
	if [ -n "${OLLAMA_CI_DIR:-}" ] && [ -d "$OLLAMA_CI_DIR" ]; then
		rm -rf "$OLLAMA_CI_DIR"
		OLLAMA_CI_DIR=
	fi
	return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	case "${1:-}" in
	build)
		ollama_build
		;;
	env)
		ollama_up
		cat <<EOF
export OLLAMA_HOST=$OLLAMA_HOST
export MEMTRACE_REAL_OLLAMA=1
export OLLAMA_CI_PID=$OLLAMA_CI_PID
export OLLAMA_CI_DIR=$OLLAMA_CI_DIR
# the server keeps running: stop it with
#   kill \$OLLAMA_CI_PID; rm -rf \$OLLAMA_CI_DIR
EOF
		;;
	*)
		echo "usage: .ci/ollama.sh build|env   (CI sources it and calls ollama_up / ollama_down)" >&2
		exit 2
		;;
	esac
fi
