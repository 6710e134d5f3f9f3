#!/usr/bin/env bash
# The crash matrix (issue 32): SIGKILL memtrace at a random moment of each
# writing command, many times, and check that no batch was torn.
#
#   .ci/crash-matrix.sh            the full matrix: KILLS (default 28) kills of
#                                  each of ten commands, >= 250 in all (a few
#                                  minutes on two cores)
#   KILLS=3 .ci/crash-matrix.sh    a short run (what .ci/run does when
#                                  MEMTRACE_CRASH_MATRIX=1 is set)
#
# Each kill lands uniformly within the command's own uninterrupted run time
# (measured first). After each kill the file must pass PRAGMA
# integrity_check, and:
#   - a one-transaction command (heartbeat, approve, rollback, import
#     memories, add, copy) has left the database exactly as before it or
#     exactly as an uninterrupted run leaves it (a signature of memories,
#     audit rows, batches, proposals and captures);
#   - a resumable command (ingest, import jsonl, reembed) has committed whole
#     batches only, and re-run to the end it ends exactly where an
#     uninterrupted run ends;
#   - copy --to a new file leaves no file, an empty one, or the whole copy.
# With MEMTRACE_TEST_PG set (.ci/postgres.sh env), copy --to a PostgreSQL
# space is killed too: the space holds nothing or the whole copy.
# Exit status 1 when any kill tore a batch; the counts are printed.
set -euo pipefail
cd "$(dirname "$0")/.."

KILLS="${KILLS:-28}"
WORK=$(mktemp -d /tmp/memtrace-crash.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
BIN="$WORK/memtrace"
go build -o "$BIN" .
export MEMTRACE_DB=

kills=0
torn=0
finished=0
declare -A per

log() { echo "crash-matrix: $*" >&2; }

# sig prints a signature of what a database holds (times included: the
# demo pins its clock). Batch ids count by their kind only: a resumed run
# commits its remaining batches under new ids (the counter moved), and
# import memories names its batch with a random suffix; a resumed run
# records a batch of its own (the batches table is left out).
sig() {
	local b="CASE WHEN instr(batch, '-') > 0 THEN substr(batch, 1, instr(batch, '-')) WHEN instr(batch, ':') > 0 THEN substr(batch, 1, instr(batch, ':')) ELSE batch END"
	sqlite3 "$1" "SELECT id,key,content,status,type,tier,importance,access_count,seq,embedder,hex(embedding) FROM memories ORDER BY id;
		SELECT $b,actor,action,memory_id FROM audit ORDER BY id;
		SELECT id,kind,status,$b FROM proposals ORDER BY id;
		SELECT message_id,outcome,memory_id FROM captures ORDER BY id;
		SELECT name,value FROM counters WHERE name <> 'batch' ORDER BY name;" 2>/dev/null | sha256sum | cut -c1-16
}

intact() { [ "$(sqlite3 "$1" 'PRAGMA integrity_check' 2>&1)" = ok ]; }

# runfor NAME SECONDS CMD…: runs CMD, SIGKILLs it after SECONDS; returns 0
# when it was killed, 1 when it finished first.
runfor() {
	local delay=$1
	shift
	"$@" >/dev/null 2>&1 &
	local pid=$!
	sleep "$delay"
	if kill -9 "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null || true
		return 0
	fi
	wait "$pid" 2>/dev/null || true
	return 1
}

# timed CMD…: prints how long CMD takes, in seconds.
timed() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || true
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc
}

randdelay() { echo "scale=4; 0.9 * $1 * $RANDOM / 32767" | bc; }

fail() {
	torn=$((torn + 1))
	log "TORN: $*"
}

# The fixtures: the demo (pinned clock), messages and memories to write.
"$BIN" --db "$WORK/base.db" demo --no-tui >/dev/null
for i in $(seq 1 240); do
	printf '{"id":"cm-%d","session":"cm-%d","role":"user","text":"The build server number %d runs its nightly job on port %d, not the default.","at":"2026-07-01T09:00:00Z"}\n' "$i" $((i % 7)) "$i" $((5000 + i))
done >"$WORK/msgs.jsonl"
for i in $(seq 1 240); do
	printf '{"id":"mem-%d","text":"Imported fact %d: the archive shelf %d holds the %d reports.","type":"note"}\n' "$i" "$i" "$i" $((i * 3))
done >"$WORK/mems.jsonl"
"$BIN" --db "$WORK/base.db" ingest "$WORK/msgs.jsonl" --batch 20 >/dev/null
cp "$WORK/base.db" "$WORK/hb.db"
"$BIN" --db "$WORK/hb.db" heartbeat --at +120d >/dev/null
capture_batch=$(sqlite3 "$WORK/base.db" "SELECT batch FROM batches WHERE kind = 'capture' ORDER BY rowid DESC LIMIT 1")
"$BIN" --db "$WORK/base.db" demo --no-tui >/dev/null 2>&1 || true
rm -f "$WORK"/base.db-* "$WORK"/hb.db-*
sqlite3 "$WORK/base.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
sqlite3 "$WORK/hb.db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null

# one_tx NAME FIXTURE ARGS…: a command that writes in one transaction.
one_tx() {
	local name=$1 fixture=$2
	shift 2
	local db="$WORK/$name.db"
	cp "$fixture" "$db"
	local before after dur
	before=$(sig "$db")
	dur=$(timed "$BIN" --db "$db" "$@")
	after=$(sig "$db")
	if [ "$before" = "$after" ]; then
		log "$name changes nothing: not a crash test"
		torn=$((torn + 1))
		return
	fi
	for _ in $(seq 1 "$KILLS"); do
		cp "$fixture" "$db"
		rm -f "$db"-wal "$db"-shm
		if runfor "$(randdelay "$dur")" "$BIN" --db "$db" "$@"; then
			kills=$((kills + 1))
			per[$name]=$((${per[$name]:-0} + 1))
		else
			finished=$((finished + 1))
		fi
		intact "$db" || { fail "$name: integrity_check failed"; continue; }
		local s
		s=$(sig "$db")
		[ "$s" = "$before" ] || [ "$s" = "$after" ] || fail "$name: neither before nor after"
	done
}

# resumable NAME FIXTURE BATCH ARGS…: a command that commits every BATCH
# captures and resumes; after a kill only whole batches, and the re-run
# ends where an uninterrupted run ends.
resumable() {
	local name=$1 fixture=$2 batch=$3
	shift 3
	local db="$WORK/$name.db"
	cp "$fixture" "$db"
	local n0 ref dur
	n0=$(sqlite3 "$db" 'SELECT count(*) FROM captures')
	dur=$(timed "$BIN" --db "$db" "$@")
	ref=$(sig "$db")
	for _ in $(seq 1 "$KILLS"); do
		cp "$fixture" "$db"
		rm -f "$db"-wal "$db"-shm
		if runfor "$(randdelay "$dur")" "$BIN" --db "$db" "$@"; then
			kills=$((kills + 1))
			per[$name]=$((${per[$name]:-0} + 1))
		else
			finished=$((finished + 1))
		fi
		intact "$db" || { fail "$name: integrity_check failed"; continue; }
		if [ "$batch" -gt 0 ]; then
			local n
			n=$(($(sqlite3 "$db" 'SELECT count(*) FROM captures') - n0))
			[ $((n % batch)) -eq 0 ] || [ "$n" -eq 240 ] || fail "$name: $n captures, not whole batches of $batch"
		fi
		"$BIN" --db "$db" "$@" >/dev/null 2>&1 || { fail "$name: the re-run failed"; continue; }
		[ "$(sig "$db")" = "$ref" ] || fail "$name: the re-run does not end where an uninterrupted run ends"
	done
}

# copy_file NAME: copy --to a new SQLite file.
copy_file() {
	local ref dur target="$WORK/copy-target.db"
	rm -f "$target"*
	dur=$(timed "$BIN" copy --from "$WORK/base.db" --to "$target")
	ref=$(sig "$target")
	for _ in $(seq 1 "$KILLS"); do
		rm -f "$target"*
		if runfor "$(randdelay "$dur")" "$BIN" copy --from "$WORK/base.db" --to "$target"; then
			kills=$((kills + 1))
			per[copy]=$((${per[copy]:-0} + 1))
		else
			finished=$((finished + 1))
		fi
		[ -f "$target" ] || continue
		intact "$target" || { fail "copy: integrity_check failed"; continue; }
		local n
		n=$(sqlite3 "$target" 'SELECT count(*) FROM memories' 2>/dev/null || echo 0)
		[ "$n" = 0 ] || [ "$(sig "$target")" = "$ref" ] || fail "copy: $n memories, neither empty nor the whole copy"
	done
}

# copy_pg: copy --to a PostgreSQL space (MEMTRACE_TEST_PG).
copy_pg() {
	[ -n "${MEMTRACE_TEST_PG:-}" ] || { log "MEMTRACE_TEST_PG unset: copy --to PostgreSQL not killed"; return; }
	local psql=/usr/lib/postgresql/${PG_VERSION:-15}/bin/psql
	local want dur
	want=$(sqlite3 "$WORK/base.db" 'SELECT count(*) FROM memories')
	pgspace() { echo "${MEMTRACE_TEST_PG%%\?*}?search_path=$1&${MEMTRACE_TEST_PG#*\?}"; }
	dur=$(timed "$BIN" copy --from "$WORK/base.db" --to "$(pgspace "crash_$$_0")")
	[ "$("$psql" -qtA "$MEMTRACE_TEST_PG" -c "SELECT count(*) FROM crash_$$_0.memories")" = "$want" ] || fail "copy-pg: the uninterrupted copy is not whole"
	"$psql" -q "$MEMTRACE_TEST_PG" -c "DROP SCHEMA IF EXISTS crash_$$_0 CASCADE" >/dev/null 2>&1 || true
	for k in $(seq 1 "$KILLS"); do
		local space="crash_$$_$k" dsn
		dsn=$(pgspace "$space")
		if runfor "$(randdelay "$dur")" "$BIN" copy --from "$WORK/base.db" --to "$dsn"; then
			kills=$((kills + 1))
			per[copy-pg]=$((${per[copy-pg]:-0} + 1))
		else
			finished=$((finished + 1))
		fi
		local n
		n=$("$psql" -qtA "$MEMTRACE_TEST_PG" -c "SELECT count(*) FROM $space.memories" 2>/dev/null || echo 0)
		[ "$n" = 0 ] || [ "$n" = "$want" ] || fail "copy-pg: $n of $want memories"
		"$psql" -q "$MEMTRACE_TEST_PG" -c "DROP SCHEMA IF EXISTS $space CASCADE" >/dev/null 2>&1 || true
	done
}

pending=$(sqlite3 "$WORK/hb.db" "SELECT group_concat(id, ' ') FROM proposals WHERE status = 'pending' AND kind = 'archive'")
# shellcheck disable=SC2086
one_tx approve "$WORK/hb.db" approve $pending
one_tx heartbeat "$WORK/base.db" heartbeat --at +120d
one_tx rollback "$WORK/base.db" rollback --yes --force "$capture_batch"
one_tx import-memories "$WORK/base.db" import memories "$WORK/mems.jsonl" --from jsonl
one_tx add "$WORK/base.db" add "우리 팀은 금요일마다 배포하지 않아요 — no deploys on Fridays."
resumable ingest "$WORK/hb.db" 10 ingest "$WORK/msgs.jsonl" --batch 10
sed 's/"id":"cm-/"id":"jl-/; s/build server/print server/' "$WORK/msgs.jsonl" >"$WORK/msgs2.jsonl"
resumable import-jsonl "$WORK/hb.db" 0 import jsonl "$WORK/msgs2.jsonl"
resumable reembed "$WORK/base.db" 0 reembed --batch 16
copy_file
copy_pg

for k in "${!per[@]}"; do echo "  $k: ${per[$k]} kills"; done | sort
echo "crash-matrix: $kills SIGKILLs ($finished runs finished before their kill), $torn torn"
[ "$torn" -eq 0 ]
