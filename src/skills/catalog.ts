import { tierAtLeast, TIERS, type Tier } from "../access/tiers.ts";
import { ANNOUNCED_SKILLS, SKILLS } from "./registry.ts";

/** A skill's name, which is the scope a key needs to call it: every registered or announced skill. */
export type Scope = (typeof SKILLS)[number]["name"] | (typeof ANNOUNCED_SKILLS)[number]["name"];

export interface CatalogEntry {
  name: string;
  minimumTier: Tier;
  /** Announced in the contract, not served yet. */
  announced: boolean;
}

/**
 * The scope list and tier table, derived from the skills an instance serves plus the announced ones:
 * lowest tier first, registry order within a tier.
 */
export class SkillCatalog {
  readonly entries: readonly CatalogEntry[];

  constructor(
    skills: readonly { name: string; minimumTier: Tier }[],
    announced: readonly { name: string; minimumTier: Tier }[] = ANNOUNCED_SKILLS,
  ) {
    const served = new Set(skills.map((skill) => skill.name));
    const all = [
      // One entry per skill: the operations of a skill with several share its name.
      ...[...new Map(skills.map((skill) => [skill.name, skill])).values()].map(({ name, minimumTier }) => ({
        name,
        minimumTier,
        announced: false,
      })),
      ...announced
        .filter(({ name }) => !served.has(name))
        .map(({ name, minimumTier }) => ({ name, minimumTier, announced: true })),
    ];
    this.entries = TIERS.flatMap((tier) => all.filter((entry) => entry.minimumTier === tier));
  }

  get scopes(): Scope[] {
    return this.entries.map((entry) => entry.name as Scope);
  }

  isScope(name: string): name is Scope {
    return this.entries.some((entry) => entry.name === name);
  }

  minimumTierOf(name: Scope): Tier {
    const entry = this.entries.find((candidate) => candidate.name === name);
    if (!entry) throw new Error(`no skill named ${name}`);
    return entry.minimumTier;
  }

  /** The scopes a tier may put on a key. */
  scopesForTier(tier: Tier): Scope[] {
    return this.entries.filter((entry) => tierAtLeast(tier, entry.minimumTier)).map((entry) => entry.name as Scope);
  }
}

/** The catalog of the skills this build registers: what the CLI checks scope names against. */
export const CATALOG = new SkillCatalog(SKILLS);
