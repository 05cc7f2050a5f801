import manifest from "../package.json" with { type: "json" };

/** The release, as package.json names it: the CLI, MCP's server info and OpenAPI all say this one. */
export const VERSION: string = manifest.version;
