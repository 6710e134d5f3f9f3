#!/bin/sh
# release-notes.sh VERSION [CHANGELOG]: print the CHANGELOG.md section of
# VERSION ("v0.3.0", "0.3.0" or "Unreleased") without its heading, as the
# release notes. Fails, naming the heading it looked for, when the section is
# missing or empty, so a tag without a changelog entry does not release.
set -eu
if [ $# -lt 1 ]; then
	echo "usage: release-notes.sh VERSION|Unreleased [CHANGELOG.md]" >&2
	exit 2
fi
version=${1#v}
file=${2:-CHANGELOG.md}
[ -r "$file" ] || { echo "release-notes: cannot read $file" >&2; exit 1; }
notes=$(awk -v want="$version" '
	/^## \[/ {
		name = $2; gsub(/^\[|\]$/, "", name)
		if (insection) exit
		if (name == want) { insection = 1; next }
	}
	/^\[[^]]+\]: / { if (insection) exit }
	insection { print }
' "$file" | sed -e '/./,$!d')
if [ -z "$(printf '%s' "$notes" | tr -d '[:space:]')" ]; then
	echo "release-notes: no \"## [$version]\" section with content in $file; add one (see its header) before tagging" >&2
	exit 1
fi
printf '%s\n' "$notes"
