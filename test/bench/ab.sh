#!/usr/bin/env bash
# Two builds under the same conditions: `bash test/bench/ab.sh BIN_A BIN_B` starts both binaries at
# once on core 0, each with its own fresh database, and drives each with its own wrk (32 connections,
# answered rate lookups, one lane) from core 1 at the same time. The core is shared fairly, so the
# ratio of their answered calls is the inverse ratio of their CPU per call, and a slower or faster
# spell of the machine falls on both alike. Back-to-back runs of one build on this machine differ by
# up to 25 % from one minute to the next; run side by side, a build against itself differs by ≤ 7 %
# (docs/performance.md, "Two builds side by side"). The sides swap every round.
# Each side's p99 latency (wrk's) is printed beside the ratio.
# Knobs: ROUNDS (4), DURATION (10 s), WARM (5 s), SCRIPT (post.lua: one lane; lanes.lua: a Zipf mix of
# real city pairs). Loopback only; every run is bounded.
set -euo pipefail
# Benchmarks measure answering, not data sync: the servers they start never fetch figures.
export WAYBILL_OFFLINE=1
cd "$(dirname "$0")/../.."
[ $# -eq 2 ] && [ -x "$1" ] && [ -x "$2" ] || { echo "usage: ab.sh BIN_A BIN_B (two waybill binaries)" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is missing: run npm run bench once, which installs it" >&2; exit 2; }
ROUNDS=${ROUNDS:-4}
DURATION=${DURATION:-10}
SCRIPT=${SCRIPT:-post.lua}
WARM=${WARM:-5}
OUT="$PWD/.tmp/bench/ab-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
LIMITS='{"enterprise":{"per_minute":100000000,"per_month":1000000000}}'
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

declare -A KEYS PORTS=([a]=3891 [b]=3892)
start() { # binary, name → the server's pid in $STARTED
  local bin=$1 name=$2 port=${PORTS[$2]}
  "$bin" accounts create --email ab@bench.test --tier enterprise --json --db "$OUT/$name.db" >/dev/null
  KEYS[$name]=$("$bin" keys create --email ab@bench.test --json --db "$OUT/$name.db" | sed -n 's/.*"key":"\(wbk_[0-9a-f]*\)".*/\1/p')
  WAYBILL_LIMITS="$LIMITS" taskset -c 0 "$bin" serve --port "$port" --db "$OUT/$name.db" >"$OUT/$name.log" 2>&1 &
  STARTED=$!
  PIDS+=("$STARTED")
  for _ in $(seq 1 200); do grep -q "listening on" "$OUT/$name.log" && return 0; sleep 0.1; done
  echo "$name did not start" >&2; cat "$OUT/$name.log" >&2; exit 1
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
load() { # name, seconds, output
  BENCH_KEY=${KEYS[$1]} taskset -c 1 wrk -t1 -c32 -d"$2"s --latency -s "test/bench/$SCRIPT" \
    "http://127.0.0.1:${PORTS[$1]}/v1/rates/lookup" >"$3"
}
answered() { awk '/requests in/ {print $1}' "$1"; }
# wrk's 99th percentile in milliseconds.
p99() { awk '$1 == "99%" {print $2}' "$1" | python3 -c "import sys, re; v, u = re.match(r'([\d.]+)(\w+)', sys.stdin.read().strip()).groups(); print(f'{float(v) * {\"us\": 0.001, \"ms\": 1, \"s\": 1000}[u]:.1f}')"; }
median() { sort -n | python3 -c "import sys, statistics; print(f'{statistics.median(float(x) for x in sys.stdin):.3f}')"; }

RATIOS=() P99_A=() P99_B=()
for round in $(seq 1 "$ROUNDS"); do
  # Odd rounds start A (server and wrk) first; even rounds B.
  rm -f "$OUT"/a.db* "$OUT"/b.db*
  if [ $((round % 2)) -eq 1 ]; then
    first=a second=b
    start "$1" a; PID_A=$STARTED; start "$2" b; PID_B=$STARTED
  else
    first=b second=a
    start "$2" b; PID_B=$STARTED; start "$1" a; PID_A=$STARTED
  fi
  load "$first" "$WARM" /dev/null & WRK=$!
  load "$second" "$WARM" /dev/null; wait "$WRK"
  A0=$(cpu_ticks "$PID_A"); B0=$(cpu_ticks "$PID_B")
  load "$first" "$DURATION" "$OUT/$first.wrk" & WRK=$!
  load "$second" "$DURATION" "$OUT/$second.wrk"; wait "$WRK"
  A1=$(cpu_ticks "$PID_A"); B1=$(cpu_ticks "$PID_B")
  N_A=$(answered "$OUT/a.wrk"); N_B=$(answered "$OUT/b.wrk")
  RATIO=$(python3 -c "print(f'{$N_B / $N_A:.3f}')")
  RATIOS+=("$RATIO")
  PA=$(p99 "$OUT/a.wrk"); PB=$(p99 "$OUT/b.wrk"); P99_A+=("$PA"); P99_B+=("$PB")
  echo "round $round: A $N_A answers ($(( (A1 - A0) * 10000 / N_A )) µs CPU each, p99 $PA ms), B $N_B ($(( (B1 - B0) * 10000 / N_B )) µs, p99 $PB ms), B/A $RATIO"
  kill "$PID_A" "$PID_B"; wait "$PID_A" "$PID_B" 2>/dev/null || true
done
echo "B/A answered, median of $ROUNDS rounds: $(printf '%s\n' "${RATIOS[@]}" | median)" \
  "(p99 A $(printf '%s\n' "${P99_A[@]}" | median) ms, B $(printf '%s\n' "${P99_B[@]}" | median) ms)"
