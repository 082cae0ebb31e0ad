import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Which Claude Code session is working in this clone right now, so a commit made meanwhile can
 * carry a `Cortex-Session:` trailer. Claude Code's hooks keep it fresh; SessionEnd clears it;
 * a record untouched for 12 hours is stale (a session killed without SessionEnd).
 */
const STALE_MS = 12 * 3_600_000;
const path = (cortexDir: string) => join(cortexDir, 'active-session.json');

export async function markSessionActive(cortexDir: string, session: string): Promise<void> {
  await writeFile(path(cortexDir), JSON.stringify({ session, ts: new Date().toISOString() })).catch(() => undefined);
}

export async function markSessionEnded(cortexDir: string, session: string): Promise<void> {
  const current = await readActiveSession(cortexDir);
  if (current === session) await rm(path(cortexDir), { force: true });
}

export async function readActiveSession(cortexDir: string, now = Date.now()): Promise<string | null> {
  try {
    const record = JSON.parse(await readFile(path(cortexDir), 'utf8')) as { session?: unknown; ts?: unknown };
    if (typeof record.session !== 'string' || typeof record.ts !== 'string') return null;
    return now - Date.parse(record.ts) < STALE_MS ? record.session : null;
  } catch {
    return null;
  }
}
