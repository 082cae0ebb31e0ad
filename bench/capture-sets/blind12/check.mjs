#!/usr/bin/env node
// Consistency checks for the capture-blind12 set. Run: node check.mjs
// Exits 1 if any check fails. Needs only Node >= 18, no dependencies.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const CUES = [
  'I decided', 'we decided', 'decision:', "I'll go with", 'going with', 'turns out', 'it turns out', 'TIL',
  'lesson learned', 'learned that', 'the fix was', 'root cause', 'I rejected', 'ruled out', 'instead of',
  'note to self', 'remember that', 'key insight', 'from now on',
];
const TYPES = new Set(['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved',
  'preference_noted', 'plan_created', 'plan_step_completed']);
const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cueRes = CUES.map((c) => {
  const lead = /^[A-Za-z0-9]/.test(c) ? '(?<![A-Za-z0-9])' : '';
  const tail = /[A-Za-z0-9]$/.test(c) ? '(?![A-Za-z0-9])' : '';
  return [c, new RegExp(lead + esc(c) + tail, 'i')];
});
const norm = (s) => s.replace(/[\u2018\u2019]/g, "'");
const lc = (s) => s.toLowerCase();

let failures = 0;
const fail = (session, msg) => { failures++; console.log(`FAIL ${session}: ${msg}`); };

function allStrings(v, out = []) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => allStrings(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); allStrings(x, out); }
  return out;
}

function checkCues(session, where, strings) {
  for (const s of strings) {
    const n = norm(s);
    for (const [c, re] of cueRes) if (re.test(n)) fail(session, `cue phrase "${c}" in ${where}: …${n.slice(Math.max(0, n.search(re) - 40), n.search(re) + 40)}…`);
  }
}

const files = fs.readdirSync(dir);
const sessions = files.filter((f) => /^\d{3}-.+\.jsonl$/.test(f)).map((f) => f.replace(/\.jsonl$/, '')).sort();
const allowed = new Set(['README.md', 'check.mjs', ...sessions.flatMap((s) => [`${s}.jsonl`, `${s}.labels.json`])]);
for (const f of files) if (!allowed.has(f)) fail('folder', `unexpected file or directory: ${f}`);
if (sessions.length !== 12) fail('folder', `expected 12 sessions, found ${sessions.length}`);

const totals = { expected: {}, forbidden: 0, neutral: 0, secrets: 0 };
let untagged = 0;

for (const name of sessions) {
  const raw = fs.readFileSync(path.join(dir, `${name}.jsonl`), 'utf8');
  const labelsPath = path.join(dir, `${name}.labels.json`);
  if (!fs.existsSync(labelsPath)) { fail(name, 'missing labels file'); continue; }
  const labels = JSON.parse(fs.readFileSync(labelsPath, 'utf8'));
  if (labels.session !== name) fail(name, `labels.session is ${labels.session}`);

  // 1. every line parses
  const lines = [];
  raw.split('\n').forEach((l, i) => {
    if (l === '') return;
    try { lines.push(JSON.parse(l)); } catch (e) { fail(name, `line ${i + 1} is not valid JSON`); }
  });
  if (lines.length < 25 || lines.length > 60) fail(name, `${lines.length} lines (want 25–60)`);

  // envelope sanity
  const uuids = new Map();
  for (const l of lines) if (l.uuid) uuids.set(l.uuid, l);
  const sids = new Set(lines.filter((l) => l.sessionId && l.type !== 'queue-operation').map((l) => l.sessionId));
  if (sids.size !== 1) fail(name, `sessionId not constant (${sids.size})`);
  const versions = new Set(lines.filter((l) => l.version).map((l) => l.version));
  if (versions.size !== 1 || !versions.has(labels.version)) fail(name, `version mismatch ${[...versions]} vs ${labels.version}`);
  for (const l of lines) if (l.uuid && l.parentUuid && !uuids.has(l.parentUuid)) fail(name, `dangling parentUuid on ${l.uuid}`);
  const toolLine = new Map(); // tool_use id -> line
  const reqByMsg = new Map();
  for (const l of lines) {
    if (l.type !== 'assistant') continue;
    const prev = reqByMsg.get(l.message.id);
    if (prev && prev !== l.requestId) fail(name, `message ${l.message.id} has two requestIds`);
    reqByMsg.set(l.message.id, l.requestId);
    for (const c of l.message.content) if (c.type === 'tool_use') toolLine.set(c.id, l);
  }
  const results = new Map(); // tool_use id -> is_error
  for (const l of lines) {
    if (l.type !== 'user' || !Array.isArray(l.message.content)) continue;
    for (const c of l.message.content) {
      if (c.type !== 'tool_result') continue;
      if (results.has(c.tool_use_id)) fail(name, `two results for ${c.tool_use_id}`);
      results.set(c.tool_use_id, !!c.is_error);
      const tl = toolLine.get(c.tool_use_id);
      if (!tl) fail(name, `tool_result without tool_use ${c.tool_use_id}`);
      else if (l.parentUuid !== tl.uuid) fail(name, `tool_result parentUuid is not the tool_use line (${c.tool_use_id})`);
      if (l.sourceToolAssistantUUID && tl && l.sourceToolAssistantUUID !== tl.uuid) fail(name, 'sourceToolAssistantUUID mismatch');
    }
  }
  for (const id of toolLine.keys()) if (!results.has(id)) fail(name, `tool_use ${id} has no result`);

  // main-thread prose: assistant text, human user text, todo content
  const mainTexts = [];
  const userTexts = [];
  const todoWrites = [];
  for (const l of lines) {
    if (l.isSidechain) continue;
    if (l.type === 'assistant') {
      for (const c of l.message.content) {
        if (c.type === 'text') mainTexts.push(c.text);
        if (c.type === 'tool_use' && c.name === 'TodoWrite') {
          todoWrites.push(c.input.todos);
          for (const t of c.input.todos) mainTexts.push(t.content);
        }
      }
    } else if (l.type === 'user' && !l.isMeta && !l.isCompactSummary) {
      const c = l.message.content;
      if (typeof c === 'string') { mainTexts.push(c); userTexts.push(c); }
      else for (const b of c) if (b.type === 'text') { mainTexts.push(b.text); userTexts.push(b.text); }
    }
  }
  const everything = lines.flatMap((l) => allStrings(l));

  // 2/3. expected items
  const exp = labels.expected || [];
  if (exp.length < 5 || exp.length > 12) fail(name, `${exp.length} expected items (want 5–12)`);
  const seenTexts = new Set();
  for (const e of exp) {
    totals.expected[e.type] = (totals.expected[e.type] || 0) + 1;
    if (!TYPES.has(e.type)) fail(name, `unknown type ${e.type}`);
    if (!mainTexts.some((t) => t.includes(e.text))) fail(name, `expected text not in main-thread prose/todos: ${e.text.slice(0, 80)}`);
    if (!e.keywords || e.keywords.length < 1 || e.keywords.length > 3) fail(name, `keywords count for ${e.text.slice(0, 40)}`);
    for (const k of e.keywords) if (!lc(e.text).includes(lc(k))) fail(name, `keyword "${k}" not in its text`);
    if (e.type !== 'plan_step_completed') {
      if (seenTexts.has(e.text)) fail(name, `two expected items share a sentence: ${e.text.slice(0, 60)}`);
      seenTexts.add(e.text);
    }
  }

  // plan items recomputed from TodoWrite
  const plan = [];
  const status = new Map();
  todoWrites.forEach((todos, i) => {
    if (i === 0) plan.push(['plan_created', todos[0].content]);
    for (const t of todos) {
      if (t.status === 'completed' && status.get(t.content) !== 'completed') plan.push(['plan_step_completed', t.content]);
      status.set(t.content, t.status);
    }
  });
  const labelledPlan = exp.filter((e) => e.type === 'plan_created' || e.type === 'plan_step_completed').map((e) => [e.type, e.text]);
  if (JSON.stringify(plan) !== JSON.stringify(labelledPlan)) fail(name, `plan items differ from TodoWrite: ${JSON.stringify(plan)} vs ${JSON.stringify(labelledPlan)}`);
  if (todoWrites.length && ![...status.values()].some((s) => s !== 'completed')) fail(name, 'every todo is completed (want one left pending)');

  // MEMORY tags
  const tags = userTexts.join('\n').match(/\[memory:\s*\w+\]/gi) || [];
  if (tags.length > 1) fail(name, `${tags.length} [MEMORY] tags`);
  if (tags.length === 0) untagged++;

  // 4/5. forbidden and neutral
  const forb = labels.forbidden || [];
  const neu = labels.neutral || [];
  if (forb.length < 7) fail(name, `${forb.length} forbidden (want >= 7)`);
  totals.forbidden += forb.length;
  totals.neutral += neu.length;
  for (const [kind, list] of [['forbidden', forb], ['neutral', neu]]) {
    for (const s of list) {
      if (!everything.some((t) => t.includes(s))) fail(name, `${kind} string not in transcript: ${s.slice(0, 80)}`);
      for (const e of exp) {
        if (e.keywords.every((k) => lc(s).includes(lc(k)))) fail(name, `${kind} string contains all keywords of "${e.text.slice(0, 50)}": ${s.slice(0, 60)}`);
        if (e.text.includes(s) || s.includes(e.text)) fail(name, `${kind} string overlaps an expected text: ${s.slice(0, 60)}`);
      }
    }
  }

  // 6. secrets
  const secrets = labels.secrets || [];
  if (secrets.length < 1 || secrets.length > 2) fail(name, `${secrets.length} secrets (want 1–2)`);
  totals.secrets += secrets.length;
  for (const s of secrets) if (!everything.some((t) => t.includes(s))) fail(name, `secret not in transcript: ${s.slice(0, 12)}…`);

  // 7. cue phrases: transcript and labels
  checkCues(name, 'transcript', everything);
  checkCues(name, 'labels', allStrings(labels));

  // 8. files / commands
  const rel = (p, cwd) => (p.startsWith(cwd + '/') ? p.slice(cwd.length + 1) : p);
  const recompute = (side) => {
    const modified = [], explored = [];
    let commands = 0;
    const add = (arr, p) => { if (!arr.includes(p)) arr.push(p); };
    for (const l of lines) {
      if (l.type !== 'assistant' || !!l.isSidechain !== side) continue;
      for (const c of l.message.content) {
        if (c.type !== 'tool_use') continue;
        const inp = c.input;
        if (EDIT_TOOLS.has(c.name) && !results.get(c.id)) add(modified, rel(inp.file_path || inp.notebook_path, l.cwd));
        if (c.name === 'Read') add(explored, rel(inp.file_path, l.cwd));
        if ((c.name === 'Glob' || c.name === 'Grep') && inp.path) add(explored, rel(inp.path, l.cwd));
        if (c.name === 'Bash') commands++;
      }
    }
    return { modified, explored, commands };
  };
  const sameSet = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
  const main = recompute(false);
  if (!sameSet(main.modified, labels.files.modified)) fail(name, `files.modified ${JSON.stringify(main.modified)} vs ${JSON.stringify(labels.files.modified)}`);
  if (!sameSet(main.explored, labels.files.explored)) fail(name, `files.explored ${JSON.stringify(main.explored)} vs ${JSON.stringify(labels.files.explored)}`);
  if (main.commands !== labels.commands) fail(name, `commands ${main.commands} vs ${labels.commands}`);
  const hasSide = lines.some((l) => l.isSidechain);
  if (hasSide) {
    const sc = recompute(true);
    if (!labels.sidechain) fail(name, 'sidechain lines present but no `sidechain` label');
    else if (!sameSet(sc.explored, labels.sidechain.explored) || sc.commands !== labels.sidechain.commands) fail(name, 'sidechain files/commands differ');
  }
  console.log(`ok   ${name}  lines=${lines.length} expected=${exp.length} forbidden=${forb.length} neutral=${neu.length} secrets=${secrets.length}`);
}

if (untagged < 9) fail('set', `only ${untagged} sessions without a [MEMORY] tag (want >= 9)`);
const readme = path.join(dir, 'README.md');
if (fs.existsSync(readme)) checkCues('README', 'README.md', [fs.readFileSync(readme, 'utf8')]);
console.log(`\nexpected by type: ${JSON.stringify(totals.expected)}`);
console.log(`forbidden=${totals.forbidden} neutral=${totals.neutral} secrets=${totals.secrets} untagged sessions=${untagged}`);
console.log(failures ? `\n${failures} check(s) FAILED` : '\nall checks passed');
process.exit(failures ? 1 : 0);
