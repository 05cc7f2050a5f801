#!/usr/bin/env bash
# Soak: answered rate lookups at full speed (wrk, 32 connections, server CPU 0 / wrk CPU 1) for
# SOAK_SECONDS (120), sampling the server's RSS and the WAL file's size every 10 s. Flat RSS and a
# WAL that keeps being started over (every 4,000 pages, cut back to 16 MiB) rather than growing are the pass conditions;
# they are printed, not asserted. Loopback only, bounded. Writes a summary line into
# docs/benchmarks.md between the soak markers (inside the benchmark block) unless KEEP_RESULTS=1.
set -euo pipefail
# Benchmarks measure answering, not data sync: the servers they start never fetch figures.
export WAYBILL_OFFLINE=1
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
SOAK_SECONDS=${SOAK_SECONDS:-120}
PORT=${SOAK_PORT:-3821}
LIMITS='{"enterprise":{"per_minute":100000000,"per_month":1000000000}}'

[ -x node_modules/.bin/bun ] || npm ci --no-audit --no-fund
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }

OUT="$PWD/.tmp/bench/soak-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
[ -x dist/waybill ] || bun run build >/dev/null
cp dist/waybill "$OUT/waybill"
BIN="$OUT/waybill"
DB="$OUT/soak.db"

"$BIN" accounts create --email soak@bench.test --tier enterprise --json --db "$DB" >/dev/null
KEY=$("$BIN" keys create --email soak@bench.test --json --db "$DB" | sed -n 's/.*"key":"\(wbk_[0-9a-f]*\)".*/\1/p')
WAYBILL_LIMITS="$LIMITS" taskset -c 0 "$BIN" serve --port "$PORT" --db "$DB" >"$OUT/waybill.log" 2>&1 &
SERVER=$!
WRK=""
trap 'kill $SERVER ${WRK:-} 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 1 200); do grep -q "listening on" "$OUT/waybill.log" && break; sleep 0.1; done

BENCH_KEY="$KEY" taskset -c 1 wrk -t1 -c32 -d"${SOAK_SECONDS}s" --latency -s test/bench/post.lua "http://127.0.0.1:$PORT/v1/rates/lookup" >"$OUT/wrk.txt" &
WRK=$!
rss_mb() { awk '/^VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$SERVER/status"; }
wal_mb() { awk -v b="$(stat -c %s "$DB-wal" 2>/dev/null || echo 0)" 'BEGIN {printf "%.1f", b / 1048576}'; }
echo "  t(s)  RSS(MB)  WAL(MB)" | tee "$OUT/samples.txt"
for t in $(seq 0 10 "$SOAK_SECONDS"); do
  printf "%6d %8s %8s\n" "$t" "$(rss_mb)" "$(wal_mb)" | tee -a "$OUT/samples.txt"
  [ "$t" -lt "$SOAK_SECONDS" ] && sleep 10
done
wait "$WRK"
WRK=""
grep -E "requests in|Requests/sec|Non-2xx" "$OUT/wrk.txt" || true

SUMMARY=$(awk -v secs="$SOAK_SECONDS" -v reqs="$(sed -n 's/ *\([0-9]*\) requests in.*/\1/p' "$OUT/wrk.txt")" '
  NR > 1 { n++; rss[n] = $2; wal[n] = $3; if ($3 > walmax) walmax = $3 }
  END {
    rssmin = rss[2]; rssmax = rss[2]
    for (i = 2; i <= n; i++) { if (rss[i] < rssmin) rssmin = rss[i]; if (rss[i] > rssmax) rssmax = rss[i] }
    printf "- **soak** (%d s of answered calls at 32 connections, %d requests, samples every 10 s): RSS %s MB at 10 s, %s–%s MB from then on, %s MB at the end; WAL at most %s MB, %s MB at the end. Samples: RSS", secs, reqs, rss[2], rssmin, rssmax, rss[n], walmax, wal[n]
    for (i = 1; i <= n; i++) printf " %s", rss[i]
    printf "; WAL"
    for (i = 1; i <= n; i++) printf " %s", wal[i]
    printf " (MB).\n"
  }' "$OUT/samples.txt")
echo "$SUMMARY"
if [ "${KEEP_RESULTS:-0}" != 1 ]; then
  SOAK_SUMMARY="$SUMMARY" bun -e '
    import { BENCH_MARKERS, BENCHMARKS_PAGE as page, ensureBlock, replaceBetween, SOAK_MARKERS, textBetween } from "./test/bench/results-block.ts";
    const summary = process.env.SOAK_SUMMARY;
    ensureBlock(page, "Benchmark", ...BENCH_MARKERS);
    if (!require("node:fs").readFileSync(page, "utf8").includes(SOAK_MARKERS[0])) {
      const bench = textBetween(page, ...BENCH_MARKERS);
      replaceBetween(page, ...BENCH_MARKERS, `${bench}\n\n${SOAK_MARKERS[0]}\n${SOAK_MARKERS[1]}`);
    }
    replaceBetween(page, ...SOAK_MARKERS, summary);
  '
fi
