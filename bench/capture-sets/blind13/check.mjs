#!/usr/bin/env node
// Self-check for capture-blind13 (sessions 221-232). No dependencies: `node check.mjs`.
// Exits 1 and prints every problem when a check fails.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const CUES = ['I decided', 'we decided', 'decision:', "I'll go with", 'going with', 'turns out', 'it turns out', 'TIL',
  'lesson learned', 'learned that', 'the fix was', 'root cause', 'I rejected', 'ruled out', 'instead of', 'note to self',
  'remember that', 'key insight', 'from now on'];
const TYPES = new Set(['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved', 'preference_noted',
  'plan_created', 'plan_step_completed']);
const MODIFYING = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cueRes = CUES.map((c) => [c, new RegExp(`(?<![A-Za-z0-9_])${esc(c)}(?![A-Za-z0-9_])`, 'i')]);
const cueHits = (s) => cueRes.filter(([, re]) => re.test(s)).map(([c]) => c);

function allStrings(x, out = []) {
  if (typeof x === 'string') out.push(x);
  else if (Array.isArray(x)) x.forEach((v) => allStrings(v, out));
  else if (x && typeof x === 'object') Object.values(x).forEach((v) => allStrings(v, out));
  return out;
}

const problems = [];
const fail = (session, msg) => problems.push(`${session}: ${msg}`);
const stats = { sessions: 0, expected: 0, forbidden: 0, neutral: 0, secrets: 0, byType: {}, noTag: 0 };

const names = readdirSync(here).filter((f) => /^\d{3}-.+\.jsonl$/.test(f)).sort();
if (names.length !== 12) problems.push(`expected 12 transcripts, found ${names.length}`);

for (const file of names) {
  const session = file.replace(/\.jsonl$/, '');
  stats.sessions++;
  const raw = readFileSync(join(here, file), 'utf8');
  const labels = JSON.parse(readFileSync(join(here, `${session}.labels.json`), 'utf8'));
  const lines = raw.split('\n').filter((l) => l.trim() !== '');

  // 1. every line parses
  const objs = [];
  lines.forEach((l, i) => {
    try { objs.push(JSON.parse(l)); } catch { fail(session, `line ${i + 1} is not valid JSON`); }
  });
  if (labels.session !== session) fail(session, `labels.session is ${labels.session}`);
  if (lines.length < 25 || lines.length > 60) fail(session, `${lines.length} lines, want 25-60`);
  const versions = new Set(objs.filter((o) => o.version).map((o) => o.version));
  if (versions.size !== 1 || !versions.has(labels.version)) fail(session, `version mismatch ${[...versions]} vs ${labels.version}`);

  // main-thread material
  const mainTexts = []; const userTexts = []; const todoContents = []; const todoLists = [];
  const toolUses = new Map(); const errored = new Set();
  let cwd = null;
  for (const o of objs) {
    if (o.cwd && !cwd) cwd = o.cwd;
    if (o.isSidechain || (o.type !== 'user' && o.type !== 'assistant')) continue;
    const c = o.message?.content;
    if (o.type === 'user') {
      if (typeof c === 'string') userTexts.push(c);
      else if (Array.isArray(c)) {
        for (const b of c) {
          if (b.type === 'text') userTexts.push(b.text);
          if (b.type === 'tool_result' && b.is_error) errored.add(b.tool_use_id);
        }
      }
    } else if (Array.isArray(c)) {
      for (const b of c) {
        if (b.type === 'text') mainTexts.push(b.text);
        if (b.type === 'tool_use') {
          toolUses.set(b.id, b);
          if (b.name === 'TodoWrite') {
            todoLists.push(b.input.todos);
            b.input.todos.forEach((t) => todoContents.push(t.content));
          }
        }
      }
    }
  }
  const mainHay = [...mainTexts, ...userTexts, ...todoContents];
  const everything = objs.flatMap((o) => allStrings(o)).join('\n');

  // 2-3. expected items
  const seenText = new Set();
  for (const e of labels.expected) {
    stats.expected++;
    stats.byType[e.type] = (stats.byType[e.type] ?? 0) + 1;
    if (!TYPES.has(e.type)) fail(session, `unknown type ${e.type}`);
    if (!mainHay.some((t) => t.includes(e.text))) fail(session, `expected text not in main-thread text: ${e.text}`);
    if (e.keywords.length < 2 || e.keywords.length > 3) fail(session, `want 2-3 keywords: ${e.text}`);
    for (const k of e.keywords) if (!e.text.toLowerCase().includes(k.toLowerCase())) fail(session, `keyword "${k}" not in its text`);
    // one item per sentence; a todo may carry both its plan_created and its plan_step_completed
    const key = e.type.startsWith('plan_') ? `${e.type}\u0000${e.text}` : e.text;
    if (seenText.has(key) || (!e.type.startsWith('plan_') && [...seenText].some((k) => k.endsWith(`\u0000${e.text}`)))) {
      fail(session, `two expected items share one sentence: ${e.text}`);
    }
    seenText.add(key);
  }
  if (labels.expected.length < 6 || labels.expected.length > 12) fail(session, `${labels.expected.length} expected items, want 6-12`);

  // 4-5. forbidden / neutral
  const neutral = labels.neutral ?? [];
  stats.forbidden += labels.forbidden.length;
  stats.neutral += neutral.length;
  if (labels.forbidden.length < 7) fail(session, `only ${labels.forbidden.length} forbidden strings`);
  for (const [kind, list] of [['forbidden', labels.forbidden], ['neutral', neutral]]) {
    for (const f of list) {
      if (!everything.includes(f)) fail(session, `${kind} string not in transcript: ${f}`);
      for (const e of labels.expected) {
        if (e.keywords.every((k) => f.toLowerCase().includes(k.toLowerCase()))) {
          fail(session, `${kind} string contains all keywords [${e.keywords}] of an expected item: ${f}`);
        }
      }
    }
  }

  // 6. secrets
  stats.secrets += labels.secrets.length;
  if (labels.secrets.length < 1 || labels.secrets.length > 2) fail(session, `${labels.secrets.length} secrets, want 1-2`);
  for (const s of labels.secrets) if (!everything.includes(s)) fail(session, `secret not in transcript: ${s.slice(0, 12)}…`);

  // 7. cue phrases anywhere (raw lines, decoded strings, labels)
  for (const [where, text] of [['raw', raw], ['decoded', everything], ['labels', JSON.stringify(labels)]]) {
    const hits = cueHits(text);
    if (hits.length) fail(session, `cue phrase(s) in ${where}: ${hits.join(', ')}`);
  }

  // [MEMORY: …] tags: at most one per session
  const tags = mainHay.join('\n').match(/\[memory:\s*[a-z]+\]/gi) ?? [];
  if (tags.length > 1) fail(session, `${tags.length} [MEMORY] tags`);
  if (tags.length === 0) stats.noTag++;

  // plans: first TodoWrite -> plan_created on its first todo; completed todos -> plan_step_completed; one left open
  if (todoLists.length) {
    const first = todoLists[0][0].content;
    if (!labels.expected.some((e) => e.type === 'plan_created' && e.text === first)) fail(session, 'no plan_created for first todo');
    const completed = new Set(todoLists.flatMap((l) => l.filter((t) => t.status === 'completed').map((t) => t.content)));
    const steps = labels.expected.filter((e) => e.type === 'plan_step_completed').map((e) => e.text);
    if (steps.length !== completed.size || steps.some((t) => !completed.has(t))) fail(session, 'plan_step_completed items do not match completed todos');
    const last = todoLists[todoLists.length - 1];
    if (!last.some((t) => t.status === 'pending')) fail(session, 'no todo left pending');
  } else if (labels.expected.some((e) => e.type === 'plan_created' || e.type === 'plan_step_completed')) {
    fail(session, 'plan items without TodoWrite');
  }

  // 8. files / commands from main-thread tool calls
  const rel = (p) => (p.startsWith(`${cwd}/`) ? p.slice(cwd.length + 1) : p);
  const modified = []; const explored = []; let commands = 0;
  for (const [id, b] of toolUses) {
    if (MODIFYING.has(b.name) && !errored.has(id)) modified.push(rel(b.input.file_path ?? b.input.notebook_path));
    if (b.name === 'Read') explored.push(rel(b.input.file_path));
    if ((b.name === 'Glob' || b.name === 'Grep') && b.input.path) explored.push(rel(b.input.path));
    if (b.name === 'Bash') commands++;
  }
  const same = (a, b) => JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...b].sort()) && new Set(b).size === b.length;
  if (!same(modified, labels.files.modified)) fail(session, `files.modified ${JSON.stringify([...new Set(modified)])} != labels`);
  if (!same(explored, labels.files.explored)) fail(session, `files.explored ${JSON.stringify([...new Set(explored)])} != labels`);
  if (commands !== labels.commands) fail(session, `commands ${commands} != labels ${labels.commands}`);

  // sidechain (informational field, still checked when present)
  const side = objs.filter((o) => o.isSidechain && o.type === 'assistant').flatMap((o) => o.message.content.filter((b) => b.type === 'tool_use'));
  if (side.length || labels.sidechain) {
    const sx = []; let sc = 0;
    for (const b of side) {
      if (b.name === 'Read') sx.push(rel(b.input.file_path));
      if ((b.name === 'Glob' || b.name === 'Grep') && b.input.path) sx.push(rel(b.input.path));
      if (b.name === 'Bash') sc++;
    }
    if (!labels.sidechain || !same(sx, labels.sidechain.explored) || sc !== labels.sidechain.commands) fail(session, 'sidechain block mismatch');
  }
}

if (stats.noTag < 9) problems.push(`only ${stats.noTag} sessions without a [MEMORY] tag, want at least 9`);

console.log(`sessions ${stats.sessions}, expected ${stats.expected}, forbidden ${stats.forbidden}, neutral ${stats.neutral}, secrets ${stats.secrets}`);
console.log('by type:', JSON.stringify(stats.byType));
if (problems.length) {
  console.error(`\n${problems.length} problem(s):`);
  for (const p of problems) console.error(`- ${p}`);
  process.exit(1);
}
console.log('all checks passed');
