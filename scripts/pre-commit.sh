#!/bin/sh
# pre-commit's entry for drydock's hooks (.pre-commit-hooks.yaml): runs
# `drydock ARGS...` with the release this commit pins, without compiling
# it. A drydock on PATH of that version runs as it is; otherwise the
# release binary is installed once (install.sh: downloaded, its checksum
# verified) into ${XDG_CACHE_HOME:-~/.cache}/drydock/bin/VERSION and run
# from there.
set -eu

version=v0.1.0
here=$(cd "$(dirname "$0")" && pwd)

if command -v drydock >/dev/null 2>&1; then
	have=$(drydock version 2>/dev/null | sed -n '1s/^drydock \([^ ]*\).*/\1/p') || have=
	if [ "$have" = "$version" ]; then
		exec drydock "$@"
	fi
fi

dir=${DRYDOCK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/drydock}/bin/$version
if [ ! -x "$dir/drydock" ]; then
	sh "$here/../install.sh" -b "$dir" "$version" >&2
fi
exec "$dir/drydock" "$@"
