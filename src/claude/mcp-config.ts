/**
 * Cortex's entry in a project's `.mcp.json` (what `cortex init --mcp` registers and `cortex
 * uninstall` removes). Pure: the command edits the file. Other servers are left as they are.
 */
type McpConfig = Record<string, unknown> & { mcpServers?: Record<string, unknown> };

export const MCP_SERVER_NAME = 'cortex';

/** `cortex` or `node /path/cli.js` (CORTEX_HOOK_COMMAND) → a stdio server entry running `… mcp`. */
export function withCortexMcp(config: McpConfig, executable: string): McpConfig {
  const [command, ...args] = executable.trim().split(/\s+/);
  return { ...config, mcpServers: { ...(config.mcpServers ?? {}), [MCP_SERVER_NAME]: { type: 'stdio', command, args: [...args, 'mcp'] } } };
}

export function withoutCortexMcp(config: McpConfig): McpConfig {
  if (!config.mcpServers || !(MCP_SERVER_NAME in config.mcpServers)) return config;
  const { [MCP_SERVER_NAME]: _ours, ...servers } = config.mcpServers;
  const { mcpServers: _old, ...rest } = config;
  return Object.keys(servers).length > 0 ? { ...rest, mcpServers: servers } : rest;
}
