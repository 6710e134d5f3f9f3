#!/usr/bin/env bash
# A real PostgreSQL 15 server for the PostgreSQL store's tests (issue 19).
#
# Sourced by .ci/run:   source .ci/postgres.sh && postgres_up
#   installs postgresql-15 when its server binaries are missing (as root,
#   after apt-get update), initdb's a cluster into a temporary directory as
#   a non-root user, starts it on a free loopback port with its socket in
#   that directory, and exports MEMTRACE_TEST_PG (a DSN of a database the
#   tests give each test a schema of its own in) and MEMTRACE_REAL_PG=1 (so
#   a test that finds no server fails instead of skipping). postgres_down
#   stops it and removes the directory (.ci/run calls it from its EXIT trap).
# Run by hand:          .ci/postgres.sh env
#   does the same, leaves the server running and prints the exports and
#   the command that stops it.

PG_VERSION="${PG_VERSION:-15}"
PG_BIN="/usr/lib/postgresql/$PG_VERSION/bin"

postgres_log() { echo "postgres.sh: $*" >&2; }

# postgres_install installs the server package when initdb is missing.
postgres_install() {
	if [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ]; then
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		postgres_log "PostgreSQL $PG_VERSION server binaries missing ($PG_BIN) and not root: apt-get install postgresql-$PG_VERSION"
		return 1
	fi
	postgres_log "installing postgresql-$PG_VERSION"
	apt-get update -qq
	# The tests run a cluster of their own (below): the package is told
	# not to create (and so not to start) its default one.
	mkdir -p /etc/postgresql-common
	if [ ! -f /etc/postgresql-common/createcluster.conf ]; then
		echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "postgresql-$PG_VERSION" >/dev/null
}

# postgres_free_port prints a loopback port nobody listens on.
postgres_free_port() {
	local p
	for _ in $(seq 50); do
		p=$((40000 + RANDOM % 20000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# postgres_as runs a command as the cluster's owner (root may not run
# initdb or postgres).
postgres_as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u "$PG_CI_USER" -- "$@"
	else
		"$@"
	fi
}

# postgres_up installs, initdb's, starts and exports.
postgres_up() {
	postgres_install || return 1
	PG_CI_DIR=$(mktemp -d /tmp/memtrace-pg.XXXXXX)
	export PG_CI_DIR
	PG_CI_USER=$(id -un)
	if [ "$(id -u)" = 0 ]; then
		PG_CI_USER=postgres
		if ! id -u "$PG_CI_USER" >/dev/null 2>&1; then
			PG_CI_USER=nobody
		fi
		chown "$PG_CI_USER" "$PG_CI_DIR"
	fi
	local port
	port=$(postgres_free_port) || { postgres_log "no free port"; return 1; }
	postgres_as "$PG_BIN/initdb" -D "$PG_CI_DIR/data" -U memtrace -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$PG_CI_DIR/initdb.log" 2>&1 ||
		{ postgres_log "initdb failed:"; tail -20 "$PG_CI_DIR/initdb.log" >&2; return 1; }
	# fsync off: a test cluster that dies with the machine is thrown away.
	# synchronous_commit on: a commit is acknowledged only once its WAL is
	# written, so a server killed by a test (kill_test, the crash matrix)
	# never loses an acknowledged capture and moves a space's seq back.
	postgres_as "$PG_BIN/pg_ctl" -D "$PG_CI_DIR/data" -l "$PG_CI_DIR/server.log" -w -t 30 \
		-o "-c listen_addresses=127.0.0.1 -p $port -k $PG_CI_DIR -c fsync=off -c synchronous_commit=on -c full_page_writes=off -c max_connections=200" \
		start >/dev/null ||
		{ postgres_log "pg_ctl start failed:"; tail -20 "$PG_CI_DIR/server.log" >&2; return 1; }
	PG_CI_PORT=$port
	export PG_CI_PORT
	export MEMTRACE_TEST_PG="postgres://memtrace@127.0.0.1:$port/postgres?sslmode=disable"
	export MEMTRACE_REAL_PG=1
	postgres_log "PostgreSQL $PG_VERSION serving on 127.0.0.1:$port (data $PG_CI_DIR/data, log $PG_CI_DIR/server.log)"
}

# postgres_down stops the server postgres_up started and removes its files.
postgres_down() {
	if [ -n "${PG_CI_DIR:-}" ] && [ -d "$PG_CI_DIR/data" ]; then
		postgres_as "$PG_BIN/pg_ctl" -D "$PG_CI_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	if [ -n "${PG_CI_DIR:-}" ] && [ -d "$PG_CI_DIR" ]; then
		rm -rf "$PG_CI_DIR"
		PG_CI_DIR=
	fi
	return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	case "${1:-}" in
	env)
		postgres_up
		cat <<EOF
export MEMTRACE_TEST_PG='$MEMTRACE_TEST_PG'
export MEMTRACE_REAL_PG=1
# the server keeps running: stop it with
#   $PG_BIN/pg_ctl -D $PG_CI_DIR/data stop; rm -rf $PG_CI_DIR
EOF
		;;
	*)
		echo "usage: .ci/postgres.sh env   (CI sources it and calls postgres_up / postgres_down)" >&2
		exit 2
		;;
	esac
fi
