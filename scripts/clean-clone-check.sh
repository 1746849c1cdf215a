#!/usr/bin/env bash
# The check CI runs, on this machine: a clean clone of a commit (HEAD by default; what is not
# committed is not in it), then `.ci/run` (`npm ci && npm test`) with CI=true and no standard
# input, timed. Repeats it --runs times, each in a clone of its own, and prints one line a run and
# the slowest tests of the last one. Exits non-zero when a run fails or takes longer than --limit.
#
#   bash scripts/clean-clone-check.sh [--runs N] [--ref REF] [--limit SECONDS] [--keep]
#
# Each clone goes into a new temporary folder that is removed afterwards (--keep leaves it); the
# log of each run is kept when the run fails, and named. Nothing else is touched.
set -euo pipefail

runs=1
ref=HEAD
limit=360
keep=false
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --ref) ref="${2:?--ref needs a commit}"; shift 2 ;;
    --limit) limit="${2:?--limit needs seconds}"; shift 2 ;;
    --keep) keep=true; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "clean-clone-check: unknown option \"$1\" (see --help)" >&2; exit 2 ;;
  esac
done
case "$runs" in ''|*[!0-9]*|0) echo "clean-clone-check: --runs must be a positive whole number, not \"$runs\"" >&2; exit 2 ;; esac
case "$limit" in ''|*[!0-9]*) echo "clean-clone-check: --limit must be whole seconds, not \"$limit\"" >&2; exit 2 ;; esac

repo="$(cd "$(dirname "$0")/.." && pwd)"
commit="$(git -C "$repo" rev-parse --verify --quiet "$ref^{commit}")" || { echo "clean-clone-check: \"$ref\" is not a commit of $repo" >&2; exit 2; }
if [ -n "$(git -C "$repo" status --porcelain)" ]; then
  echo "clean-clone-check: note: the working tree has changes that are not committed; the check runs ${commit:0:12} without them" >&2
fi

dir=''
log=''
child=''
# Stopped (Ctrl-C, SIGTERM): the run's processes are ended and its clone removed; its log is kept.
stop() {
  trap - INT TERM
  if [ -n "$child" ]; then
    # npm ci may outlive SIGTERM (it waits for install scripts): five seconds, then SIGKILL.
    kill -TERM -- "-$child" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$child" 2>/dev/null || break; sleep 0.5; done
    kill -KILL -- "-$child" 2>/dev/null || true
    wait "$child" 2>/dev/null || true
  fi
  if [ -n "$dir" ] && [ "$keep" != true ]; then rm -rf "$dir"; fi
  if [ -n "$log" ]; then echo "clean-clone-check: stopped; the log so far: $log" >&2; fi
  exit 130
}
trap stop INT TERM

failed=0
for run in $(seq 1 "$runs"); do
  dir="$(mktemp -d "${TMPDIR:-/tmp}/clean-clone-check.XXXXXX")"
  log="$(mktemp "${TMPDIR:-/tmp}/clean-clone-check-log.XXXXXX")"
  git clone --quiet --no-hardlinks "$repo" "$dir/repo"
  git -C "$dir/repo" checkout --quiet --detach "$commit"
  start=$(date +%s.%N)
  status=0
  # In a process group of its own, so that a stop ends npm, vitest and every browser with it.
  setsid bash -c 'cd "$1" && CI=true exec bash .ci/run' _ "$dir/repo" < /dev/null > "$log" 2>&1 &
  child=$!
  wait "$child" || status=$?
  child=''
  seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
  summary="$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1 || true)"
  verdict=ok
  if [ "$status" -ne 0 ]; then verdict="FAILED (exit $status)"; elif [ "$seconds" -gt "$limit" ]; then verdict="TOO SLOW (limit ${limit} s)"; fi
  echo "run $run/$runs of ${commit:0:12}: ${seconds} s, ${summary:-no summary line}: $verdict"
  if [ "$verdict" != ok ]; then
    failed=$((failed + 1))
    echo "  log kept: $log" >&2
  else
    if [ "$run" -eq "$runs" ]; then sed 's/\x1b\[[0-9;]*m//g' "$log" | sed -n '/^Slowest tests:/,/^$/p'; fi
    rm -f "$log"
  fi
  if [ "$keep" = true ]; then echo "  clone kept: $dir"; else rm -rf "$dir"; fi
done
[ "$failed" -eq 0 ]
