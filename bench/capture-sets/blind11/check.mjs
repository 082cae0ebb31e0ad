#!/usr/bin/env node
// Consistency checks for capture-blind11 (sessions 197–208).
// Usage: node check.mjs   (run from anywhere; reads the files next to this script)
// Exits 1 on any failure. Uses only Node built-ins.
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = dirname(fileURLToPath(import.meta.url));
const TYPES = new Set(['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved',
  'preference_noted', 'plan_created', 'plan_step_completed']);
// Explicit cue phrases that must not occur anywhere (case-insensitive, whole words/phrases).
const CUES = ['I decided', 'we decided', 'decision:', "I'll go with", 'going with', 'turns out', 'it turns out',
  'TIL', 'lesson learned', 'learned that', 'the fix was', 'root cause', 'I rejected', 'ruled out', 'instead of',
  'note to self', 'remember that', 'key insight', 'from now on'];
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CUE_RE = new RegExp(`(?<![A-Za-z0-9])(${CUES.map(esc).join('|')})(?![A-Za-z0-9])`, 'i');
const TAG_RE = /\[MEMORY:\s*\w+\]/gi;

let failures = 0;
const fail = (name, msg) => { failures++; console.log(`FAIL ${name}: ${msg}`); };

function strings(v, out) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => strings(x, out));
  return out;
}
const rel = (p, cwd) => (p && cwd && p.startsWith(cwd + '/') ? p.slice(cwd.length + 1) : p);
const sameSet = (a, b) => a.length === b.length && new Set(a).size === a.length && a.every((x) => b.includes(x));

const labelFiles = readdirSync(DIR).filter((f) => f.endsWith('.labels.json')).sort();
const totals = { sessions: 0, expected: 0, forbidden: 0, neutral: 0, secrets: 0, byType: {} };
let tagFree = 0, multiTurn = 0;

for (const lf of labelFiles) {
  const lab = JSON.parse(readFileSync(join(DIR, lf), 'utf8'));
  const name = lf.replace(/\.labels\.json$/, '');
  if (lab.session !== name) fail(name, `label session "${lab.session}" != file name`);
  const raw = readFileSync(join(DIR, name + '.jsonl'), 'utf8');
  const rawLines = raw.split('\n').filter((l) => l.length);
  const lines = []; let corrupt = 0;
  for (const l of rawLines) {
    try { const o = JSON.parse(l); if (o && typeof o === 'object' && !Array.isArray(o)) lines.push(o); else corrupt++; }
    catch { corrupt++; }
  }
  // 1. every line parses (unless declared corrupt on purpose)
  if (corrupt !== (lab.corruptLines || 0)) fail(name, `${corrupt} unparsable lines, labels declare ${lab.corruptLines || 0}`);
  if (rawLines.length < 25 || rawLines.length > 60) fail(name, `${rawLines.length} lines (want 25–60)`);

  const cwd = lines.find((l) => l.cwd)?.cwd;
  const versions = new Set(lines.filter((l) => l.version).map((l) => l.version));
  if (versions.size !== 1 || !versions.has(lab.version)) fail(name, `version mismatch ${[...versions]} vs ${lab.version}`);

  // corpora
  const main = []; // main-thread assistant text, human user text, todo content
  const all = [];  // every string anywhere in the transcript
  for (const l of lines) strings(l, all);
  const uuids = new Set(lines.map((l) => l.uuid).filter(Boolean));
  const toolLine = new Map(); // tool_use id -> uuid of the line holding it
  const results = new Map();  // tool_use id -> is_error
  let humanTurns = 0;
  for (const l of lines) {
    if (l.parentUuid && !uuids.has(l.parentUuid)) fail(name, `dangling parentUuid ${l.parentUuid}`);
    const c = l.message?.content;
    if (l.type === 'assistant' && Array.isArray(c)) {
      for (const b of c) if (b.type === 'tool_use') toolLine.set(b.id, l.uuid);
      if (c.length !== 1) fail(name, `assistant line ${l.uuid} has ${c.length} blocks (want one per line)`);
    }
    if (l.type === 'user' && Array.isArray(c)) {
      for (const b of c) if (b.type === 'tool_result') {
        results.set(b.tool_use_id, !!b.is_error);
        if (!l.isSidechain && toolLine.get(b.tool_use_id) !== l.parentUuid) fail(name, `tool_result ${b.tool_use_id} parentUuid is not its tool_use line`);
      }
    }
    if (l.isSidechain) continue;
    if (l.type === 'assistant' && Array.isArray(c)) {
      for (const b of c) {
        if (b.type === 'text') main.push(b.text);
        if (b.type === 'tool_use' && b.name === 'TodoWrite') for (const t of b.input.todos) main.push(t.content);
      }
    }
    if (l.type === 'user' && typeof c === 'string' && !l.isMeta) { main.push(c); humanTurns++; }
  }
  if (humanTurns >= 3) multiTurn++;

  // 2. expected items
  const exp = lab.expected || [];
  if (exp.length < 7 || exp.length > 12) fail(name, `${exp.length} expected items (want 7–12)`);
  for (const e of exp) {
    if (!TYPES.has(e.type)) fail(name, `unknown type ${e.type}`);
    if (!main.some((t) => t.includes(e.text))) fail(name, `expected text not in main-thread text: ${e.text}`);
    if (!Array.isArray(e.keywords) || e.keywords.length < 1 || e.keywords.length > 3) fail(name, `keywords count: ${e.text}`);
    for (const k of e.keywords || []) if (!e.text.toLowerCase().includes(k.toLowerCase())) fail(name, `keyword "${k}" not in text: ${e.text}`);
    totals.byType[e.type] = (totals.byType[e.type] || 0) + 1;
  }
  // one item per sentence (plan_created + plan_step_completed on the same todo is the only allowed sharing)
  const seen = new Map();
  for (const e of exp) {
    const prev = seen.get(e.text);
    if (prev && !(new Set([prev, e.type]).size === 2 && [prev, e.type].every((t) => t.startsWith('plan_')))) fail(name, `two items on one sentence: ${e.text}`);
    seen.set(e.text, e.type);
  }
  // 3. forbidden / neutral
  const fb = lab.forbidden || [], nt = lab.neutral || [];
  if (fb.length < 7) fail(name, `${fb.length} forbidden (want >= 7)`);
  for (const s of [...fb, ...nt]) {
    if (!all.some((t) => t.includes(s))) fail(name, `forbidden/neutral string not in transcript: ${s}`);
    for (const e of exp) if (e.keywords.every((k) => s.toLowerCase().includes(k.toLowerCase())))
      fail(name, `forbidden/neutral string contains all keywords of expected "${e.text}": ${s}`);
  }
  // 4. secrets
  if (!lab.secrets?.length || lab.secrets.length > 2) fail(name, `want 1–2 secrets, got ${lab.secrets?.length}`);
  for (const s of lab.secrets || []) if (!all.some((t) => t.includes(s))) fail(name, `secret not in transcript: ${s.slice(0, 12)}…`);
  // 5. cue phrases anywhere in the transcript (decoded strings, plus corrupt raw lines) and in the labels
  for (const t of [...all, ...rawLines.filter((l) => { try { JSON.parse(l); return false; } catch { return true; } })]) {
    const m = t.match(CUE_RE); if (m) fail(name, `cue phrase "${m[0]}" in: ${t.slice(0, 120)}`);
  }
  for (const t of strings(lab, [])) { const m = t.match(CUE_RE); if (m) fail(name, `cue phrase "${m[0]}" in labels: ${t.slice(0, 120)}`); }
  // MEMORY tags: at most one per session
  const tags = main.join('\n').match(TAG_RE) || [];
  if (tags.length > 1) fail(name, `${tags.length} [MEMORY] tags`);
  if (tags.length === 0) tagFree++;
  // 6. files / commands from main-thread tool calls
  const modified = [], explored = []; let commands = 0;
  for (const l of lines) {
    if (l.type !== 'assistant' || l.isSidechain) continue;
    for (const b of l.message.content) {
      if (b.type !== 'tool_use') continue;
      const i = b.input || {};
      if (b.name === 'Bash') commands++;
      if (['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(b.name) && results.has(b.id) && !results.get(b.id)) {
        const p = rel(i.file_path || i.notebook_path, cwd); if (!modified.includes(p)) modified.push(p);
      }
      let p = null;
      if (b.name === 'Read') p = rel(i.file_path, cwd);
      if ((b.name === 'Glob' || b.name === 'Grep') && i.path) p = rel(i.path, cwd);
      if (p && !explored.includes(p)) explored.push(p);
    }
  }
  if (!sameSet(modified, lab.files.modified)) fail(name, `files.modified ${JSON.stringify(modified)} != ${JSON.stringify(lab.files.modified)}`);
  if (!sameSet(explored, lab.files.explored)) fail(name, `files.explored ${JSON.stringify(explored)} != ${JSON.stringify(lab.files.explored)}`);
  if (commands !== lab.commands) fail(name, `commands ${commands} != ${lab.commands}`);

  totals.sessions++; totals.expected += exp.length; totals.forbidden += fb.length; totals.neutral += nt.length;
  totals.secrets += (lab.secrets || []).length;
  console.log(`ok   ${name}  v${lab.version}  lines=${rawLines.length} expected=${exp.length} forbidden=${fb.length} neutral=${nt.length} secrets=${(lab.secrets || []).length} turns=${humanTurns}`);
}
if (totals.sessions !== 12) fail('set', `${totals.sessions} sessions (want 12)`);
if (tagFree < 9) fail('set', `only ${tagFree} sessions without [MEMORY] tags (want >= 9)`);
if (multiTurn < 4) fail('set', `only ${multiTurn} sessions with 3+ user turns (want >= 4)`);
console.log(JSON.stringify(totals));
console.log(failures ? `${failures} check(s) FAILED` : 'all checks passed');
process.exit(failures ? 1 : 0);
