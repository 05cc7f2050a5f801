#!/usr/bin/env bash
# Where the slow requests of an open-loop run fall against the server's garbage collections: the
# binary runs on CPU 0 with JavaScriptCore's GC log on (BUN_JSC_logGC=1) and a clock line every
# 20 ms (test/bench/clock-marks.ts, preloaded), fixed-rate.ts drives answered calls from CPU 1 and
# records each request's due time and latency, and gc-timeline.ts lines the two up.
# Knobs: RATE (1000), WARM_SECONDS (10), RUN_SECONDS (30), SLOW_MS (10). Loopback only, bounded.
set -euo pipefail
# Benchmarks measure answering, not data sync: the servers they start never fetch figures.
export WAYBILL_OFFLINE=1
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
RATE=${RATE:-1000}
WARM_SECONDS=${WARM_SECONDS:-10}
RUN_SECONDS=${RUN_SECONDS:-30}
SLOW_MS=${SLOW_MS:-10}
PORT=${GC_PORT:-3822}
LIMITS='{"enterprise":{"per_minute":100000000,"per_month":1000000000}}'

[ -x node_modules/.bin/bun ] || npm ci --no-audit --no-fund
OUT="$PWD/.tmp/bench/gc-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
[ -x dist/waybill ] || bun run build >/dev/null
BIN="$PWD/dist/waybill"
DB="$OUT/gc.db"

"$BIN" accounts create --email gc@bench.test --tier enterprise --json --db "$DB" >/dev/null
KEY=$("$BIN" keys create --email gc@bench.test --json --db "$DB" | sed -n 's/.*"key":"\(wbk_[0-9a-f]*\)".*/\1/p')
BUN_JSC_logGC=1 BUN_OPTIONS="--preload=$PWD/test/bench/clock-marks.ts" WAYBILL_LIMITS="$LIMITS" \
  taskset -c 0 "$BIN" serve --port "$PORT" --db "$DB" >"$OUT/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 1 200); do grep -q "listening on" "$OUT/server.log" && break; sleep 0.1; done

URL="http://127.0.0.1:$PORT/v1/rates/lookup"
taskset -c 1 bun test/bench/fixed-rate.ts "$URL" "$KEY" "$RATE" "$WARM_SECONDS" >/dev/null
TRACE_FILE="$OUT/trace.csv" taskset -c 1 bun test/bench/fixed-rate.ts "$URL" "$KEY" "$RATE" "$RUN_SECONDS" | tee "$OUT/fixed-rate.json"
bun test/bench/gc-timeline.ts "$OUT/server.log" "$OUT/trace.csv" "$SLOW_MS" | tee "$OUT/gc-timeline.json"
