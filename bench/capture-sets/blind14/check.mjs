#!/usr/bin/env node
// Self-check for capture-blind14 (sessions 233-244). Run: node check.mjs
// Exits non-zero and prints every problem found.
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = dirname(fileURLToPath(import.meta.url));
const TYPES = new Set([
  'decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved',
  'preference_noted', 'plan_created', 'plan_step_completed',
]);
const CUES = [
  'I decided', 'we decided', 'decision:', "I'll go with", 'going with', 'turns out', 'it turns out', 'TIL',
  'lesson learned', 'learned that', 'the fix was', 'root cause', 'I rejected', 'ruled out', 'instead of',
  'note to self', 'remember that', 'key insight', 'from now on',
];
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CUE_RES = CUES.map((c) => [c, new RegExp(
  '(?<![A-Za-z0-9_])' + esc(c).replace(/'/g, "['\u2019]") + (/[A-Za-z0-9_]$/.test(c) ? '(?![A-Za-z0-9_])' : ''), 'i')]);
const TAG_RE = /\[memory:\s*([a-z_]+)\]/gi;

const problems = [];
const fail = (session, msg) => problems.push(`${session}: ${msg}`);
const lc = (s) => s.toLowerCase();

function walkStrings(v, out) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => walkStrings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => walkStrings(x, out));
  return out;
}

function isHumanText(s) {
  return !/^\s*<(command-|local-command-|system-reminder)/.test(s) && !s.startsWith('[Request interrupted');
}

const labelFiles = readdirSync(DIR).filter((f) => /^\d{3}-.*\.labels\.json$/.test(f)).sort();
const totals = { sessions: 0, expected: 0, forbidden: 0, neutral: 0, secrets: 0, byType: {}, tagSessions: 0, lines: 0 };

for (const lf of labelFiles) {
  const L = JSON.parse(readFileSync(join(DIR, lf), 'utf8'));
  const name = lf.replace(/\.labels\.json$/, '');
  if (L.session !== name) fail(name, `label "session" is ${L.session}`);
  const raw = readFileSync(join(DIR, name + '.jsonl'), 'utf8');
  const rawLines = raw.split('\n');
  if (rawLines[rawLines.length - 1] === '') rawLines.pop();
  const recs = [];
  let bad = 0;
  rawLines.forEach((line, i) => {
    try { recs.push(JSON.parse(line)); } catch { bad++; fail(name, `line ${i + 1} is not valid JSON`); }
  });
  if (bad !== (L.corruptLines ?? 0)) fail(name, `corrupt lines ${bad} != ${L.corruptLines ?? 0}`);
  if (rawLines.length < 25 || rawLines.length > 60) fail(name, `${rawLines.length} lines (want 25-60)`);

  // ---- version shape ----
  const major = L.version.slice(0, 3);
  const has = (t) => recs.some((r) => r.type === t);
  for (const r of recs) if (r.version && r.version !== L.version) fail(name, `line version ${r.version} != ${L.version}`);
  if (major === '1.0' && (has('progress') || has('file-history-snapshot'))) fail(name, '1.0.x session has progress or snapshot lines');
  if (major === '2.0' && (!has('file-history-snapshot') || has('progress'))) fail(name, '2.0.x shape wrong');
  if (major === '2.1' && (!has('progress') || !has('file-history-snapshot'))) fail(name, '2.1.x shape wrong');

  // ---- collect text ----
  const allStrings = [];
  recs.forEach((r) => walkStrings(r, allStrings));
  const mainTexts = []; const todoContents = []; const humanTexts = [];
  const toolUses = []; const errors = new Map(); const sideUses = [];
  let firstTodo = null; const completedSeen = new Set(); const planExpected = [];
  let lastTodos = null;
  for (const r of recs) {
    if (r.type !== 'user' && r.type !== 'assistant') continue;
    const content = r.message?.content;
    if (r.type === 'user') {
      if (Array.isArray(content)) {
        for (const b of content) {
          if (b.type === 'tool_result') errors.set(b.tool_use_id, b.is_error === true);
          else if (b.type === 'text' && !r.isSidechain && !r.isMeta && isHumanText(b.text)) { mainTexts.push(b.text); humanTexts.push(b.text); }
        }
      } else if (typeof content === 'string' && !r.isSidechain && !r.isMeta && !r.isCompactSummary && isHumanText(content)
                 && r.parentUuid !== undefined) {
        mainTexts.push(content); humanTexts.push(content);
      }
      continue;
    }
    for (const b of content ?? []) {
      if (r.isSidechain) { if (b.type === 'tool_use') sideUses.push(b); continue; }
      if (b.type === 'text') mainTexts.push(b.text);
      if (b.type === 'tool_use') {
        toolUses.push(b);
        if (b.name === 'TodoWrite') {
          const todos = b.input.todos;
          todos.forEach((t) => todoContents.push(t.content));
          if (!firstTodo) { firstTodo = todos[0].content; planExpected.push(['plan_created', firstTodo]); }
          for (const t of todos) {
            if (t.status === 'completed' && !completedSeen.has(t.content)) {
              completedSeen.add(t.content); planExpected.push(['plan_step_completed', t.content]);
            }
          }
          lastTodos = todos;
        }
      }
    }
  }
  if (lastTodos && !lastTodos.some((t) => t.status !== 'completed')) fail(name, 'every todo ends completed (want one left open)');
  const inAny = (s) => allStrings.some((x) => x.includes(s));

  // ---- expected ----
  const exp = L.expected ?? [];
  if (exp.length < 6 || exp.length > 12) fail(name, `${exp.length} expected items (want 6-12)`);
  const seenText = new Map();
  for (const e of exp) {
    if (!TYPES.has(e.type)) fail(name, `bad type ${e.type}`);
    if (!Array.isArray(e.keywords) || e.keywords.length < 1 || e.keywords.length > 3) fail(name, `keywords count for "${e.text}"`);
    for (const k of e.keywords) if (!lc(e.text).includes(lc(k))) fail(name, `keyword "${k}" not in text "${e.text}"`);
    const src = e.type.startsWith('plan_') ? [...todoContents, ...mainTexts] : mainTexts;
    if (!src.some((t) => t.includes(e.text))) fail(name, `expected text not found in main-thread text/todos: "${e.text}"`);
    const prev = seenText.get(e.text);
    if (prev && !(new Set([prev, e.type]).size === 2 && prev.startsWith('plan_') && e.type.startsWith('plan_')))
      fail(name, `two expected items share one sentence: "${e.text}"`);
    seenText.set(e.text, e.type);
    totals.byType[e.type] = (totals.byType[e.type] ?? 0) + 1;
  }
  // plan items must match the TodoWrite calls exactly
  const planLab = exp.filter((e) => e.type.startsWith('plan_') && !humanTexts.some((h) => h.includes(e.text) && /\[memory:\s*plan\]/i.test(h)));
  const a = planLab.map((e) => e.type + '|' + e.text).sort().join('\n');
  const b = planExpected.map(([t, c]) => t + '|' + c).sort().join('\n');
  if (a !== b) fail(name, `plan labels differ from TodoWrite calls:\n  labels: ${a}\n  calls:  ${b}`);

  // ---- memory tags ----
  let tags = 0;
  for (const h of humanTexts) tags += [...h.matchAll(TAG_RE)].length;
  for (const t of mainTexts) if (!humanTexts.includes(t)) tags += [...t.matchAll(TAG_RE)].length;
  if (tags > 1) fail(name, `${tags} memory tags (max 1)`);
  if (tags) totals.tagSessions++;

  // ---- forbidden / neutral ----
  const forb = L.forbidden ?? []; const neu = L.neutral ?? [];
  if (forb.length < 7) fail(name, `${forb.length} forbidden (want >= 7)`);
  for (const [kind, list] of [['forbidden', forb], ['neutral', neu]]) {
    for (const f of list) {
      if (!inAny(f)) fail(name, `${kind} string not in transcript: "${f}"`);
      for (const e of exp) if (e.keywords.every((k) => lc(f).includes(lc(k)))) fail(name, `${kind} "${f}" holds all keywords of expected "${e.text}"`);
      if (exp.some((e) => e.text === f)) fail(name, `${kind} string is also expected: "${f}"`);
    }
  }

  // ---- secrets ----
  const secrets = L.secrets ?? [];
  if (secrets.length < 1 || secrets.length > 2) fail(name, `${secrets.length} secrets (want 1-2)`);
  for (const sct of secrets) if (!inAny(sct)) fail(name, `secret not in transcript: ${sct.slice(0, 12)}…`);

  // ---- cue phrases ----
  const labelStrings = walkStrings(L, []);
  for (const str of [...allStrings, ...labelStrings]) {
    for (const [cue, re] of CUE_RES) if (re.test(str)) fail(name, `cue phrase "${cue}" in: ${str.slice(0, 120)}`);
  }

  // ---- files / commands ----
  const cwd = recs.find((r) => r.cwd)?.cwd;
  const rel = (p) => (p.startsWith(cwd + '/') ? p.slice(cwd.length + 1) : p).replace(/\/$/, '');
  const modified = new Set(); const explored = new Set(); let commands = 0;
  for (const u of toolUses) {
    const inp = u.input ?? {};
    if (['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(u.name)) {
      if (!errors.has(u.id)) fail(name, `no tool_result for ${u.id}`);
      if (!errors.get(u.id)) modified.add(rel(inp.file_path ?? inp.notebook_path));
    } else if (u.name === 'Read') explored.add(rel(inp.file_path));
    else if ((u.name === 'Grep' || u.name === 'Glob') && inp.path) explored.add(rel(inp.path));
    else if (u.name === 'Bash') commands++;
  }
  const same = (x, y) => x.length === y.size && new Set(x).size === x.length && x.every((v) => y.has(v));
  if (!same(L.files?.modified ?? [], modified)) fail(name, `files.modified ${JSON.stringify(L.files?.modified)} != ${JSON.stringify([...modified])}`);
  if (!same(L.files?.explored ?? [], explored)) fail(name, `files.explored ${JSON.stringify(L.files?.explored)} != ${JSON.stringify([...explored])}`);
  if (L.commands !== commands) fail(name, `commands ${L.commands} != ${commands}`);
  if (L.sidechain) {
    const sx = new Set(); let sc = 0;
    for (const u of sideUses) {
      if (u.name === 'Read') sx.add(rel(u.input.file_path));
      else if ((u.name === 'Grep' || u.name === 'Glob') && u.input.path) sx.add(rel(u.input.path));
      else if (u.name === 'Bash') sc++;
    }
    if (!same(L.sidechain.explored, sx) || L.sidechain.commands !== sc) fail(name, 'sidechain files/commands differ');
  }

  totals.sessions++; totals.expected += exp.length; totals.forbidden += forb.length; totals.neutral += neu.length;
  totals.secrets += secrets.length; totals.lines += rawLines.length;
}

if (totals.sessions !== 12) problems.push(`found ${totals.sessions} sessions, want 12`);
if (totals.tagSessions > 3) problems.push(`${totals.tagSessions} sessions use memory tags (want at most 3)`);
const extra = readdirSync(DIR).filter((f) => !/^\d{3}-.*\.(jsonl|labels\.json)$/.test(f) && f !== 'README.md' && f !== 'check.mjs');
if (extra.length) problems.push(`unexpected files in folder: ${extra.join(', ')}`);

console.log(JSON.stringify(totals, null, 2));
if (problems.length) {
  console.error(`\n${problems.length} problem(s):\n` + problems.map((p) => ' - ' + p).join('\n'));
  process.exit(1);
}
console.log('all checks passed');
