// Preloaded into the server by test/bench/gc-timeline.sh: writes the wall clock to stderr every
// 20 ms, into the same stream as JavaScriptCore's GC log (BUN_JSC_logGC=1), so each collection can
// be placed between two known instants. Not part of the product.
export {};

const MARK_EVERY_MS = 20;
setInterval(() => process.stderr.write(`clock ${Date.now()}\n`), MARK_EVERY_MS).unref();
