#!/bin/sh
# stamp-install.sh OWNER/NAME OUT: write install.sh to OUT with the release's
# repository stamped into its release_repo line, so that the copy a release
# carries installs from the repository that published it.
#
# Run by GoReleaser's before hooks (.goreleaser.yaml) with the repository the
# release goes to (MEMTRACE_GITHUB_OWNER/MEMTRACE_GITHUB_NAME, which the
# release workflow sets to its own). "/" (neither set, e.g. a local snapshot)
# writes install.sh unstamped: that copy asks for MEMTRACE_REPO.
set -eu
[ $# -eq 2 ] || { echo "usage: stamp-install.sh OWNER/NAME OUT" >&2; exit 2; }
repo=$1
out=$2
cd "$(dirname "$0")/.."
mkdir -p "$(dirname "$out")"
if [ "$repo" = / ]; then
	cp install.sh "$out"
	echo "stamp-install.sh: no repository given (MEMTRACE_GITHUB_OWNER/NAME unset): $out is unstamped" >&2
	exit 0
fi
case "$repo" in
*/*/* | /* | */ | *[!A-Za-z0-9._/-]*)
	echo "stamp-install.sh: $repo is not OWNER/NAME" >&2
	exit 1
	;;
*/*) ;;
*)
	echo "stamp-install.sh: $repo is not OWNER/NAME" >&2
	exit 1
	;;
esac
[ "$(grep -c '^release_repo=$' install.sh)" = 1 ] || {
	echo "stamp-install.sh: install.sh has no single empty release_repo= line to stamp" >&2
	exit 1
}
sed "s#^release_repo=\$#release_repo=$repo#" install.sh >"$out"
chmod 0755 "$out"
