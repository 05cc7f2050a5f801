/**
 * The server's log: one line per event on stdout (errors on stderr), as JSON (one object per line,
 * for a log shipper) or as text (for a terminal), filtered by level. `--log-format` and
 * `--log-level` configure it at start; tests may swap the writer.
 *
 * Repeated identical failures are rate-limited: the first of a kind is written in full (with its
 * stack), then at most one line per kind every REPEAT_WINDOW_MS saying how many were suppressed,
 * so a full disk or a flood of failing requests cannot fill the disk with copies of one trace.
 */
export type LogFormat = "text" | "json";
export const LOG_FORMATS: readonly LogFormat[] = ["text", "json"];
export type LogLevel = "debug" | "info" | "warn" | "error";
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const REPEAT_WINDOW_MS = 10_000;

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface LogSettings {
  format: LogFormat;
  level: LogLevel;
  write(line: string, level: LogLevel): void;
  now(): number;
}

/**
 * stdout lines (the access log: one per request) wait until the end of the event-loop turn and go
 * out in one write, instead of one write system call per request; warnings and errors go to stderr
 * at once. Whatever is waiting is written before the process exits.
 */
const STDOUT_FLUSH_BYTES = 64 * 1024;
let pendingStdout = "";
let stdoutFlushScheduled = false;

function flushStdout(): void {
  stdoutFlushScheduled = false;
  if (pendingStdout === "") return;
  const text = pendingStdout;
  pendingStdout = "";
  process.stdout.write(text);
}
process.on("exit", flushStdout);

function defaultWrite(line: string, level: LogLevel): void {
  if (level === "error" || level === "warn") {
    process.stderr.write(`${line}\n`);
    return;
  }
  pendingStdout += `${line}\n`;
  if (pendingStdout.length >= STDOUT_FLUSH_BYTES) flushStdout();
  else if (!stdoutFlushScheduled) {
    stdoutFlushScheduled = true;
    setImmediate(flushStdout);
  }
}

let settings: LogSettings = { format: "text", level: "info", write: defaultWrite, now: () => Date.now() };
const repeats = new Map<string, { windowStart: number; suppressed: number }>();

export function configureLog(change: Partial<LogSettings>): void {
  settings = { ...settings, ...change };
  repeats.clear();
}

/** The ISO time of the last line, kept for the lines of the same millisecond (one per request under load). */
let lastTime = { ms: Number.NaN, iso: "" };

function isoTime(ms: number): string {
  if (ms !== lastTime.ms) lastTime = { ms, iso: new Date(ms).toISOString() };
  return lastTime.iso;
}

const LEVEL_LABEL: Record<LogLevel, string> = { debug: "DEBUG", info: "INFO ", warn: "WARN ", error: "ERROR" };
const NEEDS_QUOTES = /[\s"=]/;

function render(level: LogLevel, event: string, fields: LogFields): string {
  const time = isoTime(settings.now());
  if (settings.format === "json") return JSON.stringify({ time, level, event, ...fields });
  let line = `${time} ${LEVEL_LABEL[level]} ${event}`;
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined) continue;
    line += ` ${name}=${typeof value === "string" && NEEDS_QUOTES.test(value) ? JSON.stringify(value) : String(value)}`;
  }
  return line;
}

function emit(level: LogLevel, event: string, fields: LogFields): void {
  if (RANK[level] < RANK[settings.level]) return;
  settings.write(render(level, event, fields), level);
}

export const log = {
  debug: (event: string, fields: LogFields = {}) => emit("debug", event, fields),
  info: (event: string, fields: LogFields = {}) => emit("info", event, fields),
  warn: (event: string, fields: LogFields = {}) => emit("warn", event, fields),
  error: (event: string, fields: LogFields = {}) => emit("error", event, fields),

  /**
   * An unexpected error. The first of its kind (same event, error name and message) in a window is
   * written with its stack; later ones in the window are only counted, and the next one after the
   * window says how many were suppressed.
   */
  failure(event: string, error: unknown, fields: LogFields = {}): void {
    const name = (error as Error)?.name ?? typeof error;
    const text = String((error as Error)?.message ?? error);
    const newline = text.indexOf("\n");
    const message = newline === -1 ? text : text.slice(0, newline);
    const kind = `${event}\u0000${name}\u0000${message}`;
    const now = settings.now();
    const seen = repeats.get(kind);
    if (seen && now - seen.windowStart < REPEAT_WINDOW_MS) {
      seen.suppressed += 1;
      return;
    }
    repeats.set(kind, { windowStart: now, suppressed: 0 });
    const oldest = repeats.keys().next();
    if (repeats.size > 1000 && !oldest.done) repeats.delete(oldest.value);
    const stack = seen ? undefined : (error as Error)?.stack;
    emit("error", event, {
      ...fields,
      error: name,
      message,
      ...(seen ? { suppressed_since_last: seen.suppressed } : {}),
      ...(stack ? { stack } : {}),
    });
  },
};
