// The denominator of the benchmark: an Elysia POST route on the same Bun that parses the same JSON
// body, reads the Authorization header and replies with the same answer bytes the real route sends
// (taken from a real answer, passed in ANSWER_FILE), but does nothing else: no key, no limits, no
// receipt, no database. `PORT=3000 ANSWER_FILE=answer.json bun test/bench/bare-elysia.ts`
import { Elysia } from "elysia";
import { defined } from "../support/defined.ts";

const answer = (await Bun.file(defined(process.env.ANSWER_FILE, "$ANSWER_FILE in the environment")).json()) as Record<
  string,
  unknown
>;
const port = Number(process.env.PORT ?? 3000);

new Elysia()
  .post("/v1/rates/lookup", ({ body, headers }) => {
    const { origin, destination } = body as { origin: string; destination: string };
    return {
      ...answer,
      origin: { ...(answer.origin as object), input: origin },
      destination: { ...(answer.destination as object), input: destination },
      auth: headers.authorization ? "bearer" : "none",
    };
  })
  .listen({ port, hostname: "127.0.0.1" });
console.log(`listening on http://127.0.0.1:${port}`);
