import type { CommandIO } from './io.js';

/** `cortex mcp`: the stdio MCP server (src/mcp/server.ts). */
export async function runMcp(_args: unknown, io: CommandIO): Promise<number> {
  const { runMcpServer } = await import('../mcp/server.js');
  return runMcpServer(io);
}
