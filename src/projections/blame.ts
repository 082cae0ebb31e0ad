import type { CortexEvent } from '../events/types.js';
import type { MemoryItem, MemoryState } from './fold.js';

/**
 * blame-decision, the pure part: given the commits behind some lines and what links each commit
 * to assistant sessions, rank the decisions and rejections that explain those lines.
 */
export interface BlamedCommit {
  commit: string;
  parents: string[];
  author: string;
  time: string;
  summary: string;
  lines: number[];
  /** Sessions named by the commit's `Cortex-Session:` trailers. */
  trailerSessions: string[];
}

export interface BlameMatch {
  commit: string;
  sessions: string[];
  decisions: Array<{ id: string; type: string; content: string; reason: string | null; session: string; ts: string; score: number }>;
}

const WINDOW_MS = 6 * 3_600_000;

/**
 * Sessions behind a commit: its trailers; `commit_linked` events naming it; and sessions that
 * modified the file while HEAD was the commit's parent (the work that went into it), or in
 * the hours before it.
 */
export function sessionsFor(commit: BlamedCommit, file: string, events: readonly CortexEvent[]): string[] {
  const sessions = new Set(commit.trailerSessions);
  const time = Date.parse(commit.time);
  for (const e of events) {
    if (e.type === 'commit_linked' && e.meta.commit === commit.commit && typeof e.meta.session === 'string') sessions.add(e.meta.session);
    if (e.type !== 'file_modified' || e.meta.path !== file) continue;
    // Captured while HEAD was this commit's parent: work that went into this commit.
    if (e.commit !== null && commit.parents.includes(e.commit)) sessions.add(e.session);
    // A first commit has no parent to match: the hours before it.
    else if (e.commit === null && Date.parse(e.ts) <= time + 60_000 && time - Date.parse(e.ts) < WINDOW_MS) sessions.add(e.session);
  }
  return [...sessions].sort();
}

/** `committed`: when the blamed commit was made; what its sessions decided after it ranks below what they decided before. */
export function rankDecisions(state: MemoryState, sessions: readonly string[], file: string, committed?: string): BlameMatch['decisions'] {
  const base = file.split('/').pop() ?? file;
  const made = committed ? Date.parse(committed) : Number.NaN;
  const inSessions = new Set(sessions);
  const candidates: MemoryItem[] = [...state.decisions, ...state.rejections, ...state.superseded];
  const scored = candidates
    .map((i) => {
      let score = 0;
      if (inSessions.has(i.origin.session)) score += 2;
      if (i.files.includes(file) || i.content.includes(file)) score += 3;
      else if (base.length > 3 && i.content.includes(base)) score += 2;
      if (i.type === 'decision_made') score += 0.5;
      if (i.supersededBy !== undefined) score -= 1;
      const later = Date.parse(i.origin.ts) >= made + 1000; // git keeps whole seconds
      return { i, score, later };
    })
    .filter(({ i, score }) => score >= 2 && (inSessions.has(i.origin.session) || score >= 3));
  return scored
    .sort((a, b) => Number(a.later) - Number(b.later) || b.score - a.score || (a.i.origin.ts > b.i.origin.ts ? -1 : 1))
    .map(({ i, score }) => ({ id: i.id, type: i.type, content: i.content, reason: i.reason ?? null, session: i.origin.session, ts: i.origin.ts, score }));
}
