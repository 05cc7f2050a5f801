/**
 * An MCP client's entry for this server (the /mcp route of mcp.ts) over Streamable HTTP with the
 * bearer key, in the `mcpServers` form most clients read. It names no tool: clients learn the
 * tools, and which of them the key may call, from `tools/list`.
 */
export function mcpClientConfig(origin: string): string {
  const server = { type: "http", url: `${origin}/mcp`, headers: { Authorization: "Bearer wbk_…" } };
  return JSON.stringify({ mcpServers: { waybill: server } }, null, 2);
}
