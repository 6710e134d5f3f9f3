#!/usr/bin/env bash
# Release check: the GoReleaser config, a snapshot release of both linux
# archives, the checksums and the .deb/.rpm packages, the amd64 .deb installed
# with dpkg, and the release's install.sh (stamped with its repository) against
# the snapshot served on a loopback port — once as it is and once with a
# tampered archive, which must be refused — and the repository each copy of
# install.sh would fetch from.
#
# goreleaser and actionlint are built once from the Go module proxy into
# $MEMTRACE_CI_CACHE (default ~/.cache/memtrace-ci) and reused on later runs,
# as the Go build cache is, so a warm run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

GORELEASER_VERSION=v2.15.1
ACTIONLINT_VERSION=v1.7.12
cache=${MEMTRACE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/memtrace-ci}
bin=$cache/bin
mkdir -p "$bin"

step() { printf '\n== release: %s (%ds)\n' "$*" $((SECONDS - start)); }
fail() { printf 'release check FAILED: %s\n' "$*" >&2; exit 1; }

step "tools"
if [ "$(id -u)" = 0 ] && ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-aarch64-linux-gnu >/dev/null
fi
command -v aarch64-linux-gnu-gcc >/dev/null || fail "aarch64-linux-gnu-gcc missing (apt-get install gcc-aarch64-linux-gnu, as root)"
# tool NAME PACKAGE VERSION: build NAME into $bin unless the build there is that version.
tool() {
	if [ -x "$bin/$1" ] && [ "$(cat "$bin/$1.version" 2>/dev/null)" = "$2@$3" ]; then return; fi
	GOBIN=$bin go install "$2@$3"
	echo "$2@$3" >"$bin/$1.version"
}
tool goreleaser github.com/goreleaser/goreleaser/v2 "$GORELEASER_VERSION"
tool actionlint github.com/rhysd/actionlint/cmd/actionlint "$ACTIONLINT_VERSION"

step "actionlint"
"$bin/actionlint" .github/workflows/*.yml

step "release notes"
work=$(mktemp -d)
server_pid=
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
	if [ "$(id -u)" = 0 ] && dpkg -s memtrace >/dev/null 2>&1 && [ -f "$work/installed-by-ci" ]; then
		dpkg -r memtrace >/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
scripts/release-notes.sh Unreleased >"$work/notes.md"
grep -q '^### ' "$work/notes.md" || fail "the Unreleased section has no ### subsection"
if scripts/release-notes.sh v0.0.0-no-such-version >/dev/null 2>"$work/notes.err"; then
	fail "release-notes.sh printed notes for a version CHANGELOG.md does not have"
fi
grep -q 'no "## \[0.0.0-no-such-version\]" section' "$work/notes.err" || fail "release-notes.sh: $(cat "$work/notes.err")"

# The snapshot is built from a fresh clone of HEAD, as a release is: what is
# not committed is not in it, and the clone has a remote for GoReleaser's git
# state (commit, date) even where this checkout has none.
step "fresh clone of HEAD"
if [ -n "$(git status --porcelain)" ]; then
	echo "note: uncommitted changes are not part of the snapshot (it is built from HEAD)"
fi
git clone -q "$PWD" "$work/src"
git -C "$work/src" checkout -q "$(git rev-parse HEAD)"
cd "$work/src"

step "goreleaser check"
"$bin/goreleaser" check

step "goreleaser snapshot"
# The repository the release would go to, as the release workflow passes
# its own: the before hook stamps it into build/install.sh.
MEMTRACE_GITHUB_OWNER=ci-owner MEMTRACE_GITHUB_NAME=memtrace-ci \
	"$bin/goreleaser" release --snapshot --clean --skip=publish --release-notes "$work/notes.md"
commit=$(git rev-parse HEAD)
grep -qx 'release_repo=ci-owner/memtrace-ci' build/install.sh || fail "the release's install.sh is not stamped with its repository (build/install.sh)"

step "artifacts"
ls -l dist/*.tar.gz dist/*.deb dist/*.rpm dist/checksums.txt
for arch in amd64 arm64; do
	for pat in "memtrace_*_linux_${arch}.tar.gz" "memtrace_*_${arch}.deb"; do
		compgen -G "dist/$pat" >/dev/null || fail "no dist/$pat"
	done
done
for pat in "memtrace-*.x86_64.rpm" "memtrace-*.aarch64.rpm"; do
	compgen -G "dist/$pat" >/dev/null || fail "no dist/$pat"
done
(cd dist && sha256sum -c --quiet checksums.txt) || fail "dist/checksums.txt does not match the artifacts"
for a in dist/memtrace_*_linux_*.tar.gz; do
	list=$(tar -tzf "$a")
	for f in README.md LICENSE CHANGELOG.md memtrace man/memtrace.1.gz; do
		grep -q "^memtrace_[^/]*/$f\$" <<<"$list" || fail "$a lacks $f"
	done
done
# The arm64 binary really is aarch64 (ELF e_machine 0xb7 at offset 18).
arm=$(mktemp -d -p "$work")
tar -xzf dist/memtrace_*_linux_arm64.tar.gz -C "$arm"
machine=$(od -An -tx2 -j18 -N2 "$arm"/memtrace_*/memtrace | tr -d ' ')
[ "$machine" = 00b7 ] || fail "arm64 archive's binary has ELF machine $machine, want 00b7 (aarch64)"

step "the amd64 .deb"
if [ "$(id -u)" = 0 ]; then
	if dpkg -s memtrace >/dev/null 2>&1; then fail "a memtrace package is already installed; not replacing it"; fi
	dpkg -i dist/memtrace_*_amd64.deb
	touch "$work/installed-by-ci"
	root=
else
	echo "NOTE: not root, so the .deb is unpacked with dpkg-deb -x instead of installed with dpkg -i (CI runs as root and installs it)" >&2
	root=$work/debroot
	dpkg-deb -x dist/memtrace_*_amd64.deb "$root"
fi
deb_version=$("$root/usr/bin/memtrace" --version)
echo "$deb_version"
case "$deb_version" in "memtrace v"*"-SNAPSHOT-"*" (commit ${commit:0:12}, built "*")") ;; *) fail "the .deb's memtrace --version is '$deb_version', want the snapshot of $commit" ;; esac
[ -f "$root/usr/share/man/man1/memtrace.1.gz" ] || fail "the .deb installed no man page"
[[ "$(gzip -dc "$root/usr/share/man/man1/memtrace.1.gz" | sed -n 1p)" == ".TH MEMTRACE 1 "* ]] || fail "the man page is not roff"
(cd "$work" && "$root/usr/bin/memtrace" demo --no-tui --db "$work/deb-demo.db") >"$work/deb-demo.out"
tail -n 3 "$work/deb-demo.out"
[ -s "$work/deb-demo.db" ] || fail "the .deb's demo wrote no database"

step "install.sh against the snapshot on a loopback server"
mkdir -p "$work/srv/good" "$work/srv/tampered"
cp dist/checksums.txt dist/memtrace_*_linux_*.tar.gz "$work/srv/good/"
cp dist/checksums.txt dist/memtrace_*_linux_*.tar.gz "$work/srv/tampered/"
bad=$(ls "$work"/srv/tampered/memtrace_*_linux_amd64.tar.gz)
# Change one byte to another value: writing a fixed byte left the archive
# as it was whenever that byte already held it (1 build in 256).
orig=$(dd if="$bad" bs=1 skip=1000 count=1 status=none | od -An -tu1 | tr -d ' \n')
printf "\\$(printf '%03o' $(((orig + 1) % 256)))" | dd of="$bad" bs=1 seek=1000 conv=notrunc status=none
cmp -s "$bad" "$work/srv/good/$(basename "$bad")" && fail "the tampered archive is the same as the good one"
go build -o "$work/serve" ./.ci/serve
"$work/serve" -dir "$work/srv" -url-file "$work/url" -for 5m &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.1; done
[ -s "$work/url" ] || fail "the loopback server did not start"
url=$(cat "$work/url")

env -u MEMTRACE_VERSION -u MEMTRACE_REPO PREFIX="$work/prefix" HOME="$work/home" \
	MEMTRACE_INSTALL_BASE_URL="$url/good" sh build/install.sh 2>&1 | tee "$work/install.out"
sh_version=$("$work/prefix/bin/memtrace" --version)
[ "$sh_version" = "$deb_version" ] || fail "install.sh's memtrace says '$sh_version', the .deb's '$deb_version'"
[ -f "$work/prefix/share/man/man1/memtrace.1.gz" ] || fail "install.sh installed no man page"
grep -q "sha256 [0-9a-f]\{64\} verified" "$work/install.out" || fail "install.sh did not report the verified checksum"
grep -q "is not on your PATH" "$work/install.out" || fail "install.sh did not say how to add $work/prefix/bin to PATH"
"$work/prefix/bin/memtrace" demo --no-tui --db "$work/sh-demo.db" >"$work/sh-demo.out"
# demo names the binary as it was run (memtrace on PATH for the .deb, the
# full path for install.sh's prefix, which is not on PATH): that one word
# may differ, nothing else.
diff <(sed -e "s#$work/deb-demo.db#DB#g" -e "s#$root/usr/bin/memtrace#memtrace#g" "$work/deb-demo.out") <(sed -e "s#$work/sh-demo.db#DB#g" -e "s#$work/prefix/bin/memtrace#memtrace#g" "$work/sh-demo.out") ||
	fail "the .deb's and install.sh's demos differ"

# Without PREFIX it goes to ~/.local/bin.
HOME="$work/home" MEMTRACE_INSTALL_BASE_URL="$url/good" sh build/install.sh 2>/dev/null
[ -x "$work/home/.local/bin/memtrace" ] || fail "install.sh without PREFIX did not install into ~/.local/bin"

step "install.sh refuses a tampered archive"
if PREFIX="$work/prefix-bad" HOME="$work/home" MEMTRACE_INSTALL_BASE_URL="$url/tampered" sh build/install.sh 2>"$work/bad.err"; then
	fail "install.sh installed a tampered archive"
fi
cat "$work/bad.err"
grep -q "checksum mismatch for memtrace_.*_linux_amd64.tar.gz" "$work/bad.err" || fail "install.sh's refusal does not name the checksum mismatch"
[ ! -e "$work/prefix-bad/bin/memtrace" ] || fail "install.sh left a binary behind after a checksum mismatch"

step "install.sh refuses an unsupported platform"
mkdir -p "$work/fake"
printf '#!/bin/sh\ncase "$1" in -s) echo Linux ;; -m) echo riscv64 ;; esac\n' >"$work/fake/uname"
chmod +x "$work/fake/uname"
if PATH="$work/fake:$PATH" PREFIX="$work/prefix-rv" MEMTRACE_INSTALL_BASE_URL="$url/good" sh build/install.sh 2>"$work/rv.err"; then
	fail "install.sh installed on linux/riscv64"
fi
grep -q "unsupported platform: linux/riscv64" "$work/rv.err" || fail "install.sh on riscv64 said: $(cat "$work/rv.err")"

step "install.sh's repository"
# A curl that logs what it was asked for and fails, so no request leaves
# the machine: the URLs say which repository each copy installs from.
mkdir -p "$work/fakecurl"
printf '#!/bin/sh\nfor a; do url=$a; done\necho "$url" >>"%s/curl.log"\nexit 22\n' "$work" >"$work/fakecurl/curl"
chmod +x "$work/fakecurl/curl"
curl_url() { tail -n 1 "$work/curl.log"; }
: >"$work/curl.log"
env -u MEMTRACE_REPO -u MEMTRACE_VERSION -u MEMTRACE_INSTALL_BASE_URL PATH="$work/fakecurl:$PATH" PREFIX="$work/prefix-repo" \
	sh build/install.sh 2>/dev/null && fail "install.sh succeeded with a curl that fails"
[ "$(curl_url)" = https://github.com/ci-owner/memtrace-ci/releases/latest/download/checksums.txt ] ||
	fail "the release's install.sh fetched '$(curl_url)', not the latest release of the repository it was stamped with"
env -u MEMTRACE_INSTALL_BASE_URL PATH="$work/fakecurl:$PATH" PREFIX="$work/prefix-repo" MEMTRACE_REPO=someone/fork MEMTRACE_VERSION=v1.2.3 \
	sh build/install.sh 2>/dev/null && fail "install.sh succeeded with a curl that fails"
[ "$(curl_url)" = https://github.com/someone/fork/releases/download/v1.2.3/checksums.txt ] ||
	fail "MEMTRACE_REPO=someone/fork MEMTRACE_VERSION=v1.2.3 fetched '$(curl_url)'"
# The clone's own copy is not stamped: it asks for a repository and
# fetches nothing.
: >"$work/curl.log"
if env -u MEMTRACE_REPO -u MEMTRACE_INSTALL_BASE_URL PATH="$work/fakecurl:$PATH" PREFIX="$work/prefix-repo" sh ./install.sh 2>"$work/repo.err"; then
	fail "the unstamped install.sh installed without a repository"
fi
grep -q "set MEMTRACE_REPO=OWNER/NAME" "$work/repo.err" || fail "the unstamped install.sh said: $(cat "$work/repo.err")"
[ ! -s "$work/curl.log" ] || fail "the unstamped install.sh fetched $(cat "$work/curl.log")"
if env -u MEMTRACE_INSTALL_BASE_URL PATH="$work/fakecurl:$PATH" MEMTRACE_REPO=not-a-repo PREFIX="$work/prefix-repo" sh ./install.sh 2>"$work/repo.err"; then
	fail "install.sh accepted MEMTRACE_REPO=not-a-repo"
fi
grep -q "MEMTRACE_REPO=not-a-repo is not a GitHub repository" "$work/repo.err" || fail "MEMTRACE_REPO=not-a-repo: $(cat "$work/repo.err")"
[ ! -e "$work/prefix-repo/bin/memtrace" ] || fail "install.sh left a binary behind without a release"

step "done"
