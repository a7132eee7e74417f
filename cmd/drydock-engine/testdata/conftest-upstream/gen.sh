#!/usr/bin/env bash
# gen.sh writes expected/<case>.json and expected/<case>.exit: what conftest
# v0.71.1 prints with `-o json` and the exit code it gives, for every case of
# cases.json. The tests never run it; they read what it wrote. Run it from
# this directory with the conftest binary built from the v0.71.1 tag:
#
#   CONFTEST=/work/tools/conftest ./gen.sh
#
# Each case runs in its directory (cases.json "dir") with its arguments as
# conftest takes them ("args"), stdin from the file "stdin" names (else
# /dev/null), and `-o json` in place of any -o/--output the original
# invocation gave (appended when it gave none), so that the findings can be
# compared whatever the original report format. The exception is `verify
# --report`, which conftest refuses with any output but stdout: those cases
# run as written and their text report goes to expected/<case>.txt. What
# conftest writes on stderr goes to expected/<case>.stderr (when it writes
# anything): the error messages the bats tests look for ("errors").
set -euo pipefail
CONFTEST=${CONFTEST:-/work/tools/conftest}
here=$(cd "$(dirname "$0")" && pwd)
go version -m "$CONFTEST" | grep -q "github.com/open-policy-agent/conftest[[:space:]]*v0.71.1" || { echo "gen.sh: $CONFTEST is not conftest v0.71.1" >&2; exit 2; }
rm -rf "$here/expected" && mkdir "$here/expected"
n=$(jq length "$here/cases.json")
for ((i = 0; i < n; i++)); do
	name=$(jq -r ".[$i].name" "$here/cases.json")
	dir=$(jq -r ".[$i].dir" "$here/cases.json")
	stdin=$(jq -r ".[$i].stdin // \"/dev/null\"" "$here/cases.json")
	if jq -e ".[$i].args | any(. == \"--report\" or startswith(\"--report=\"))" "$here/cases.json" >/dev/null; then
		mapfile -d '' args < <(jq -j ".[$i].args | map(. + \"\\u0000\") | add" "$here/cases.json")
		set +e
		(cd "$here/$dir" && "$CONFTEST" "${args[@]}" <"$stdin" >"$here/expected/$name.txt" 2>"$here/expected/$name.stderr")
		echo $? >"$here/expected/$name.exit"
		set -e
		[ -s "$here/expected/$name.stderr" ] || rm "$here/expected/$name.stderr"
		continue
	fi
	# The arguments, with -o X / --output X / --output=X / -oX dropped and
	# -o json appended.
	mapfile -d '' args < <(jq -j ".[$i].args
		| reduce .[] as \$a ({out: [], skip: false};
			if .skip then .skip = false
			elif (\$a == \"-o\" or \$a == \"--output\") then .skip = true
			elif (\$a | test(\"^(--output=|-o.)\")) then .
			else .out += [\$a] end)
		| .out + [\"-o\", \"json\"] | map(. + \"\\u0000\") | add" "$here/cases.json")
	set +e
	(cd "$here/$dir" && "$CONFTEST" "${args[@]}" <"$stdin" >"$here/expected/$name.json" 2>"$here/expected/$name.stderr")
	echo $? >"$here/expected/$name.exit"
	set -e
	[ -s "$here/expected/$name.stderr" ] || rm "$here/expected/$name.stderr"
done
