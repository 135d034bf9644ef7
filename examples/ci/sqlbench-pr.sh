#!/usr/bin/env bash
# sqlbench-pr.sh: does a driver's pull request make it slower? A CI gate
# built from sqlbench's own commands (examples/ci/README.md).
#
# It builds the driver at the base and at the PR as two variant targets
# (TARGET@BASE_DIR, TARGET@PR_DIR) and runs two sessions, each holding both:
#
#   1. instructions: --measure instructions (callgrind, instructions/op,
#      deterministic); the gate fails a workload whose PR median exceeds the
#      base median by more than SQLBENCH_INSTR_THRESHOLD.
#   2. time: wall time, interleaved, --baseline the base; the gate fails a
#      workload whose ratio verdict (ops/s PR / base at SQLBENCH_RESOLUTION)
#      is "slower". Undecided never fails.
#
# Then it records both sessions in the history database and writes a
# Markdown summary (to $GITHUB_STEP_SUMMARY too, when set).
#
# Environment (required): SQLBENCH_TARGET, SQLBENCH_BASE_DIR, SQLBENCH_PR_DIR,
# SQLBENCH_WORKLOADS. Optional: SQLBENCH (the sqlbench command), SQLBENCH_OUT,
# SQLBENCH_INSTR_THRESHOLD, SQLBENCH_INSTR_COUNT, SQLBENCH_INSTR_SCALE, SQLBENCH_TIME,
# SQLBENCH_TIME_COUNT, SQLBENCH_RESOLUTION, SQLBENCH_QUICK, SQLBENCH_RUN_ARGS,
# SQLBENCH_HISTORY_DB. See README.md beside this script.
#
# Exit status: 0 no regression; 1 a regression (each named on stderr);
# 2 bad input (one line naming it); 3 the machine or a tool failed (a
# program missing, a session that did not measure every cell, a build that
# failed, the history database).
set -u

say() { printf 'sqlbench-pr: %s\n' "$*" >&2; }
bad() { say "$*"; exit 2; }
broken() { say "$*"; exit 3; }

target=${SQLBENCH_TARGET:-}
base_dir=${SQLBENCH_BASE_DIR:-}
pr_dir=${SQLBENCH_PR_DIR:-}
workloads=${SQLBENCH_WORKLOADS:-}
sqlbench=${SQLBENCH:-sqlbench}
out=${SQLBENCH_OUT:-sqlbench-pr}
instr_threshold=${SQLBENCH_INSTR_THRESHOLD:-1%}
instr_count=${SQLBENCH_INSTR_COUNT:-5}
instr_scale=${SQLBENCH_INSTR_SCALE:-0.1}
time_session=${SQLBENCH_TIME:-1}
time_count=${SQLBENCH_TIME_COUNT:-10}
resolution=${SQLBENCH_RESOLUTION:-5%}
quick=${SQLBENCH_QUICK:-0}
run_args=${SQLBENCH_RUN_ARGS:-}
history_db=${SQLBENCH_HISTORY_DB:-}

# --- input (exit 2) -------------------------------------------------------
[ -n "$target" ] || bad "SQLBENCH_TARGET is not set: name the catalogue target of the driver (sqlbench list)"
[ -n "$workloads" ] || bad "SQLBENCH_WORKLOADS is not set: name the workloads to gate, comma-separated"
for v in SQLBENCH_BASE_DIR SQLBENCH_PR_DIR; do
	d=${!v-}
	[ -n "$d" ] || bad "$v is not set: the directory of the driver's checkout"
	[ -f "$d/go.mod" ] || bad "$v: $d holds no go.mod: not a checkout of a Go module"
done
base_dir=$(cd "$base_dir" && pwd) || bad "SQLBENCH_BASE_DIR: cannot enter $SQLBENCH_BASE_DIR"
pr_dir=$(cd "$pr_dir" && pwd) || bad "SQLBENCH_PR_DIR: cannot enter $SQLBENCH_PR_DIR"
# sqlbench labels a checkout by its directory's name: local-NAME.
base_label=local-$(basename "$base_dir")
pr_label=local-$(basename "$pr_dir")
[ "$base_label" != "$pr_label" ] ||
	bad "SQLBENCH_BASE_DIR and SQLBENCH_PR_DIR are both named $(basename "$pr_dir"): give them different names"
percent() { # "1%" or "0.01" -> a fraction, or nothing when it is neither
	case $1 in
	*%) awk -v p="${1%\%}" 'BEGIN { if (p ~ /^[0-9]*\.?[0-9]+$/ && p > 0) printf "%.6g", p / 100 }' ;;
	*) awk -v p="$1" 'BEGIN { if (p ~ /^0?\.[0-9]+$/ && p > 0) printf "%.6g", p }' ;;
	esac
}
instr_frac=$(percent "$instr_threshold")
[ -n "$instr_frac" ] ||
	bad "SQLBENCH_INSTR_THRESHOLD: want a percentage (1%) or a fraction (0.01), got \"$instr_threshold\""
[ -n "$(percent "$resolution")" ] ||
	bad "SQLBENCH_RESOLUTION: want a percentage (5%) or a fraction, got \"$resolution\""
for v in "SQLBENCH_INSTR_COUNT=$instr_count" "SQLBENCH_TIME_COUNT=$time_count"; do
	case ${v#*=} in '' | *[!0-9]* | 0 | 1) bad "${v%%=*}: want a count of runs of 2 or more, got \"${v#*=}\"" ;; esac
done
awk -v s="$instr_scale" 'BEGIN { exit !(s ~ /^[0-9]*\.?[0-9]+$/ && s > 0) }' ||
	bad "SQLBENCH_INSTR_SCALE: want a number above 0 (--scale), got \"$instr_scale\""
case $time_session in
0 | 1) ;;
*) bad "SQLBENCH_TIME: want 1 (run the wall-time session) or 0, got \"$time_session\"" ;;
esac
case $quick in 0 | 1) ;; *) bad "SQLBENCH_QUICK: want 1 (smoke-sized sessions) or 0, got \"$quick\"" ;; esac

# --- tools (exit 3) -------------------------------------------------------
command -v "$sqlbench" >/dev/null 2>&1 ||
	broken "no sqlbench: \"$sqlbench\" is not a program (set SQLBENCH, or install it)"
command -v jq >/dev/null 2>&1 || broken "no jq on PATH: the gate reads sqlbench's JSON report with it"
command -v valgrind >/dev/null 2>&1 || broken "no valgrind on PATH: --measure instructions counts under it"
mkdir -p "$out" || broken "cannot create the output directory $out"

base_t="$target@$base_dir" pr_t="$target@$pr_dir"
base_name="$target@$base_label" pr_name="$target@$pr_label"
# (run's --baseline takes a catalogue target only; report's takes a variant.)
common=(--targets "$base_t,$pr_t" --workloads "$workloads" --force)
[ "$quick" = 1 ] && common+=(--quick)
set -f # SQLBENCH_RUN_ARGS is split on blanks, as a command line, never globbed
# shellcheck disable=SC2206
extra=($run_args)
set +f

# session FILE ARGS...: one sqlbench run; exit 2 passes through (bad input),
# anything else not 0 is the machine's or a tool's failure.
session() {
	local file=$1
	shift
	say "$sqlbench run ${common[*]} $* ${extra[*]} -o $file"
	"$sqlbench" run "${common[@]}" "$@" "${extra[@]}" -o "$file" >"${file%.txt}.log" 2>&1
	local rc=$?
	case $rc in
	0) # the Markdown report again, its ratios against the base
		"$sqlbench" report --format markdown --baseline "$base_name" --resolution "$resolution" \
			-o "${file%.txt}" "$file" >/dev/null 2>>"${file%.txt}.log" ||
			broken "sqlbench report --format markdown of $file failed; see ${file%.txt}.log" ;;
	2) say "$(tail -n 1 "${file%.txt}.log")"; exit 2 ;;
	*) # what was skipped or failed, and why (a build's first compiler error); else the log's end
		why=$(grep -E '^(skipped |sqlbench: )|fail' "${file%.txt}.log" | head -n 20)
		if [ -n "$why" ]; then printf '%s\n' "$why" >&2; else tail -n 20 "${file%.txt}.log" >&2; fi
		broken "the session of $file exited $rc: not every cell was measured" \
			"(a build failed, a run failed); see ${file%.txt}.log" ;;
	esac
}

instr=$out/instructions.txt
instr_args=(--measure instructions --count "$instr_count")
# Under Valgrind a run takes 30-170 times as long: fewer operations (the count
# per operation does not need many). --quick sets its own, smaller scale.
[ "$quick" = 1 ] || instr_args+=(--scale "$instr_scale")
session "$instr" "${instr_args[@]}"
files=("$instr")
if [ "$time_session" = 1 ]; then
	timef=$out/time.txt
	session "$timef" --count "$time_count" --resolution "$resolution"
	files+=("$timef")
fi

# --- the gate -------------------------------------------------------------
# report FILE: the JSON report of a results file, its ratios against the base.
report() {
	"$sqlbench" report --format json -o - --baseline "$base_name" --resolution "$resolution" "$1" ||
		broken "sqlbench report of $1 failed"
}
instr_json=$(report "$instr") || exit 3
# One line per cell (its name without the driver): base median, PR median, change, verdict.
instr_rows=$(jq -r --arg b "$base_name" --arg p "$pr_name" --argjson t "$instr_frac" '
	[.cells[] | select(.target == $b or .target == $p) | .cell = (.name | sub("/driver=[^/]*"; ""))] |
	group_by(.cell)[] |
	(map(select(.target == $b))[0].stats["instructions/op"].median) as $old |
	(map(select(.target == $p))[0].stats["instructions/op"].median) as $new |
	[.[0].cell, $old, $new] |
	if .[1] == null or .[2] == null or .[1] <= 0 then .[0] + "\tmissing\t\t\tmissing"
	else . + [(.[2] / .[1] - 1)] | . + [if .[3] > $t then "REGRESSION" else "ok" end] |
		"\(.[0])\t\(.[1] | round)\t\(.[2] | round)\t" +
		"\(if .[3] >= 0 then "+" else "" end)\(.[3] * 1000 | round / 10)%\t\(.[4])" end' <<<"$instr_json") ||
	broken "cannot read the instructions report"
time_rows=
if [ "$time_session" = 1 ]; then
	time_json=$(report "$timef") || exit 3
	time_rows=$(jq -r --arg p "$pr_name" '
		.cells[] | select(.target == $p) |
		(.name | sub("/driver=[^/]*"; "")) as $cell |
		if .ratio == null then $cell + "\t\t\tmissing\tmissing"
		else "\($cell)\t\(.ratio.ratio * 100 | round / 100)×\t" +
			"[\(.ratio.lo // 0 | . * 100 | round / 100)–\(.ratio.hi // 0 | . * 100 | round / 100)×]\t" +
			"\(.ratio.verdict)\t\(if .ratio.verdict == "slower" then "REGRESSION" else "ok" end)" end' <<<"$time_json") ||
		broken "cannot read the wall-time report"
fi

# Every workload named must have a row in each session.
missing=$(printf '%s\n%s\n' "$instr_rows" "$time_rows" | awk -F'\t' '$NF == "missing" { print $1 }')
[ -z "$missing" ] || broken "no measure of both sides for: $(echo $missing)"
[ -n "$instr_rows" ] || broken "the instructions session holds no cell of $base_name and $pr_name"

regressions=0
# column escapes the bytes of × and – outside a UTF-8 locale (a CI job
# often has none): it runs in C.UTF-8, which every glibc system has.
table() { LC_ALL=C.UTF-8 column -t -s $'\t' 2>/dev/null || cat; }
{
	printf 'instructions/op, %s against %s (gate: more than %s):\n' "$pr_name" "$base_name" "$instr_threshold"
	printf 'workload\tbase\tPR\tchange\tgate\n%s\n' "$instr_rows" | table | sed 's/^/  /'
	if [ "$time_session" = 1 ]; then
		printf 'wall time, ops/s %s ÷ %s (paired, resolution %s; gate: slower):\n' "$pr_name" "$base_name" "$resolution"
		printf 'workload\tratio\tinterval\tverdict\tgate\n%s\n' "$time_rows" | table | sed 's/^/  /'
	fi
} >"$out/gate.txt"
cat "$out/gate.txt"
while IFS=$'\t' read -r w old new change verdict; do
	[ "$verdict" = REGRESSION ] || continue
	regressions=$((regressions + 1))
	say "regression: $w instructions/op $old -> $new ($change, over $instr_threshold)"
done <<<"$instr_rows"
while IFS=$'\t' read -r w ratio interval verdict gate; do
	[ "$gate" = REGRESSION ] || continue
	regressions=$((regressions + 1))
	say "regression: $w ops/s $ratio $interval of the base: $verdict"
done <<<"$time_rows"

# --- the summary and the history -----------------------------------------
{
	if [ "$regressions" -gt 0 ]; then
		printf '## sqlbench: %d regression(s) in %s\n\n' "$regressions" "$target"
	else
		printf '## sqlbench: no regression in %s\n\n' "$target"
	fi
	printf '```text\n'
	cat "$out/gate.txt"
	printf '```\n\n'
	if [ "$time_session" = 1 ] && [ -f "${timef%.txt}.md" ]; then
		printf '### The wall-time session\n\n'
		cat "${timef%.txt}.md"
		printf '\n'
	fi
	if [ -f "${instr%.txt}.md" ]; then
		printf '### The instructions session (its times are Valgrind'"'"'s, not the machine'"'"'s)\n\n'
		cat "${instr%.txt}.md"
	fi
} >"$out/summary.md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY" || say "cannot write GITHUB_STEP_SUMMARY"
fi

status=0
[ "$regressions" -gt 0 ] && status=1
if [ "$history_db" != off ]; then
	hist=("$sqlbench" history)
	[ -n "$history_db" ] && hist+=(--db "$history_db")
	if ! "${hist[@]}" record "${files[@]}" >"$out/history.log" 2>&1; then
		cat "$out/history.log" >&2
		say "recording the sessions in the history failed; see $out/history.log"
		[ "$status" = 0 ] && status=3
	fi
fi

if [ "$status" = 1 ]; then
	say "FAIL: $regressions regression(s); the summary: $out/summary.md"
elif [ "$status" = 0 ]; then
	say "PASS: no regression; the summary: $out/summary.md"
fi
exit "$status"
