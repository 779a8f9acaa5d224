#!/usr/bin/env bash
# regenerate.sh runs again the commands whose output the documentation
# shows, and puts each command's output in place. In a page, such output
# sits between two markers, the first naming the command:
#
#     <!-- begin output: ggp bench --seconds 6 $G/connectFour -->
#     ...
#     <!-- end output -->
#
# and the script replaces what lies between them with a text block: the
# command after "$ ", then everything it printed on standard output.
#
# Usage: .ci/regenerate.sh [-n] [DOC [PATTERN]]
#
#   DOC      a page: a name under docs/ (strength.md) or a path;
#            default: README.md and every docs/*.md
#   PATTERN  only the blocks whose command contains PATTERN (a plain
#            string, such as "--out $RUNS/wins" or "bench")
#   -n       list the commands that would run, and run none
#
# Each command runs with bash in the repository's root, its standard
# error on the terminal, with:
#
#   ggp                  built from this checkout, first on PATH
#   /tmp/ggp-vX.Y.Z      built from the tag vX.Y.Z when a command names
#                        it and it is missing (see docs/strength.md)
#   G                    the shared games folder (default ../shared/games)
#   RUNS                 the folder of tournament folders and saved
#                        tables (default ../ggp-runs)
#
# Measurements take long and want an idle machine: a tournament plays
# every match its --out folder does not hold yet (hours, for the long
# ones); on a folder that holds the finished tournament it plays nothing
# and prints its tables again. Run one block at a time with PATTERN when
# in doubt, and -n first.
#
# A command that fails leaves its block as it was; the script goes on
# with the others and exits 1 at the end.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
usage() {
	sed -n '/^# Usage/,/^#   -n/p' "$0" | sed 's/^# \{0,1\}//' >&2
}
list=0
case ${1:-} in
-h | --help)
	usage
	exit 0
	;;
-n)
	list=1
	shift
	;;
esac
if (($# > 2)); then
	usage
	exit 2
fi
doc=${1:-}
pattern=${2:-}

pages=()
if [[ -z $doc ]]; then
	pages=("$root/README.md" "$root"/docs/*.md)
elif [[ -f $doc ]]; then
	pages=("$(cd "$(dirname "$doc")" && pwd)/$(basename "$doc")")
elif [[ -f $root/docs/$doc ]]; then
	pages=("$root/docs/$doc")
else
	echo "regenerate.sh: no page $doc (want a name under docs/ or a path)" >&2
	exit 2
fi

export G=${G:-../shared/games}
export RUNS=${RUNS:-../ggp-runs}

begin_re='^<!-- begin output: (.*) -->$'
end='<!-- end output -->'

bin=
failed=0

# prepare builds ggp from the checkout, once, and the tagged binaries the
# command names that are missing.
prepare() {
	local cmd=$1
	if [[ -z $bin ]]; then
		bin=$(mktemp -d)
		trap 'rm -rf "$bin"' EXIT
		echo "== building ggp from $root" >&2
		(cd "$root" && go build -o "$bin/ggp" ./cmd/ggp)
		export PATH="$bin:$PATH"
		(cd "$root" && mkdir -p "$RUNS")
	fi
	local old tag
	for old in $(grep -oE '/tmp/ggp-v[0-9]+\.[0-9]+\.[0-9]+' <<<"$cmd" | sort -u); do
		[[ -x $old ]] && continue
		tag=${old#/tmp/ggp-}
		echo "== building $old from the tag $tag" >&2
		(cd "$root" &&
			{ [[ -d ../ggp-$tag ]] || git worktree add "../ggp-$tag" "$tag"; } &&
			cd "../ggp-$tag" && go build -o "$old" ./cmd/ggp)
	done
}

# run runs cmd in the repository's root and writes its standard output to
# the file out.
run() {
	local cmd=$1 out=$2
	prepare "$cmd"
	echo "== $cmd" >&2
	(cd "$root" && bash -o pipefail -c "$cmd") </dev/null >"$out"
}

for page in "${pages[@]}"; do
	tmp=$(mktemp)
	inside=0
	cmd=
	old=()
	lineno=0
	while IFS= read -r line || [[ -n $line ]]; do
		lineno=$((lineno + 1))
		if ((!inside)); then
			printf '%s\n' "$line" >>"$tmp"
			if [[ $line =~ $begin_re ]]; then
				inside=1
				cmd=${BASH_REMATCH[1]}
				old=()
			fi
			continue
		fi
		if [[ $line != "$end" ]]; then
			old+=("$line")
			continue
		fi
		inside=0
		out=
		if [[ -z $pattern || $cmd == *"$pattern"* ]]; then
			if ((list)); then
				printf '%s: %s\n' "${page#"$root"/}" "$cmd"
			else
				out=$(mktemp)
				if ! run "$cmd" "$out"; then
					echo "regenerate.sh: ${page#"$root"/}:$lineno: the command failed; its block is left as it was" >&2
					failed=1
					rm -f "$out"
					out=
				fi
			fi
		fi
		if [[ -n $out ]]; then
			{
				echo '```text'
				printf '$ %s\n' "$cmd"
				cat "$out"
				echo '```'
			} >>"$tmp"
			rm -f "$out"
		elif ((${#old[@]})); then
			printf '%s\n' "${old[@]}" >>"$tmp"
		fi
		printf '%s\n' "$line" >>"$tmp"
	done <"$page"
	if ((inside)); then
		echo "regenerate.sh: ${page#"$root"/}: a block begun with \"$cmd\" has no end marker" >&2
		rm -f "$tmp"
		exit 1
	fi
	if ((list)) || cmp -s "$tmp" "$page"; then
		rm -f "$tmp"
	else
		cat "$tmp" >"$page"
		rm -f "$tmp"
		echo "== updated ${page#"$root"/}" >&2
	fi
done
exit "$failed"
