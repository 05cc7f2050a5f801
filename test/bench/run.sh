#!/usr/bin/env bash
# The benchmark (`npm run bench`): build the binary, start it with high limits, and drive it with wrk
# from the other core (server CPU 0, load CPU 1), at 32 and 1 connections:
#   answered  — rate lookups that are answered (receipt, usage row, month count, fsync'd commit), one lane
#               asked again and again, so the server's kept answer serves it after the first call
#   distinct  — answered rate lookups where nearly every call is a new question (post-distinct.lua)
#   minute    — calls refused by the minute window (a tier whose limit is 1 per minute)
#   unknown   — calls with a well-formed key that was never issued
#   bare      — a bare Elysia POST route on the same Bun parsing the same body (the denominator)
#   floor     — the durable floor: the same body parsed, hashed and appended as one row under the
#               same group commit and synchronous=FULL before answering (test/bench/durable-floor.ts)
# Rounds interleave the scenarios; the table gives medians. Then as many rounds of answered calls
# side by side with the floor and with bare Elysia (both driven at once), whose ratios do not drift
# with the machine as those of runs minutes apart do. Then a fixed 1,000 req/s run of
# `answered`, `floor` and `bare` (test/bench/fixed-rate.ts) for p99 at that load, and the disk's own
# fsync latency (test/bench/fsync-latency.ts). Loopback only; every run is bounded.
# Results go to .tmp/bench/<time>/ and into docs/benchmarks.md between the bench markers.
# Knobs: ROUNDS (3), DURATION (8s), RATE (1000), RATE_SECONDS (20), KEEP_RESULTS=1 to leave docs/benchmarks.md alone.
set -euo pipefail
# Benchmarks measure answering, not data sync: the servers they start never fetch figures.
export WAYBILL_OFFLINE=1
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
# `npm run bench -- --replicas 1,3`: the replica bench on PostgreSQL instead (test/bench/replicas.ts).
if [ "${1:-}" = "--replicas" ]; then exec bun test/bench/replicas.ts "$@"; fi
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-8s}
RATE=${RATE:-1000}
RATE_SECONDS=${RATE_SECONDS:-20}
WAYBILL_PORT=${WAYBILL_PORT:-3811}
BARE_PORT=${BARE_PORT:-3812}
FLOOR_PORT=${FLOOR_PORT:-3813}
# explorer: 1 call a minute, so a second call is refused by the minute window; enterprise: never limited.
LIMITS='{"enterprise":{"per_minute":100000000,"per_month":1000000000},"explorer":{"per_minute":1,"per_month":1000000000}}'

[ -x node_modules/.bin/bun ] || npm ci --no-audit --no-fund
if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

OUT="$PWD/.tmp/bench/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
bun run build >/dev/null
# A private copy: another build in this checkout must not swap the binary mid-run.
cp dist/waybill "$OUT/waybill"
BIN="$OUT/waybill"
DB="$OUT/bench.db"

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

wait_for_line() { # file, text: up to 20 s
  for _ in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "timed out waiting for '$2' in $1" >&2; cat "$1" >&2; exit 1
}
key_of() { sed -n 's/.*"key":"\(wbk_[0-9a-f]*\)".*/\1/p'; }

"$BIN" accounts create --email answered@bench.test --tier enterprise --json --db "$DB" >/dev/null
"$BIN" accounts create --email minute@bench.test --tier explorer --json --db "$DB" >/dev/null
ANSWERED_KEY=$("$BIN" keys create --email answered@bench.test --json --db "$DB" | key_of)
MINUTE_KEY=$("$BIN" keys create --email minute@bench.test --json --db "$DB" | key_of)
UNKNOWN_KEY=$(bun -e 'import { generateApiKey } from "./src/access/api-key.ts"; console.log(generateApiKey())')

WAYBILL_LIMITS="$LIMITS" taskset -c 0 "$BIN" serve --port "$WAYBILL_PORT" --db "$DB" >"$OUT/waybill.log" 2>&1 &
WAYBILL_PID=$!
PIDS+=("$WAYBILL_PID")
wait_for_line "$OUT/waybill.log" "listening on"
URL="http://127.0.0.1:$WAYBILL_PORT/v1/rates/lookup"
BODY='{"origin":"Chicago, IL","destination":"Dallas, TX","equipment":"DRY_VAN"}'
call() { curl -s -o "$2" -w '%{http_code}' -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $1" -d "$BODY" "$URL"; }
[ "$(call "$ANSWERED_KEY" "$OUT/answer.json")" = 200 ] || { echo "answered key was not answered" >&2; exit 1; }
call "$MINUTE_KEY" /dev/null >/dev/null # spends the one call of the minute
[ "$(call "$MINUTE_KEY" /dev/null)" = 429 ] || { echo "minute key was not refused with 429" >&2; exit 1; }
[ "$(call "$UNKNOWN_KEY" /dev/null)" = 401 ] || { echo "unknown key was not refused with 401" >&2; exit 1; }

ANSWER_FILE="$OUT/answer.json" PORT="$BARE_PORT" taskset -c 0 bun test/bench/bare-elysia.ts >"$OUT/bare.log" 2>&1 &
BARE_PID=$!
PIDS+=("$BARE_PID")
wait_for_line "$OUT/bare.log" "listening on"

ANSWER_FILE="$OUT/answer.json" PORT="$FLOOR_PORT" DB="$OUT/floor.db" taskset -c 0 bun test/bench/durable-floor.ts >"$OUT/floor.log" 2>&1 &
FLOOR_PID=$!
PIDS+=("$FLOOR_PID")
wait_for_line "$OUT/floor.log" "listening on"

# name | port | key | server pid | wrk script
SCENARIOS=(
  "answered|$WAYBILL_PORT|$ANSWERED_KEY|$WAYBILL_PID|post.lua"
  "distinct|$WAYBILL_PORT|$ANSWERED_KEY|$WAYBILL_PID|post-distinct.lua"
  "minute|$WAYBILL_PORT|$MINUTE_KEY|$WAYBILL_PID|post.lua"
  "unknown|$WAYBILL_PORT|$UNKNOWN_KEY|$WAYBILL_PID|post.lua"
  "bare|$BARE_PORT|$ANSWERED_KEY|$BARE_PID|post.lua"
  "floor|$FLOOR_PORT|$ANSWERED_KEY|$FLOOR_PID|post.lua"
)
cpu_ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/machine.txt"
echo "bun $(bun --version), $(nproc) cpus, $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2)" | tee -a "$OUT/machine.txt"

for round in $(seq 1 "$ROUNDS"); do
  for scenario in "${SCENARIOS[@]}"; do
    IFS='|' read -r name port key pid script <<<"$scenario"
    target="http://127.0.0.1:$port/v1/rates/lookup"
    BENCH_KEY="$key" taskset -c 1 wrk -t1 -c32 -d2s -s "test/bench/$script" "$target" >/dev/null # warm-up
    for conns in 32 1; do
      run="$OUT/$name.c$conns.r$round"
      before=$(cpu_ticks "$pid")
      BENCH_KEY="$key" taskset -c 1 wrk -t1 -c"$conns" -d"$DURATION" --latency -s "test/bench/$script" "$target" >"$run.wrk"
      echo "server_cpu_ticks $(($(cpu_ticks "$pid") - before))" >>"$run.wrk"
      echo "wal_bytes $(stat -c %s "$DB-wal" 2>/dev/null || echo 0)" >>"$run.wrk"
    done
    echo "round $round: $name done"
  done
done

# Side by side: answered calls and one denominator driven at once (32 connections each), the two
# servers sharing core 0. A slow or fast spell of the machine then falls on both alike, where two
# runs minutes apart can differ by a quarter (docs/performance.md, "Two builds side by side").
# Each side's server CPU is kept too: the servers' threads, not the processes, share the core, so
# the ratio of answered calls can favour the server with more threads at work; the ratio of CPU
# per call does not.
for round in $(seq 1 "$ROUNDS"); do
  for base in floor:$FLOOR_PORT:$FLOOR_PID bare:$BARE_PORT:$BARE_PID; do
    IFS=: read -r base_name base_port base_pid <<<"$base"
    run="$OUT/side-$base_name.r$round"
    base_url="http://127.0.0.1:$base_port/v1/rates/lookup"
    # Which wrk starts first alternates by round.
    if [ $((round % 2)) -eq 1 ]; then order="answered base"; else order="base answered"; fi
    loads=()
    answered_before=$(cpu_ticks "$WAYBILL_PID")
    base_before=$(cpu_ticks "$base_pid")
    for side in $order; do
      if [ "$side" = answered ]; then target=$URL; else target=$base_url; fi
      BENCH_KEY="$ANSWERED_KEY" taskset -c 1 wrk -t1 -c32 -d"$DURATION" -s test/bench/post.lua "$target" >"$run.$side.txt" &
      loads+=("$!")
    done
    wait "${loads[@]}"
    echo "server_cpu_ticks $(($(cpu_ticks "$WAYBILL_PID") - answered_before))" >>"$run.answered.txt"
    echo "server_cpu_ticks $(($(cpu_ticks "$base_pid") - base_before))" >>"$run.base.txt"
  done
  echo "round $round: side by side done"
done

echo "fixed rate: $RATE req/s for $RATE_SECONDS s (answered, then the durable floor and bare Elysia at the same rate)"
taskset -c 1 bun test/bench/fixed-rate.ts "$URL" "$ANSWERED_KEY" "$RATE" "$RATE_SECONDS" >"$OUT/fixed-rate.json"
cat "$OUT/fixed-rate.json"
for base in floor:$FLOOR_PORT bare:$BARE_PORT; do
  taskset -c 1 bun test/bench/fixed-rate.ts "http://127.0.0.1:${base#*:}/v1/rates/lookup" "$ANSWERED_KEY" "$RATE" "$RATE_SECONDS" >"$OUT/fixed-rate-${base%%:*}.json"
  cat "$OUT/fixed-rate-${base%%:*}.json"
done
# The disk's own fsync latency, next to the database (the floor under any durable answer's wait).
taskset -c 1 bun test/bench/fsync-latency.ts "$OUT" >"$OUT/fsync.json"
cat "$OUT/fsync.json"
# Stored bytes per receipt (the receipt, usage, tile and checkpoint tables and their indexes).
bun test/bench/storage.ts "$DB" >"$OUT/storage.json"
cat "$OUT/storage.json"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/machine.txt"

if [ "${KEEP_RESULTS:-0}" = 1 ]; then
  bun test/bench/report.ts "$OUT"
else
  bun test/bench/report.ts "$OUT" docs/benchmarks.md
fi
