import type { AnySkill } from "../../../skills/types.ts";

/** One skill as the plain-text documents list it: how to call it and who may. */
interface SkillLine {
  name: string;
  method: string;
  path: string;
  tier: string;
  summary: string;
}

/** The first sentence of a description, for one-line listings. */
const firstSentence = (text: string) => (/^.*?[.!?](\s|$)/.exec(text)?.[0] ?? text).trim();

export function skillLines(skills: readonly AnySkill[]): SkillLine[] {
  return skills.map((skill) => ({
    name: skill.name,
    method: skill.rest.method,
    path: skill.rest.path,
    tier: skill.minimumTier,
    summary: firstSentence(skill.description),
  }));
}
