#!/usr/bin/env bash
# peer-tournament.sh plays ggp against another GGP player, such as Sancho
# or a ggp-base player (../shared/peers/README.md), in both roles of each
# game at competition clocks, each player on a core of its own, and prints
# the mean goal of each with its 95% interval.
#
# Usage: .ci/peer-tournament.sh --opponent HOST:PORT --out DIR [flags] [-- TOURNAMENT FLAGS]
#
#   --opponent HOST:PORT  the other player, already serving (OPPONENT)
#   --out DIR             the tournament folder; run the same command again
#                         on it to finish an interrupted tournament (OUT)
#   --games LIST          two-player games, comma-separated: bundled names,
#                         .kif files or game folders (GAMES; default:
#                         the suite six)
#   --suite NAME          the games of a named suite of $G, in place of
#                         --games (docs/strength.md, "Against other players"):
#                         six     connectFour, breakthrough, checkers, reversi,
#                                 pentago and knightThrough, the games the
#                                 defaults were first measured on
#                         broad   sixteen games of every kind a competition
#                                 draws, none of the six
#   --player SPEC         our player: mcts or mcts:SETTINGS (PLAYER; default
#                         mcts:workers=1, one search goroutine)
#   --rounds N            matches of each game in each role (ROUNDS; default 1)
#   --startclock S        start clock, seconds or a duration (STARTCLOCK; default 30)
#   --playclock S         play clock (PLAYCLOCK; default 5)
#   --gap D               pause between one match's end and the next's start
#                         (GAP; default 15s: a player served by ggp-base's
#                         PlayerRunner, as Sancho is, restarts after every
#                         match; 0 for a player that serves match after match)
#   --port P              loopback port our player is served on (PORT; default 9147)
#   --core C              the core our player and the referee run on (CORE; default 0)
#   -- FLAGS              further flags of ggp tournament, such as --sprt 0.1
#
# Env: GGP, the ggp binary (default: built from this checkout into a
# temporary folder); G, the games folder (default ../shared/games beside
# the checkout); PLAY_FLAGS, further flags of ggp play, such as
# "--max-heap 2048".
#
# Our player is served by `ggp play` on loopback, pinned with taskset to
# core C, and the tournament (ggp tournament, which is the referee) runs on
# the same core: both players answer over HTTP, and the referee's work is
# taken from our player's core, never the opponent's. Start the opponent
# yourself, pinned to another core, before this script, for instance
#
#   PEERS=../peers taskset -c 1 ../shared/peers/run-sancho.sh 9301 ggppeer-nolearn
#
# The script waits for the opponent to answer INFO, tells which cores a
# local opponent may run on, and warns when they include core C. A served
# player plays one role of one match at a time: games of more than two
# roles, which would seat a player twice, and --parallel do not work here.
# On exit, however it ends, the script stops the processes it started; an
# interrupted tournament leaves its completed matches in DIR.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
usage() {
	sed -n '/^# Usage/,/^#   -- FLAGS/p' "$0" | sed 's/^# \{0,1\}//' >&2
}
G=${G:-$root/../shared/games}
OPPONENT=${OPPONENT:-}
OUT=${OUT:-}
# suite NAME prints the games of a named suite, comma-separated.
suite() {
	local names
	case $1 in
	six) names="connectFour breakthrough checkers reversi pentago knightThrough" ;;
	broad) names="amazons_8x8 majorities gomoku_11x11 nineBoardTicTacToe quarto cephalopodMicro dotsAndBoxes kalaha5x2x3 englishDraughts knightfight madBishops battle connectFourSimultaneous chineseCheckers2 escortLatch sheepAndWolf" ;;
	*)
		echo "peer-tournament.sh: no suite $1 (six or broad)" >&2
		return 1
		;;
	esac
	local out= g
	for g in $names; do
		out+=${out:+,}$G/$g
	done
	echo "$out"
}
GAMES=${GAMES:-$(suite six)}
PLAYER=${PLAYER:-mcts:workers=1}
ROUNDS=${ROUNDS:-1}
STARTCLOCK=${STARTCLOCK:-30}
PLAYCLOCK=${PLAYCLOCK:-5}
GAP=${GAP:-15s}
PORT=${PORT:-9147}
CORE=${CORE:-0}
extra=()
while (($# > 0)); do
	case $1 in
	-h | --help)
		usage
		exit 0
		;;
	--)
		shift
		extra=("$@")
		break
		;;
	--opponent | --out | --games | --suite | --player | --rounds | --startclock | --playclock | --gap | --port | --core)
		if (($# < 2)); then
			echo "peer-tournament.sh: $1 needs a value" >&2
			exit 2
		fi
		case $1 in
		--opponent) OPPONENT=$2 ;;
		--out) OUT=$2 ;;
		--games) GAMES=$2 ;;
		--suite) GAMES=$(suite "$2") || exit 2 ;;
		--player) PLAYER=$2 ;;
		--rounds) ROUNDS=$2 ;;
		--startclock) STARTCLOCK=$2 ;;
		--playclock) PLAYCLOCK=$2 ;;
		--gap) GAP=$2 ;;
		--port) PORT=$2 ;;
		--core) CORE=$2 ;;
		esac
		shift 2
		;;
	*)
		echo "peer-tournament.sh: unknown argument $1" >&2
		usage
		exit 2
		;;
	esac
done
if [[ -z $OPPONENT || -z $OUT ]]; then
	echo "peer-tournament.sh: --opponent and --out are required" >&2
	usage
	exit 2
fi
if [[ ! $OPPONENT =~ ^[A-Za-z0-9.-]+:[0-9]+$ ]]; then
	echo "peer-tournament.sh: --opponent $OPPONENT: want HOST:PORT" >&2
	exit 2
fi
for tool in taskset curl; do
	command -v "$tool" >/dev/null || {
		echo "peer-tournament.sh: $tool is needed" >&2
		exit 1
	}
done

# info HOST:PORT prints the player's answer to INFO, or nothing when it
# gives none within 3 s: not listening, restarting, or winding down a
# match (ggp-base's PlayerRunner holds connections unanswered then).
info() {
	curl -s -m 3 -X POST -H 'Content-Type: text/acl' --data '(info)' "http://$1/" || true
}

# wait_info HOST:PORT SECONDS waits until the player answers INFO and
# prints the answer, or fails.
wait_info() {
	local deadline=$((SECONDS + $2)) answer
	while :; do
		answer=$(info "$1")
		if [[ -n $answer ]]; then
			echo "$answer"
			return 0
		fi
		((SECONDS < deadline)) || return 1
		sleep 1
	done
}

# on_core LIST C reports whether core C is in a taskset core list such as
# 0-3,6.
on_core() {
	local part lo hi
	IFS=, read -ra parts <<<"$1"
	for part in "${parts[@]}"; do
		lo=${part%-*} hi=${part#*-}
		if ((lo <= $2 && $2 <= hi)); then
			return 0
		fi
	done
	return 1
}

# build_of BINARY prints the commit a Go binary was built from, its first
# seven digits, with +dirty when the tree had changes, or "unknown". Our
# player gives it in its name, so that the results of sittings played
# with different builds are never summed up as one player's
# (resultstable -pool).
build_of() {
	go version -m "$1" 2>/dev/null | awk '
		$1 == "build" && $2 ~ /^vcs\.revision=/ { rev = substr($2, 14, 7) }
		$1 == "build" && $2 == "vcs.modified=true" { dirty = "+dirty" }
		END { print (rev == "" ? "unknown" : rev dirty) }'
}

tmp=$(mktemp -d)
player_pid= tournament_pid=
cleanup() {
	trap - EXIT INT TERM HUP
	if [[ -n $tournament_pid ]] && kill -0 "$tournament_pid" 2>/dev/null; then
		# ggp tournament takes SIGINT as a request to stop: it aborts the
		# match it plays and writes its results.
		kill -INT "$tournament_pid" 2>/dev/null || true
		wait "$tournament_pid" 2>/dev/null || true
	fi
	if [[ -n $player_pid ]]; then
		kill -TERM "$player_pid" 2>/dev/null || true
		wait "$player_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

if [[ -z ${GGP:-} ]]; then
	echo "building ggp from $root"
	# stamped with its commit, for build_of, when the checkout is a git one
	vcs=false
	if git -C "$root" rev-parse HEAD >/dev/null 2>&1; then
		vcs=true
	fi
	(cd "$root" && go build -buildvcs=$vcs -o "$tmp/ggp" ./cmd/ggp)
	GGP=$tmp/ggp
fi

echo "waiting for the opponent at $OPPONENT to answer INFO"
if ! answer=$(wait_info "$OPPONENT" 120); then
	echo "peer-tournament.sh: $OPPONENT did not answer INFO within 120 s: is it serving?" >&2
	exit 1
fi
echo "opponent: $answer"
if [[ $answer == *busy* ]]; then
	echo "peer-tournament.sh: warning: the opponent says it is busy" >&2
fi
ohost=${OPPONENT%:*} oport=${OPPONENT##*:}
case $ohost in
localhost | 127.* | ::1)
	opid=$(ss -Hltnp "sport = :$oport" 2>/dev/null | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2 || true)
	if [[ -n $opid ]]; then
		ocores=$(taskset -pc "$opid" | sed 's/.*: //')
		echo "opponent: process $opid, cores $ocores"
		if on_core "$ocores" "$CORE"; then
			echo "peer-tournament.sh: warning: the opponent may run on core $CORE, ours: pin it to another core (taskset -c 1 ...)" >&2
		fi
	fi
	;;
esac

if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
	echo "peer-tournament.sh: port $PORT is in use: choose another with --port" >&2
	exit 1
fi
mkdir -p "$OUT"
# shellcheck disable=SC2086
taskset -c "$CORE" "$GGP" play --host 127.0.0.1 --port "$PORT" --player "$PLAYER" --name "ggp-$(build_of "$GGP")-$PLAYER" ${PLAY_FLAGS:-} \
	>>"$OUT/player.log" 2>&1 &
player_pid=$!
if ! answer=$(wait_info "127.0.0.1:$PORT" 30); then
	echo "peer-tournament.sh: our player did not start on port $PORT; see $OUT/player.log" >&2
	exit 1
fi
echo "ours: $answer, core $CORE"

rc=0
taskset -c "$CORE" "$GGP" tournament --games "$GAMES" --players "127.0.0.1:$PORT,$OPPONENT" \
	--rounds "$ROUNDS" --startclock "$STARTCLOCK" --playclock "$PLAYCLOCK" --gap "$GAP" --out "$OUT" "${extra[@]}" &
tournament_pid=$!
wait "$tournament_pid" || rc=$?
tournament_pid=
exit "$rc"
