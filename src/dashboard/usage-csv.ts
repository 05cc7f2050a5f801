import type { RecentCall } from "../metering/usage-report.ts";

const HEADER = ["time_utc", "request_id", "skill", "outcome", "status", "latency_ms", "key", "receipt_id"];

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The month's calls as CSV, one row per call; `outcome` is what the quota counts (answered) or not (refused). */
export function usageCsv(calls: readonly RecentCall[]): string {
  const rows = calls.map((call) => [
    new Date(call.at).toISOString(),
    call.requestId,
    call.skill,
    call.status >= 200 && call.status < 300 ? "answered" : "refused",
    String(call.status),
    call.latencyMs.toFixed(1),
    call.keyDisplayId,
    call.receiptId ?? "",
  ]);
  return `${[HEADER, ...rows].map((row) => row.map(field).join(",")).join("\r\n")}\r\n`;
}
