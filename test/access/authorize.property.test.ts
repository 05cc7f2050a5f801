import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { decide } from "../../src/access/authorize.ts";
import { TIERS } from "../../src/access/tiers.ts";
import { CATALOG } from "../../src/skills/catalog.ts";

const SCOPES = CATALOG.scopes;
const minimumTierOf = (name: (typeof SCOPES)[number]) => CATALOG.minimumTierOf(name);

const tier = fc.constantFrom(...TIERS);
const scope = fc.constantFrom(...SCOPES);
const keyScopes = fc.option(fc.uniqueArray(scope, { minLength: 1, maxLength: SCOPES.length }), { nil: null });
const rank = (t: (typeof TIERS)[number]) => TIERS.indexOf(t);

describe("scope × tier decisions over all nine scopes", () => {
  test("a call is allowed exactly when the key holds the scope (or is unscoped) and the tier reaches the skill's minimum", () => {
    fc.assert(
      fc.property(tier, keyScopes, scope, (accountTier, scopes, skillScope) => {
        const skill = { name: skillScope, minimumTier: minimumTierOf(skillScope) };
        const decision = decide(accountTier, scopes, skill);
        const scopeOk = scopes === null || scopes.includes(skillScope);
        const tierOk = rank(accountTier) >= rank(skill.minimumTier);
        expect(decision.allowed).toBe(scopeOk && tierOk);
        if (!scopeOk) expect(decision).toEqual({ allowed: false, refusal: "SCOPE_REQUIRED" });
        else if (!tierOk) expect(decision).toEqual({ allowed: false, refusal: "TIER_REQUIRED" });
      }),
      { numRuns: 2000 },
    );
  });

  test("raising the tier never takes a skill away", () => {
    fc.assert(
      fc.property(tier, tier, keyScopes, scope, (a, b, scopes, skillScope) => {
        const [low, high] = rank(a) <= rank(b) ? [a, b] : [b, a];
        const skill = { name: skillScope, minimumTier: minimumTierOf(skillScope) };
        if (decide(low, scopes, skill).allowed) expect(decide(high, scopes, skill).allowed).toBe(true);
      }),
    );
  });

  test("the tier table matches the product contract", () => {
    expect(Object.fromEntries(CATALOG.entries.map((entry) => [entry.name, entry.minimumTier]))).toEqual({
      "rate-lookup": "explorer",
      "fuel-surcharge": "explorer",
      "diesel-trends": "explorer",
      "market-analysis": "starter",
      "lane-comparison": "starter",
      "rate-alerts": "starter",
      "carrier-capacity": "starter",
      "audit-report": "professional",
      "rate-forecast": "professional",
    });
  });
});
