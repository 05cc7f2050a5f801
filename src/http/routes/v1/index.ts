import { Elysia } from "elysia";
import { authenticateCaller } from "../../../access/authenticate.ts";
import type { ReceiptLog } from "../../../receipts/log/log.ts";
import { logProofRoutes } from "./log-proofs.ts";
import type { PipelineDeps } from "../../../pipeline/run-skill.ts";
import { publicKeyRoute, type PublicKeyRouteDeps } from "./public-key.ts";
import { batchRoutes, type BatchRouteDeps } from "./batch.ts";
import { eventsRoute } from "./events.ts";
import { skillRoutes } from "./skills.ts";
import { usageRoute, type UsageRouteDeps } from "./usage.ts";

/**
 * Every /v1 route, mounted here and nowhere else: each skill's REST route, /v1/agent/invoke/:skill
 * and /v1/skills (from the skill declarations), the bid sheets under /v1/rates/batch, /v1/usage, /v1/events, /v1/receipts/public-key and the
 * log proofs /v1/log/inclusion and /v1/log/consistency.
 */
export function v1Routes(
  runtime: PipelineDeps & BatchRouteDeps & UsageRouteDeps & PublicKeyRouteDeps & { log: ReceiptLog },
) {
  const authenticateKey = (authorization: string | undefined) => authenticateCaller(runtime, authorization);
  return new Elysia({ name: "v1" })
    .use(publicKeyRoute(runtime))
    .use(logProofRoutes(runtime))
    .use(skillRoutes(runtime, runtime.skills))
    .use(batchRoutes(runtime))
    .use(usageRoute(runtime, authenticateKey))
    .use(eventsRoute(runtime.db, authenticateKey));
}
