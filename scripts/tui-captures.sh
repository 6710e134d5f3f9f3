#!/usr/bin/env bash
# tui-captures.sh: retake the TUI captures of README.md and docs/tui.md from
# the real binary — `tmux capture-pane -p` of memtrace on a fresh copy of the
# demo database, at the size each capture states.
#
#   scripts/tui-captures.sh            print every capture, named
#   scripts/tui-captures.sh NAME…      print those
#   scripts/tui-captures.sh --write [NAME…]
#                                      rewrite every fenced block that follows
#                                      a `<!-- capture NAME -->` line in
#                                      README.md and docs/tui.md (or only
#                                      those of the NAMEs)
#
# Each capture below is a size and the keys that lead to it, in tmux's key
# names (Enter, Right, C-u …); "=TEXT" types TEXT, "~TEXT" waits until the
# screen shows TEXT, "+N" waits N seconds. The program runs from the
# repository root (so the Golden tab finds testdata/golden/demo.yaml), on
# $dir/demo.db, a copy made fresh for each capture: what one capture
# changes, the next does not see. Trailing spaces are cut; "noblank" leaves
# blank rows out. A run takes a few seconds a capture.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tmux >/dev/null || { echo "tui-captures.sh: tmux is not installed" >&2; exit 1; }

dir=${TMPDIR:-/tmp}/memtrace-captures
mkdir -p "$dir"
sock=$dir/tmux.sock
go build -o "$dir/memtrace" .
rm -f "$dir"/seed.db*
"$dir/memtrace" demo --no-tui --db "$dir/seed.db" >/dev/null

tm() { tmux -S "$sock" "$@"; }
screen() { tm capture-pane -p -t cap; }

# wait_for TEXT: until the screen shows TEXT (at most 30 s).
wait_for() {
	for _ in $(seq 300); do
		if screen | grep -qF -- "$1"; then return 0; fi
		sleep 0.1
	done
	echo "tui-captures.sh: '$1' never showed; the screen was:" >&2
	screen >&2
	return 1
}

# settle: until two captures 0.3 s apart agree.
settle() {
	local a b
	a=$(screen)
	for _ in $(seq 50); do
		sleep 0.3
		b=$(screen)
		[ "$a" = "$b" ] && return 0
		a=$b
	done
}

# take NAME WxH [noblank] [box] [tail=N] [clock=T] -- KEYS…: print the
# capture; box keeps only the dialog (its frame), tail=N the last N rows,
# clock=T pins the copy's clock to T first (memtrace clock T).
take() {
	local name=$1 size=$2 noblank= clock= box= tail=
	shift 2
	while [ "$1" != -- ]; do
		case "$1" in
		noblank) noblank=1 ;;
		box) box=1 ;;
		tail=*) tail=${1#tail=} ;;
		clock=*) clock=${1#clock=} ;;
		esac
		shift
	done
	shift
	rm -f "$dir"/demo.db*
	cp "$dir/seed.db" "$dir/demo.db"
	if [ -n "$clock" ]; then "$dir/memtrace" --db "$dir/demo.db" clock "$clock" >/dev/null; fi
	tm kill-server 2>/dev/null || true
	TERM=xterm-256color MEMTRACE_DB= NO_COLOR= tm -f /dev/null new-session -d -s cap -x "${size%x*}" -y "${size#*x}" \
		-c "$PWD" "$dir/memtrace" --db "$dir/demo.db"
	wait_for "1 Trace"
	settle
	local k
	for k in "$@"; do
		case "$k" in
		=*) tm send-keys -t cap -l "${k#=}" ;;
		~*) wait_for "${k#\~}" ;;
		+*) sleep "${k#+}" ;;
		*) tm send-keys -t cap "$k" ;;
		esac
		sleep 0.15
	done
	settle
	local out
	out=$(screen | sed 's/[[:space:]]*$//')
	if [ -n "$noblank" ]; then out=$(grep -v '^$' <<<"$out"); fi
	if [ -n "$box" ]; then out=$(sed -n '/╭/,/╰/p' <<<"$out"); fi
	if [ -n "$tail" ]; then out=$(tail -n "$tail" <<<"$out"); fi
	tm kill-server 2>/dev/null || true
	printf '%s\n' "$out"
}

# The captures, by name. Trace: the query 충주 사과.
query=("/" "=충주 사과" Enter "~10 budget")
capture() {
	case "$1" in
	trace) take "$1" 100x30 -- "${query[@]}" ;;
	trace-temporal) take "$1" 100x30 -- "${query[@]}" Up Up Up Up Up Up ;;
	trace-item) take "$1" 100x30 -- "${query[@]}" Up Up Up Up Up Up Right Enter ;;
	trace-split) take "$1" 100x30 -- "${query[@]}" ] ] ] ] s "~split" ;;
	trace-prompt) take "$1" 100x30 -- "${query[@]}" ] ] ] ] p "~final prompt" ;;
	trace-help) take "$1" 100x30 -- "${query[@]}" "?" ;;
	trace-mark) take "$1" 100x30 -- 2 "~probes" r "~ran " j j j j j j Enter "~own run" M y j x ;;
	golden-run) take "$1" 100x30 -- 2 "~probes" r "~ran " ;;
	golden-open-db) take "$1" 100x30 -- 4 "~CONTENT" / "=key:m0075" Enter "~m0075" x +1 2 "~probes" d r "~ran " g n ;;
	golden-open-db-trace) take "$1" 100x30 -- 4 "~CONTENT" / "=key:m0075" Enter "~m0075" x +1 2 "~probes" d r "~ran " g n Enter "~own run" ;;
	curate) take "$1" 100x30 -- 3 "~PROP" ;;
	curate-reject) take "$1" 100x30 box -- 3 "~PROP" x "~reason" ;;
	curate-batch) take "$1" 100x30 noblank -- 3 "~PROP" H "~BATCH HISTORY" G Enter "~its changes" ;;
	curate-superseded) take "$1" 100x30 noblank -- 3 "~PROP" S "~SUPERSEDED" ;;
	memories) take "$1" 100x30 -- 4 "~CONTENT" ;;
	memories-detail) take "$1" 100x30 -- 4 "~CONTENT" j j j j j j j j j j j j j j j j j j j j j Enter "~audit history" ;;
	memories-chain) take "$1" 100x30 -- 4 "~CONTENT" / "=key:m0480" Enter "~m0480" Enter "~audit history" ;;
	memories-link) take "$1" 100x30 tail=8 -- 4 "~CONTENT" s j Enter "~Link: former" ;;
	captures) take "$1" 100x30 -- 5 "~LAYER" ;;
	captures-patterns) take "$1" 100x30 -- 5 "~LAYER" f "~per pattern" ;;
	palette) take "$1" 100x30 -- : "=recall 충주 사과 @" Tab ;;
	trace-move) take "$1" 100x30 -- / "=where do I live" Enter "~10 budget" @ "=2026-02-01" Enter s "~split" ;;
	split-move) take "$1" 120x40 noblank clock=2026-02-01T09:00:00Z -- / "=where do I live" Enter "~10 budget" @ "=+120d" Enter s "~split" ;;
	chain-move) take "$1" 120x40 noblank clock=2026-02-01T09:00:00Z -- 4 "~CONTENT" / "=Mapo" Enter "~m0465" +1 Enter "~audit history" ;;
	*)
		echo "tui-captures.sh: no capture named $1" >&2
		return 1
		;;
	esac
}
names=(trace trace-temporal trace-item trace-split trace-prompt trace-help trace-mark golden-run golden-open-db
	golden-open-db-trace curate curate-reject curate-batch curate-superseded memories memories-detail memories-chain
	memories-link captures captures-patterns palette trace-move split-move chain-move)

trap 'tm kill-server 2>/dev/null || true' EXIT

if [ "${1:-}" != --write ]; then
	for n in "${@:-${names[@]}}"; do
		echo "== $n"
		capture "$n"
	done
	exit 0
fi

# --write: each marked block's body is replaced by its capture.
shift
only=" $* "
for doc in README.md docs/tui.md; do
	tmp=$(mktemp)
	state=text name=
	while IFS= read -r line || [ -n "$line" ]; do
		case "$state" in
		text)
			printf '%s\n' "$line" >>"$tmp"
			if [[ "$line" =~ ^\<\!--\ capture\ ([a-z0-9-]+)\ --\>$ ]]; then
				name=${BASH_REMATCH[1]} state=marked
			fi
			;;
		marked)
			printf '%s\n' "$line" >>"$tmp"
			[ "$line" = '```' ] || { echo "tui-captures.sh: $doc: the capture $name marker is not followed by a fenced block" >&2; exit 1; }
			if [ "$only" != "  " ] && [[ "$only" != *" $name "* ]]; then
				state=text
				continue
			fi
			echo "retaking $name" >&2
			capture "$name" >>"$tmp"
			state=skip
			;;
		skip)
			if [ "$line" = '```' ]; then
				printf '%s\n' "$line" >>"$tmp"
				state=text
			fi
			;;
		esac
	done <"$doc"
	mv "$tmp" "$doc"
done
