import { CortexError } from '../errors.js';
import { kebab, type HookEvent } from './hook-events.js';

/**
 * Cortex's entries in a Claude Code settings file, merged into whatever is there: the user's
 * own hooks and settings are kept as they are, ours are recognised by their command
 * (`cortex hook …`) and replaced in place, so running `cortex init` twice never duplicates an
 * entry. Pure: JSON value in, JSON value out.
 */
interface HookHandler {
  type: 'command';
  command: string;
  timeout?: number;
  async?: boolean;
}

interface MatcherGroup {
  matcher?: string;
  hooks: HookHandler[];
}

type Settings = Record<string, unknown> & { hooks?: Record<string, MatcherGroup[]> };

interface Install {
  event: HookEvent;
  matcher?: string;
  timeout: number;
  async?: boolean;
}

/**
 * What runs when. Capture that nobody waits for runs async; SessionStart and UserPromptSubmit
 * stay synchronous because what they print becomes context. SessionStart runs for every source
 * (`fork` since Claude Code 2.1.214; earlier forks said `resume`, and an older Claude Code
 * matches the word against nothing). SessionEnd's timeout in a settings file raises Claude
 * Code's shared 1.5 s budget. Running `cortex init` again brings an older install up to date.
 */
export const INSTALLS: readonly Install[] = [
  { event: 'SessionStart', matcher: 'startup|resume|clear|compact|fork', timeout: 15 },
  { event: 'UserPromptSubmit', timeout: 10 },
  { event: 'PostToolUse', matcher: 'Edit|Write|MultiEdit|NotebookEdit', timeout: 30, async: true },
  { event: 'Stop', timeout: 60, async: true },
  { event: 'SubagentStop', timeout: 60, async: true },
  { event: 'PreCompact', timeout: 60 },
  { event: 'PostCompact', timeout: 60, async: true },
  { event: 'SessionEnd', timeout: 5 },
];

export const hookCommand = (executable: string, event: HookEvent) => `${executable} hook ${kebab(event)}`;
const isOurs = (handler: unknown) => typeof handler === 'object' && handler !== null && / hook [a-z-]+$/.test(String((handler as HookHandler).command)) && /\bcortex\b|cli\.js/.test(String((handler as HookHandler).command));

/** The events a settings file runs Cortex for, each with the command it runs. */
export function cortexHooksIn(settings: Settings): Map<string, string> {
  const found = new Map<string, string>();
  for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) for (const h of Array.isArray(group?.hooks) ? group.hooks : []) if (isOurs(h)) found.set(event, h.command);
  }
  return found;
}

/**
 * Cortex's entries that run on other matches than this version installs (written by an older
 * Cortex, say SessionStart without `fork`), each as `event "matcher"`: `cortex init` updates them.
 */
export function outdatedCortexMatchers(settings: Settings): string[] {
  const outdated: string[] = [];
  for (const install of INSTALLS) {
    const groups = settings.hooks?.[install.event];
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const ours = Array.isArray(group?.hooks) && group.hooks.some(isOurs);
      if (ours && (group.matcher ?? '') !== (install.matcher ?? '')) outdated.push(`${install.event} "${group.matcher ?? ''}"`);
    }
  }
  return outdated;
}

export function withCortexHooks(settings: Settings, executable: string): Settings {
  checkHookShape(settings);
  const hooks: Record<string, MatcherGroup[]> = { ...(settings.hooks ?? {}) };
  for (const install of INSTALLS) {
    const groups = (hooks[install.event] ?? [])
      .map((group) => ({ ...group, hooks: (group.hooks ?? []).filter((h) => !isOurs(h)) }))
      .filter((group) => group.hooks.length > 0);
    const handler: HookHandler = { type: 'command', command: hookCommand(executable, install.event), timeout: install.timeout };
    if (install.async) handler.async = true;
    groups.push(install.matcher ? { matcher: install.matcher, hooks: [handler] } : { hooks: [handler] });
    hooks[install.event] = groups;
  }
  return { ...settings, hooks };
}

/** Hooks as Claude Code reads them (event → a list of groups, each with a list of hooks), or one line on what is not. */
export function checkHookShape(settings: Settings): void {
  const hooks: unknown = settings.hooks;
  if (hooks === undefined) return;
  const fix = 'Claude Code cannot read it either: fix it (see the hooks section of the Claude Code settings docs), then run cortex init again';
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) throw new CortexError('INVALID_INPUT', `"hooks" in the settings is not an object of events; ${fix}`);
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups) || groups.some((g) => typeof g !== 'object' || g === null || ((g as MatcherGroup).hooks !== undefined && !Array.isArray((g as MatcherGroup).hooks)))) {
      throw new CortexError('INVALID_INPUT', `"hooks.${event}" in the settings is not a list of hook groups; ${fix}`);
    }
  }
}

export function withoutCortexHooks(settings: Settings): Settings {
  if (!settings.hooks) return settings;
  checkHookShape(settings);
  const hooks: Record<string, MatcherGroup[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    const kept = groups.map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !isOurs(h)) })).filter((g) => g.hooks.length > 0);
    if (kept.length > 0) hooks[event] = kept;
  }
  const { hooks: _old, ...rest } = settings;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}
