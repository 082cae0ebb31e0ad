/**
 * The Claude Code hook events Cortex handles, by every name they arrive under: the PascalCase
 * names Claude Code uses and kebab-case ones people type. Each has a time budget, inside
 * Claude Code's own limits, after which the hook gives up and exits 0.
 */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SubagentStop', 'PreCompact', 'PostCompact', 'SessionEnd'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

const BY_KEY = new Map<string, HookEvent>(HOOK_EVENTS.map((e) => [e.toLowerCase(), e]));

export function resolveHookEvent(name: string | undefined): HookEvent | undefined {
  if (!name) return undefined;
  return BY_KEY.get(name.replace(/[-_\s]/g, '').toLowerCase());
}

/** Milliseconds before a hook stops working and exits 0. SessionEnd shares 1.5 s across hooks. */
export const HOOK_BUDGET_MS: Readonly<Record<HookEvent, number>> = {
  SessionStart: 10_000,
  UserPromptSubmit: 5_000,
  PostToolUse: 10_000,
  Stop: 30_000,
  SubagentStop: 30_000,
  PreCompact: 30_000,
  PostCompact: 30_000,
  SessionEnd: 1_300,
};

/**
 * How long a hook that reads the transcript goes on reading a backlog (ms after it starts)
 * before it leaves the rest to a catch-up: the same hook, detached, with the same payload
 * (`cortex hook <event> --catch-up`), which reads for CATCH_UP_READ_MS and hands on again. The
 * async hooks read longest; PreCompact holds up the compaction. SessionEnd, which Claude Code
 * waits on when the user quits or clears, reads one chunk of SESSION_END_CHUNK_BYTES.
 */
export const HOOK_READ_MS: Readonly<Record<'Stop' | 'SubagentStop' | 'PreCompact' | 'PostCompact' | 'SessionEnd', number>> = {
  Stop: 15_000,
  SubagentStop: 15_000,
  PreCompact: 5_000,
  PostCompact: 15_000,
  SessionEnd: 0,
};
export const SESSION_END_CHUNK_BYTES = 1024 * 1024;
/** A catch-up's budget; it reads for half of it, under the 30 s after which a session lock counts as stale. */
export const CATCH_UP_BUDGET_MS = 30_000;
export const CATCH_UP_READ_MS = 15_000;

export const kebab = (event: HookEvent): string => event.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
