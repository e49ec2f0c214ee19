#!/usr/bin/env bash
# `pnpm test:all`: every test phase in order, each under a hard time limit, so that a hang fails
# the run with the phase's name instead of running into CI's wall clock (90 min). The limits are
# about 3x what each phase takes on a loaded 2-core machine; the sum is 71 min.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm_cmd=(pnpm)
total_start=$SECONDS
summary=()

phase() {
  local name=$1 limit_s=$2
  shift 2
  local start=$SECONDS status=0
  echo
  echo "[test:all] ▶ $name (limit ${limit_s}s)"
  timeout --kill-after=30 "$limit_s" "$@" || status=$?
  local took=$((SECONDS - start))
  if [[ $status -eq 124 || $status -eq 137 ]]; then
    summary+=("$name: TIMED OUT after ${took}s")
    print_summary
    echo "[test:all] ✗ $name did not finish within ${limit_s}s" >&2
    exit 1
  elif [[ $status -ne 0 ]]; then
    summary+=("$name: FAILED (exit $status) after ${took}s")
    print_summary
    exit "$status"
  fi
  summary+=("$name: ok in ${took}s")
}

print_summary() {
  echo
  echo "[test:all] summary (total $((SECONDS - total_start))s)"
  printf '  %s\n' "${summary[@]}"
}

# typecheck, lint and format:check are each single-threaded: lint and format run beside
# typecheck (one core each) and report when typecheck is done (saves ~70 s of a ~180 s start).
# Their limits allow for sharing the 2 cores: format:check beside the other two took over 120 s
# on a loaded machine, against ~15 s alone.
side_logs=$(mktemp -d)
# A failed phase exits at once: stop whatever still runs beside it.
# (A bare `kill $(jobs -p)` with no job left fails with a usage error, which set -e turned into
# exit 2 after every phase had passed.)
trap 'pids=$(jobs -p); if [[ -n $pids ]]; then kill $pids 2>/dev/null || true; fi; rm -rf "$side_logs"' EXIT
side_phase() {
  local name=$1 limit_s=$2
  shift 2
  (
    start=$SECONDS
    status=0
    timeout --kill-after=30 "$limit_s" "$@" >"$side_logs/$name.log" 2>&1 || status=$?
    echo "$status $((SECONDS - start))" >"$side_logs/$name.status"
  ) &
}
report_side_phase() {
  local name=$1 pid=$2 beside=${3:-typecheck}
  wait "$pid" || true
  local status took
  read -r status took <"$side_logs/$name.status"
  echo
  echo "[test:all] ▶ $name (ran beside $beside)"
  cat "$side_logs/$name.log"
  if [[ $status -eq 124 || $status -eq 137 ]]; then
    summary+=("$name: TIMED OUT after ${took}s")
    print_summary
    exit 1
  elif [[ $status -ne 0 ]]; then
    summary+=("$name: FAILED (exit $status) after ${took}s")
    print_summary
    exit "$status"
  fi
  summary+=("$name: ok in ${took}s")
}

phase commits 60 "${pnpm_cmd[@]}" commits:check
side_phase lint 420 "${pnpm_cmd[@]}" lint
lint_pid=$!
side_phase format 420 "${pnpm_cmd[@]}" format:check
format_pid=$!
phase typecheck 420 "${pnpm_cmd[@]}" typecheck
report_side_phase lint "$lint_pid"
report_side_phase format "$format_pid"
# The console's production build (next build, ~2 min) runs beside the unit and integration tests,
# which spend most of their time waiting on PostgreSQL and child processes; the e2e phase then
# finds the build up to date.
side_phase "console build" 900 "${pnpm_cmd[@]}" --filter @cyclium/e2e build:console
build_pid=$!
phase "unit + integration" 1200 "${pnpm_cmd[@]}" test
report_side_phase "console build" "$build_pid" "unit + integration"
phase e2e 1200 "${pnpm_cmd[@]}" --filter @cyclium/e2e test
phase "bench --quick" 300 "${pnpm_cmd[@]}" bench --quick
phase "faults --quick" 600 "${pnpm_cmd[@]}" faults --quick
print_summary
