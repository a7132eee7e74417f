#!/bin/sh
# install.sh: installs drydock's release binaries, without Go.
#
#   curl -sSfL https://raw.githubusercontent.com/drydock-dev/drydock/main/install.sh | sh -s -- -b ~/.local/bin v0.1.0
#
# Usage: install.sh [-b BINDIR] [VERSION]
#
# Downloads the release archive for this machine (Linux or macOS, amd64 or
# arm64) and the release's checksums.txt, refuses an archive whose SHA-256
# is not the one checksums.txt lists, and installs BINDIR/drydock-engine
# and BINDIR/drydock (default ./bin): drydock answers `version` and runs
# every other command in the drydock-engine beside it (a release from
# before the engine was split off holds drydock alone). VERSION is a
# release tag, v0.1.0 by default (the one this file's commit pins;
# cmd/drydock-engine/version.go's release).
#
# Environment: DRYDOCK_RELEASE_URL replaces the releases' base URL
# (https://github.com/drydock-dev/drydock/releases/download, then
# /VERSION/FILE); GITHUB_TOKEN, when set, authenticates the downloads from
# github.com (not from a replaced base URL).
set -eu

version=v0.1.0
bindir=./bin
default_base=https://github.com/drydock-dev/drydock/releases/download
base=${DRYDOCK_RELEASE_URL:-$default_base}

fail() {
	echo "install.sh: $*" >&2
	exit 1
}

usage() {
	echo "usage: install.sh [-b BINDIR] [VERSION]  (VERSION: a release tag such as $version)" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	-b)
		[ $# -ge 2 ] || usage
		bindir=$2
		shift 2
		;;
	-h | --help) usage ;;
	-*) echo "install.sh: unknown flag $1" >&2; usage ;;
	*)
		version=$1
		shift
		;;
	esac
done
case $version in
v[0-9]*) ;;
*) fail "version $version is not a release tag (want vMAJOR.MINOR.PATCH, e.g. v0.1.0)" ;;
esac

case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
*) fail "no release binary for $(uname -s): releases are built for Linux and macOS here (Windows: the .zip on the releases page, or go install github.com/drydock-dev/drydock/cmd/...@$version)" ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) fail "no release binary for $(uname -m): releases are built for amd64 and arm64 (or: go install github.com/drydock-dev/drydock/cmd/...@$version)" ;;
esac

archive="drydock_${version#v}_${os}_${arch}.tar.gz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fetch URL FILE downloads URL into FILE with curl, else wget.
fetch() {
	if command -v curl >/dev/null 2>&1; then
		if [ -n "${GITHUB_TOKEN:-}" ] && [ "$base" = "$default_base" ]; then
			curl -sSfL -H "Authorization: Bearer $GITHUB_TOKEN" -o "$2" "$1"
		else
			curl -sSfL -o "$2" "$1"
		fi
	elif command -v wget >/dev/null 2>&1; then
		if [ -n "${GITHUB_TOKEN:-}" ] && [ "$base" = "$default_base" ]; then
			wget -q --header "Authorization: Bearer $GITHUB_TOKEN" -O "$2" "$1"
		else
			wget -q -O "$2" "$1"
		fi
	else
		fail "neither curl nor wget is installed"
	fi
}

# sha256 prints the SHA-256 of a file.
sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d' ' -f1
	else
		fail "neither sha256sum nor shasum is installed: cannot verify the download"
	fi
}

fetch "$base/$version/checksums.txt" "$tmp/checksums.txt" || fail "cannot download $base/$version/checksums.txt (is $version a drydock release?)"
want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/checksums.txt")
[ -n "$want" ] || fail "$version's checksums.txt lists no $archive"
fetch "$base/$version/$archive" "$tmp/$archive" || fail "cannot download $base/$version/$archive"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] || fail "$archive: SHA-256 $got, but checksums.txt says $want: refusing it"

mkdir -p "$tmp/x"
tar -xzf "$tmp/$archive" -C "$tmp/x" || fail "cannot unpack $archive"
[ -f "$tmp/x/drydock" ] || fail "$archive holds no drydock binary"
mkdir -p "$bindir"
# put NAME installs it: beside the target first, then renamed: a running drydock
# (or another install of the same version) never sees a half-written file.
put() {
	cp "$tmp/x/$1" "$bindir/.$1.$$"
	chmod 0755 "$bindir/.$1.$$"
	mv -f "$bindir/.$1.$$" "$bindir/$1"
}
# The engine first: the new drydock never runs beside an older engine.
if [ -f "$tmp/x/drydock-engine" ]; then
	put drydock-engine
fi
put drydock
echo "install.sh: installed drydock $version ($os/$arch) as $bindir/drydock" >&2
