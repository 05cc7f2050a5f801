import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const TMP = resolve(import.meta.dir, "../../.tmp");

/** Debian's osmium-tool, which scripts/test.sh installs when missing. */
export const haveOsmium = Bun.spawnSync(["sh", "-c", "command -v osmium"]).exitCode === 0;

/** OSM XML written here, then turned into a PBF by Debian's osmium-tool, as an operator's extract would be. */
export function osmExtract(ways: { highway: string; maxspeed?: string; points: [number, number][] }[]): string {
  mkdirSync(TMP, { recursive: true });
  const dir = mkdtempSync(join(TMP, "osm-"));
  let nodeId = 0;
  const nodes: string[] = [];
  const wayXml = ways.map((way, w) => {
    const refs = way.points.map(([lon, lat]) => {
      nodeId++;
      nodes.push(`  <node id="${nodeId}" version="1" lat="${lat}" lon="${lon}"/>`);
      return `    <nd ref="${nodeId}"/>`;
    });
    const tags = [`    <tag k="highway" v="${way.highway}"/>`];
    if (way.maxspeed) tags.push(`    <tag k="maxspeed" v="${way.maxspeed}"/>`);
    return `  <way id="${w + 1}" version="1">\n${refs.join("\n")}\n${tags.join("\n")}\n  </way>`;
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="waybill-test">\n${nodes.join("\n")}\n${wayXml.join("\n")}\n</osm>\n`;
  writeFileSync(join(dir, "extract.osm"), xml);
  const out = join(dir, "extract.osm.pbf");
  const run = Bun.spawnSync(["osmium", "cat", join(dir, "extract.osm"), "-o", out, "--overwrite"]);
  if (run.exitCode !== 0) throw new Error(`osmium: ${run.stderr.toString()}`);
  return out;
}
