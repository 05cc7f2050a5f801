/**
 * No unhandled rejection or stray exception ends a serving process (docs/postgresql.md, "When
 * PostgreSQL goes away"). A child process serves HTTP, then has a promise rejected with nobody
 * listening and an exception thrown from a timer: with keepServingOnStrayErrors() installed (as
 * `serve` does) it logs both and keeps answering; without it, Bun ends the process, which shows
 * the injection is real.
 */
import { expect, test } from "bun:test";
import { resolve } from "node:path";

const STRAY_ERRORS = resolve(import.meta.dir, "../../src/ops/stray-errors.ts");

function childScript(installHandlers: boolean): string {
  return `
    import { keepServingOnStrayErrors } from ${JSON.stringify(STRAY_ERRORS)};
    if (${installHandlers}) keepServingOnStrayErrors();
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("still here") });
    console.log("port " + server.port);
    setTimeout(() => {
      void Promise.reject(new Error("injected rejection"));
      setTimeout(() => { throw new Error("injected exception"); }, 10);
    }, 50);
  `;
}

async function injectAndAsk(installHandlers: boolean) {
  const child = Bun.spawn(["bun", "-e", childScript(installHandlers)], { stdout: "pipe", stderr: "pipe" });
  try {
    const reader = child.stdout.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    const port = /port (\d+)/.exec(first)?.[1];
    if (!port) throw new Error(`the child did not start: ${first}`);
    await Bun.sleep(500); // both errors have happened by now
    const answer = await fetch(`http://127.0.0.1:${port}/`).then(
      (response) => response.text(),
      () => "no answer",
    );
    return { answer, alive: child.exitCode === null, child };
  } finally {
    child.kill("SIGKILL");
  }
}

test("with the handlers installed, a rejection nobody handles and a thrown callback are logged and the process keeps serving", async () => {
  const { answer, alive, child } = await injectAndAsk(true);
  expect({ answer, alive }).toEqual({ answer: "still here", alive: true });
  await child.exited;
  const stderr = await new Response(child.stderr).text();
  expect(stderr).toContain("unhandled_rejection");
  expect(stderr).toContain("injected rejection");
  expect(stderr).toContain("uncaught_exception");
  expect(stderr).toContain("injected exception");
});

test("without them the same injection ends the process (the test above can fail)", async () => {
  const { answer, alive } = await injectAndAsk(false);
  expect({ answer, alive }).toEqual({ answer: "no answer", alive: false });
});
