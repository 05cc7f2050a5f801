// The second denominator of the benchmark, the "durable floor": the least any receipted service must
// do per answered call. An Elysia POST route on the same Bun that parses the same JSON body, hashes
// it (SHA-256 of its JSON), appends one row per request through the same group commit as Waybill
// (src/db/group-commit.ts: one transaction per event-loop turn, WAL, fsynced off the event loop), answers only
// once that row is durable, and replies with the same answer bytes as the real route.
// `PORT=3000 ANSWER_FILE=answer.json DB=floor.db bun test/bench/durable-floor.ts`
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { Elysia } from "elysia";
import { PRAGMAS, type Db } from "../../src/db/client.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { defined } from "../support/defined.ts";

const answer = (await Bun.file(defined(process.env.ANSWER_FILE, "$ANSWER_FILE in the environment")).json()) as Record<
  string,
  unknown
>;
const port = Number(process.env.PORT ?? 3000);
const sqlite = new Database(process.env.DB ?? "floor.db", { create: true, strict: true });
for (const pragma of PRAGMAS) sqlite.run(`PRAGMA ${pragma}`);
sqlite.run(
  "CREATE TABLE IF NOT EXISTS floor (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, body TEXT NOT NULL, hash TEXT NOT NULL)",
);
const insert = sqlite.prepare("INSERT INTO floor (at, body, hash) VALUES (?, ?, ?)");
// engine "sqlite": the committer takes the SQLite file path (prepared BEGIN/COMMIT, the fsync off the
// event loop, checkpoints in a worker), as it does for Waybill's own database.
const committer = new GroupCommitter({ $client: sqlite, engine: "sqlite" } as unknown as Db);

new Elysia()
  .post("/v1/rates/lookup", async ({ body, headers }) => {
    const text = JSON.stringify(body);
    const hash = createHash("sha256").update(text).digest("hex");
    const id = await committer.commit(() => insert.run(Date.now(), text, hash).lastInsertRowid);
    const { origin, destination } = body as { origin: string; destination: string };
    return {
      ...answer,
      origin: { ...(answer.origin as object), input: origin },
      destination: { ...(answer.destination as object), input: destination },
      receipt_id: `floor_${id}`,
      auth: headers.authorization ? "bearer" : "none",
    };
  })
  .listen({ port, hostname: "127.0.0.1" });
console.log(`listening on http://127.0.0.1:${port}`);
