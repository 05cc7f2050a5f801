import type { Tier } from "./tiers.ts";

/** Who a skill call runs as: the key grant (authorization object) resolved from a bearer key. */
export interface Principal {
  accountId: string;
  keyId: string;
  authObjId: string;
  tier: Tier;
  /** null: every skill the tier allows. */
  scopes: readonly string[] | null;
}
