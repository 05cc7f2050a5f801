import type { ProgressListener } from "../reference/importers/index.ts";

/**
 * Progress of a file import on stderr: a bar redrawn in place on a terminal, one JSON line per
 * step (`{"progress":{"bytes":..,"total":..,"percent":..}}`) when `--json` output goes elsewhere,
 * nothing otherwise. At most one report per 2 % of the file.
 */
export function importProgress(
  totalBytes: number,
  options: { json: boolean; isTTY: boolean; write: (text: string) => void },
): ProgressListener | undefined {
  if (!options.isTTY && !options.json) return undefined;
  let lastPercent = -2;
  return (bytes) => {
    const percent = totalBytes === 0 ? 100 : Math.min(100, Math.floor((bytes / totalBytes) * 100));
    if (percent - lastPercent < 2 && percent !== 100) return;
    if (percent === lastPercent) return;
    lastPercent = percent;
    if (options.isTTY) {
      const filled = Math.round(percent / 4);
      options.write(
        `\rimporting [${"#".repeat(filled)}${" ".repeat(25 - filled)}] ${String(percent).padStart(3)}%${percent === 100 ? "\n" : ""}`,
      );
    } else options.write(`${JSON.stringify({ progress: { bytes, total: totalBytes, percent } })}\n`);
  };
}
