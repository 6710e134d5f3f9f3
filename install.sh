#!/bin/sh
# install.sh: install memtrace from a release.
#
#   curl -fsSL https://github.com/OWNER/NAME/releases/latest/download/install.sh | sh
#
# OWNER/NAME is the GitHub repository whose release you install. The copy a
# release carries knows it: the release stamps it into release_repo below
# (scripts/stamp-install.sh, from .goreleaser.yaml). This file as it is in a
# clone has none, and asks for MEMTRACE_REPO or MEMTRACE_INSTALL_BASE_URL.
#
# Detects the OS and CPU, downloads the matching archive and checksums.txt,
# verifies the archive's SHA-256 against it, and installs the binary into
# $PREFIX/bin (when PREFIX is set) or ~/.local/bin, and the man page beside it
# (share/man/man1). Nothing is installed unless the checksum matches.
#
# Environment:
#   PREFIX                     install into $PREFIX/bin instead of ~/.local/bin
#   MEMTRACE_VERSION           a tag such as v0.3.0 (default: the latest release)
#   MEMTRACE_REPO              the GitHub repository, OWNER/NAME (default: the
#                              one the release stamped; a clone's copy has none)
#   MEMTRACE_INSTALL_BASE_URL  where the archives and checksums.txt are
#                              (default: that repository's release download URL)
set -eu

# Stamped by a release with its repository; empty here.
release_repo=
repo=${MEMTRACE_REPO:-$release_repo}
version=${MEMTRACE_VERSION:-latest}

say() { printf 'memtrace install: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

if [ -z "${MEMTRACE_INSTALL_BASE_URL:-}" ]; then
	case "$repo" in
	"") die "no repository to install from: this install.sh is not a release's copy; set MEMTRACE_REPO=OWNER/NAME (the GitHub repository whose releases to install) or MEMTRACE_INSTALL_BASE_URL=URL (a server holding the archives and checksums.txt)" ;;
	*/*/* | /* | */ | *[!A-Za-z0-9._/-]*) die "MEMTRACE_REPO=$repo is not a GitHub repository: give OWNER/NAME, e.g. MEMTRACE_REPO=someone/memtrace" ;;
	*/*) ;;
	*) die "MEMTRACE_REPO=$repo is not a GitHub repository: give OWNER/NAME, e.g. MEMTRACE_REPO=someone/memtrace" ;;
	esac
fi

os=$(uname -s)
arch=$(uname -m)
case "$os" in
	Linux) os=linux ;;
	Darwin) os=darwin ;;
	*) die "unsupported platform: $os/$arch (releases are built for linux and darwin on amd64 and arm64; on Windows download the .zip from the release page, elsewhere build from source: see the README)" ;;
esac
case "$arch" in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) die "unsupported platform: $os/$arch (releases are built for amd64 and arm64; elsewhere build from source: see the README)" ;;
esac

if [ -n "${MEMTRACE_INSTALL_BASE_URL:-}" ]; then
	base=${MEMTRACE_INSTALL_BASE_URL%/}
elif [ "$version" = latest ]; then
	base=https://github.com/$repo/releases/latest/download
else
	base=https://github.com/$repo/releases/download/$version
fi

if command -v curl >/dev/null 2>&1; then
	fetch() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
	fetch() { wget -q -O "$2" "$1"; }
else
	die "need curl or wget to download the release"
fi
if command -v sha256sum >/dev/null 2>&1; then
	sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
	sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
else
	die "need sha256sum or shasum to verify the download"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memtrace-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

fetch "$base/checksums.txt" "$tmp/checksums.txt" || die "cannot download $base/checksums.txt"
# checksums.txt lines are "<sha256>  memtrace_<version>_<os>_<arch>.tar.gz".
line=$(grep -E "^[0-9a-f]{64}  memtrace_[^ ]*_${os}_${arch}\.tar\.gz\$" "$tmp/checksums.txt" | head -n 1 || true)
if [ -z "$line" ]; then
	die "unsupported platform: this release has no archive for $os/$arch (see $base/checksums.txt)"
fi
want=${line%% *}
archive=${line##* }

say "downloading $base/$archive"
fetch "$base/$archive" "$tmp/$archive" || die "cannot download $base/$archive"
got=$(sha256 "$tmp/$archive")
if [ "$got" != "$want" ]; then
	die "checksum mismatch for $archive: checksums.txt says sha256 $want, the download is $got; nothing was installed (download again, or report it if it persists)"
fi
say "sha256 $got verified against checksums.txt"

mkdir "$tmp/x"
tar -xzf "$tmp/$archive" -C "$tmp/x" || die "cannot unpack $archive"
bin=$(find "$tmp/x" -type f -name memtrace | head -n 1)
[ -n "$bin" ] || die "$archive holds no memtrace binary"

if [ -n "${PREFIX:-}" ]; then
	root=${PREFIX%/}
else
	[ -n "${HOME:-}" ] || die "neither PREFIX nor HOME is set: say where to install with PREFIX=DIR"
	root=$HOME/.local
fi
dir=$root/bin
mkdir -p "$dir" || die "cannot create $dir (set PREFIX to a directory you can write)"
# Copy beside the target, then rename: a running memtrace is never half-overwritten.
cp "$bin" "$dir/.memtrace.new.$$" && chmod 0755 "$dir/.memtrace.new.$$" && mv -f "$dir/.memtrace.new.$$" "$dir/memtrace" ||
	die "cannot write $dir/memtrace (set PREFIX to a directory you can write)"
man=$(find "$tmp/x" -type f -name 'memtrace.1*' | head -n 1)
if [ -n "$man" ] && mkdir -p "$root/share/man/man1" 2>/dev/null; then
	cp "$man" "$root/share/man/man1/" 2>/dev/null || true
fi

v=$("$dir/memtrace" --version) || die "installed $dir/memtrace, but it does not run here (an older C library?); build from source instead: see the README"
say "installed $v as $dir/memtrace"
case ":${PATH:-}:" in
	*":$dir:"*) ;;
	*)
		say "$dir is not on your PATH; add it with"
		printf '\n    export PATH="%s:$PATH"\n\n' "$dir" >&2
		say "(put that line in ~/.profile, ~/.bashrc or ~/.zshrc to keep it)"
		;;
esac
