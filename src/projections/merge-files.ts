import { slotOf, SLOTS } from './render-files.js';
import { AS_OF_LINE, CORRECTION_LINE, ID_LINE, unitedAsOf } from './tracked-files.js';

/**
 * Three-way merge of the tracked decision files, for the merge driver: both sides' entries,
 * kept or dropped by event id (an entry either side removed since the base stays removed), laid
 * out in their hash slots exactly as the renderer lays them out. Pure text in, text out, so it
 * works on any clone, whether or not the journal has been fetched; `post-merge` then
 * regenerates the files from the journal for the merged HEAD.
 */
interface Entry {
  id: string;
  text: string;
}

interface Section {
  title: string;
  /** The marker prefix of this section (`d`, `r`, `p`, `a`, `s`, `c`). */
  prefix: string;
  entries: Entry[];
}

interface ParsedFile {
  head: string;
  sections: Section[];
}

const MARKER = /^<!-- ([a-z])([0-9a-f]{2}) -->$/;

/** A decisions file as the renderer writes it, or null when it is not one (hand-edited beyond recognition). */
export function parseDecisionsFile(text: string): ParsedFile | null {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.startsWith('## '));
  if (first === -1) return null;
  const sections: Section[] = [];
  let section: Section | null = null;
  let entry: string[] | null = null;
  const closeEntry = () => {
    if (!entry || !section) return;
    const id = entry.map((l) => ID_LINE.exec(l)?.[1]).find((x) => x !== undefined);
    if (!id) throw new Error('entry without an id');
    section.entries.push({ id, text: entry.join('\n').trim() });
    entry = null;
  };
  try {
    for (const line of lines.slice(first)) {
      if (line.startsWith('## ')) {
        closeEntry();
        section = { title: line, prefix: '', entries: [] };
        sections.push(section);
      } else if (MARKER.test(line)) {
        closeEntry();
        if (section && !section.prefix) section.prefix = (MARKER.exec(line) as RegExpExecArray)[1] as string;
      } else if (line.startsWith('### ')) {
        closeEntry();
        entry = [line];
      } else if (section && CORRECTION_LINE.test(line)) {
        closeEntry();
        section.entries.push({ id: (CORRECTION_LINE.exec(line) as RegExpExecArray)[1] as string, text: line });
      } else if (entry) entry.push(line);
    }
    closeEntry();
  } catch {
    return null;
  }
  if (sections.some((s) => !s.prefix)) return null;
  return { head: lines.slice(0, first).join('\n'), sections };
}

export function renderParsedFile(file: ParsedFile): string {
  const parts = [file.head.replace(/\n+$/, '')];
  for (const section of file.sections) {
    parts.push(section.title);
    const bySlot = new Map<number, Entry[]>();
    for (const e of section.entries) bySlot.set(slotOf(e.id), [...(bySlot.get(slotOf(e.id)) ?? []), e]);
    let markers: string[] = [];
    for (let slot = 0; slot < SLOTS; slot++) {
      markers.push(`<!-- ${section.prefix}${slot.toString(16).padStart(2, '0')} -->`);
      const entries = bySlot.get(slot);
      if (!entries) continue;
      parts.push(markers.join('\n'));
      markers = [];
      // Corrections in one slot are one list, a line each, as the renderer writes them.
      const sorted = entries.sort((a, b) => (a.id < b.id ? -1 : 1));
      const lines = sorted.filter((e) => CORRECTION_LINE.test(e.text)).map((e) => e.text.replace(/^\* /, '- '));
      if (lines.length > 0) parts.push(lines.join('\n'));
      for (const e of sorted) if (!CORRECTION_LINE.test(e.text)) parts.push(e.text);
    }
    if (markers.length > 0) parts.push(markers.join('\n'));
  }
  return `${parts.join('\n\n')}\n`;
}

/** Merge by entry id; null when a side cannot be parsed (the caller falls back). */
export function mergeDecisionsFiles(base: string, ours: string, theirs: string): string | null {
  const [o, a, b] = [base, ours, theirs].map((t) => (t.trim() === '' ? { head: '', sections: [] } : parseDecisionsFile(t)));
  if (!a || !b) return null;
  const baseIds = new Set<string>((o?.sections ?? []).flatMap((s) => s.entries.map((e) => `${s.prefix}:${e.id}`)));
  const baseText = new Map<string, string>((o?.sections ?? []).flatMap((s) => s.entries.map((e) => [`${s.prefix}:${e.id}`, e.text] as const)));
  const titles = [...a.sections, ...b.sections].filter((s, i, all) => all.findIndex((x) => x.prefix === s.prefix) === i);
  const sections = titles.map((title) => {
    const mine = new Map((a.sections.find((s) => s.prefix === title.prefix)?.entries ?? []).map((e) => [e.id, e]));
    const yours = new Map((b.sections.find((s) => s.prefix === title.prefix)?.entries ?? []).map((e) => [e.id, e]));
    const entries: Entry[] = [];
    for (const id of new Set([...mine.keys(), ...yours.keys()])) {
      const key = `${title.prefix}:${id}`;
      const inA = mine.get(id);
      const inB = yours.get(id);
      // Present on one side only: added there (keep), or removed by the other side (drop).
      if (!inA || !inB) {
        if (!baseIds.has(key)) entries.push((inA ?? inB) as Entry);
        continue;
      }
      // On both: the side that changed it wins; ours when both did.
      entries.push(inA.text === baseText.get(key) ? inB : inA);
    }
    return { ...title, entries };
  });
  return renderParsedFile({ head: a.head || b.head, sections });
}

/**
 * active-plan.md: the side that moved from the base. When both did, on the same plan, a step
 * is done where either side finished it (one branch wrote the code, the other the tests); on
 * different plans, the one further along.
 */
export function mergePlanFiles(base: string, ours: string, theirs: string): string {
  if (ours === theirs || theirs === base) return ours;
  if (ours === base) return theirs;
  const done = (text: string) => (text.match(/^\d+\. ✓ /gm) ?? []).length;
  const merged = unitePlanSteps(ours, theirs) ?? (done(theirs) > done(ours) ? theirs : ours);
  // Both sides' newest plan events stay named: a squash merge is carried by them (branch-view.ts).
  const asOf = unitedAsOf(ours, theirs);
  const line = new RegExp(AS_OF_LINE.source, 'm');
  if (asOf === null) return merged;
  return line.test(merged) ? merged.replace(line, asOf) : merged.replace(/^(---\n[\s\S]*?\n)(---\n)/, `$1${asOf}\n$2`);
}

const PLAN_ID = /^plan: (\S+)$/m;
const STEP_LINE = /^(\d+)\. (?:✓ (.*)|\*\*→ (.*)\*\* ← you are here|(.*))$/;
const WHERE = /^Where the work stands: [^.]*\./m;

interface PlanStep {
  line: number;
  number: string;
  text: string;
  done: boolean;
}

function planSteps(file: string): PlanStep[] {
  const steps: PlanStep[] = [];
  file.split('\n').forEach((line, i) => {
    const m = STEP_LINE.exec(line);
    if (m) steps.push({ line: i, number: m[1] as string, text: (m[2] ?? m[3] ?? m[4]) as string, done: m[2] !== undefined });
  });
  return steps;
}

/** Ours with the steps either side finished marked done, or null when the two are not the same plan with the same steps. */
function unitePlanSteps(ours: string, theirs: string): string | null {
  const id = PLAN_ID.exec(ours)?.[1];
  if (!id || PLAN_ID.exec(theirs)?.[1] !== id) return null;
  const mine = planSteps(ours);
  const other = planSteps(theirs);
  if (mine.length === 0 || mine.length !== other.length || mine.some((s, i) => s.text !== other[i]?.text)) return null;
  const done = mine.map((s, i) => s.done || other[i]?.done === true);
  const here = done.indexOf(false);
  const lines = ours.split('\n');
  mine.forEach((s, i) => {
    lines[s.line] = done[i] ? `${s.number}. ✓ ${s.text}` : i === here ? `${s.number}. **→ ${s.text}** ← you are here` : `${s.number}. ${s.text}`;
  });
  const count = done.filter(Boolean).length;
  const where = here < 0 ? `all ${mine.length} steps done` : `step ${here + 1} of ${mine.length}, ${count} done`;
  return lines.join('\n').replace(WHERE, `Where the work stands: ${where}.`);
}

/**
 * The decisions file as rendered from the journal, plus the entries of the file as it stands
 * that the journal has never heard of: a teammate's decisions that came with a pull, before
 * their journal did. Regenerating must not delete what only the tracked file knows yet; once
 * the journal has those events, the journal decides (kept, superseded or retracted).
 */
export function keepEntriesNotInJournal(rendered: string, current: string, knows: (id: string) => boolean): string {
  const fresh = parseDecisionsFile(rendered);
  const standing = current.trim() === '' ? null : parseDecisionsFile(current);
  if (!fresh || !standing) return rendered;
  let kept = 0;
  for (const section of standing.sections) {
    const unknown = section.entries.filter((e) => !knows(e.id));
    if (unknown.length === 0) continue;
    kept += unknown.length;
    const target = fresh.sections.find((s) => s.prefix === section.prefix);
    if (target) target.entries.push(...unknown.filter((e) => !target.entries.some((x) => x.id === e.id)));
    else fresh.sections.push({ ...section, entries: unknown });
  }
  return kept === 0 ? rendered : renderParsedFile(fresh);
}
