#!/bin/sh
# Rewrites expected/*.json from the real conftest v0.71.1:
#   conftest parse [--parser P] FILE > expected/FILE.json
# (textproto: conftest test --proto-file-dirs protos -p echo-policy -o json FILE)
set -e
CONFTEST=${CONFTEST:-/work/tools/conftest}
mkdir -p expected
grep -v '^#' cases.txt | while read -r file parser; do
	set -- parse
	[ "$parser" = - ] || set -- "$@" --parser "$parser"
	case $file in
	*.textproto)
		# conftest parse has no --proto-file-dirs: the input conftest test
		# evaluates, from echo-policy's warning (conftest test -o json).
		"$CONFTEST" test --proto-file-dirs protos -p echo-policy -o json "$file" |
			python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["warnings"][0]["msg"])' > "expected/$file.json" ;;
	*) "$CONFTEST" "$@" "$file" > "expected/$file.json" ;;
	esac
done
