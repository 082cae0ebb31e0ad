import { shellWords } from '../install/shell-words.js';

/**
 * Cortex's entry in a project's `.mcp.json` (what `cortex init --mcp` registers and `cortex
 * uninstall` removes). Pure: the command edits the file. Other servers are left as they are.
 */
type McpConfig = Record<string, unknown> & { mcpServers?: Record<string, unknown> };

export const MCP_SERVER_NAME = 'cortex';

/**
 * `cortex` or `node /path/cli.js` (CORTEX_HOOK_COMMAND, split as sh splits it) → a stdio server
 * entry running `… mcp`. A `cortex` server the user wrote themselves (their own command, an
 * `env`) is theirs: left as it is.
 */
export function withCortexMcp(config: McpConfig, executable: string): McpConfig {
  const existing = config.mcpServers?.[MCP_SERVER_NAME];
  if (existing !== undefined && !isOurs(existing)) return config;
  const [command, ...args] = shellWords(executable.trim()) ?? ['cortex'];
  return { ...config, mcpServers: { ...(config.mcpServers ?? {}), [MCP_SERVER_NAME]: { type: 'stdio', command, args: [...args, 'mcp'] } } };
}

/** Takes out a `cortex` server shaped as init writes it, never one the user wrote. */
export function withoutCortexMcp(config: McpConfig): McpConfig {
  if (!config.mcpServers || !(MCP_SERVER_NAME in config.mcpServers) || !isOurs(config.mcpServers[MCP_SERVER_NAME])) return config;
  const { [MCP_SERVER_NAME]: _ours, ...servers } = config.mcpServers;
  const { mcpServers: _old, ...rest } = config;
  return Object.keys(servers).length > 0 ? { ...rest, mcpServers: servers } : rest;
}

/** An entry as withCortexMcp writes it: stdio, a command, arguments ending in `mcp`, nothing else. */
function isOurs(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
  const { type, command, args, ...rest } = entry as Record<string, unknown>;
  return Object.keys(rest).length === 0 && type === 'stdio' && typeof command === 'string' && Array.isArray(args) && args[args.length - 1] === 'mcp';
}
