import { expect, test } from "bun:test";
import { ApiError } from "../../src/errors.ts";
import { readCappedBody } from "../../src/http/pipeline/body-cap.ts";

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://localhost/x", { method: "POST", body, headers });

test("a body with a declared length within the cap is read whole", async () => {
  const text = JSON.stringify({ origin: "Chicago, IL", destination: "Dallas, TX" });
  const bytes = await readCappedBody(post(text, { "content-length": String(Buffer.byteLength(text)) }), 1024);
  expect(new TextDecoder().decode(bytes)).toBe(text);
});

test("a body past the cap is refused with 413 whether its length is declared, understated or not given", async () => {
  const big = "x".repeat(2048);
  const refused = async (request: Request) => {
    const error = await readCappedBody(request, 1024).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(413);
  };
  await refused(post(big, { "content-length": "2048" }));
  await refused(post(big, { "content-length": "10" })); // only a Request made in-process can understate it
  const chunked = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode("x".repeat(512)));
      controller.enqueue(new TextEncoder().encode("x"));
      controller.close();
    },
  });
  await refused(post(chunked));
});
