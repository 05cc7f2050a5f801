import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

const AXE_SOURCE = join(import.meta.dir, "../../node_modules/axe-core/axe.min.js");

interface AxeWindow {
  axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
}

/**
 * axe-core on the page as it stands: its serious and critical violations, each as "impact: rule at
 * where". Evaluated through the DevTools protocol, which the pages' CSP (no inline script) does not govern.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(AXE_SOURCE, "utf8"));
  const found = await page.evaluate(async () => {
    const { violations } = await (window as unknown as AxeWindow).axe.run();
    return violations.map((violation) => ({
      impact: violation.impact,
      text: `${violation.impact}: ${violation.id} at ${violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(" "))
        .join(", ")}`,
    }));
  });
  return found.filter((one) => one.impact === "serious" || one.impact === "critical").map((one) => one.text);
}
