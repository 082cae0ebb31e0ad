// Consistency checks for capture-blind10. Run: node check.mjs  (exit code 1 on any failure)
// Independent of build/: it reads only the *.jsonl and *.labels.json files in this folder.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const TYPES = new Set(['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved', 'preference_noted', 'plan_created', 'plan_step_completed']);
// Explicit cue phrases that must not appear anywhere (word-bounded, case-insensitive).
const CUES = ['I decided', 'we decided', 'decision:', "I'll go with", 'going with', 'turns out', 'it turns out', 'TIL', 'lesson learned', 'learned that', 'the fix was', 'root cause', 'I rejected', 'ruled out', 'note to self', 'remember that', 'key insight', 'from now on'];
const cueRe = CUES.map((c) => [c, new RegExp(`(^|[^A-Za-z0-9_])${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[^A-Za-z0-9_])`, 'i')]);
const insteadRe = /instead of [^.!?\n]{1,60}?\bwe\b/i; // "instead of X we"

let failures = 0;
const fail = (s, m) => { failures++; console.log(`FAIL ${s}: ${m}`); };
const low = (s) => s.toLowerCase();

function allStrings(v, out = []) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => allStrings(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => allStrings(x, out));
  return out;
}

const sessions = fs.readdirSync(DIR).filter((f) => /^\d{3}-.+\.jsonl$/.test(f)).sort();
const totals = { sessions: 0, expected: 0, forbidden: 0, neutral: 0, secrets: 0, byType: {}, tagSessions: 0, versions: {} };
for (const f of sessions) {
  const name = f.replace(/\.jsonl$/, '');
  const raw = fs.readFileSync(path.join(DIR, f), 'utf8');
  const labels = JSON.parse(fs.readFileSync(path.join(DIR, name + '.labels.json'), 'utf8'));
  totals.sessions++;
  if (labels.session !== name) fail(name, `labels.session is ${labels.session}`);

  // 1. every line parses
  const rows = raw.split('\n').filter((l, i, a) => !(i === a.length - 1 && l === ''));
  const lines = [];
  rows.forEach((l, i) => { try { lines.push(JSON.parse(l)); } catch { fail(name, `line ${i + 1} is not JSON`); } });
  if (rows.length < 25 || rows.length > 60) fail(name, `${rows.length} lines (want 25-60)`);

  // envelope checks
  const byUuid = new Map();
  for (const l of lines) if (l.uuid) byUuid.set(l.uuid, l);
  const toolLine = new Map(); // tool_use id -> line uuid
  const msgIds = new Map();
  for (const l of lines) {
    if (l.version && l.version !== labels.version) fail(name, `line version ${l.version} != ${labels.version}`);
    if (l.parentUuid && !byUuid.has(l.parentUuid)) fail(name, `dangling parentUuid ${l.parentUuid}`);
    if (l.type === 'assistant') {
      if (l.message.content.length !== 1) fail(name, 'assistant line with more than one block');
      msgIds.set(l.message.id, (msgIds.get(l.message.id) || 0) + 1);
      for (const b of l.message.content) if (b.type === 'tool_use') toolLine.set(b.id, l.uuid);
    }
  }
  for (const l of lines) {
    if (l.type !== 'user' || !Array.isArray(l.message?.content)) continue;
    for (const b of l.message.content) {
      if (b.type !== 'tool_result') continue;
      if (toolLine.get(b.tool_use_id) !== l.parentUuid) fail(name, `tool_result ${b.tool_use_id} parentUuid is not the tool_use line`);
      if (l.sourceToolAssistantUUID && l.sourceToolAssistantUUID !== l.parentUuid) fail(name, 'sourceToolAssistantUUID mismatch');
    }
  }
  const major = labels.version.split('.').slice(0, 2).join('.');
  // version-specific envelope details
  const taskIds = new Map();
  for (const l of lines) if (l.type === 'assistant' && !l.isSidechain) for (const b of l.message.content) if (b.type === 'tool_use' && b.name === 'Task') taskIds.set(b.id, l.uuid);
  let agentProgress = 0, sidechainLines = 0;
  for (const l of lines) {
    if (l.type === 'file-history-snapshot' && !byUuid.has(l.messageId)) fail(name, `snapshot messageId ${l.messageId} is not a line uuid`);
    if (l.type === 'summary' && !byUuid.has(l.leafUuid)) fail(name, 'summary leafUuid dangling');
    if (l.isSidechain) { sidechainLines++; if (major !== '1.0') fail(name, 'inline sidechain outside 1.0.x'); }
    if (l.type === 'progress' && l.data?.type === 'agent_progress') {
      agentProgress++;
      if (taskIds.get(l.parentToolUseID) !== l.parentUuid) fail(name, 'agent_progress not attached to its Task tool_use line');
    }
    if (major === '2.1' && l.type === 'user' && Array.isArray(l.message?.content) && l.message.content.some((b) => b.type === 'tool_result') && !l.sourceToolAssistantUUID) fail(name, '2.1.x tool_result without sourceToolAssistantUUID');
  }
  for (const l of lines.filter((x) => x.isSidechain && x.parentUuid === null)) if (l.type !== 'user') fail(name, 'sidechain root is not a user line');
  const has = (t) => lines.some((l) => l.type === t);
  if (major === '1.0' && (has('file-history-snapshot') || has('progress'))) fail(name, '1.0.x session has snapshots or progress lines');
  if (major === '2.0' && (!has('file-history-snapshot') || has('progress'))) fail(name, '2.0.x shape wrong');
  if (major === '2.1' && (!has('file-history-snapshot') || !has('progress'))) fail(name, '2.1.x shape wrong');

  // main-thread prose sources
  const main = [];
  const todoContents = [];
  let humanTurns = 0;
  let lastTodos = null;
  for (const l of lines) {
    if (l.isSidechain) continue;
    if (l.type === 'assistant') {
      for (const b of l.message.content) {
        if (b.type === 'text') main.push(b.text);
        if (b.type === 'tool_use' && b.name === 'TodoWrite') { lastTodos = b.input.todos; for (const t of b.input.todos) todoContents.push(t.content); }
      }
    } else if (l.type === 'user' && !l.isMeta) {
      const c = l.message.content;
      if (typeof c === 'string') { main.push(c); humanTurns++; }
      else for (const b of c) if (b.type === 'text') main.push(b.text);
    }
  }
  const mainAll = [...main, ...todoContents];
  const everything = allStrings(lines);
  const inTranscript = (s) => everything.some((x) => x.includes(s));

  // 2. expected items
  const exp = labels.expected;
  if (exp.length < 7 || exp.length > 12) fail(name, `${exp.length} expected items (want 7-12)`);
  for (const e of exp) {
    if (!TYPES.has(e.type)) fail(name, `bad type ${e.type}`);
    if (!mainAll.some((m) => m.includes(e.text))) fail(name, `expected text not in main-thread prose/todos: ${e.text}`);
    if (e.keywords.length < 1 || e.keywords.length > 3) fail(name, `keyword count ${e.keywords.length}: ${e.text}`);
    for (const k of e.keywords) if (!low(e.text).includes(low(k))) fail(name, `keyword "${k}" not in text: ${e.text}`);
    for (const s of labels.secrets) if (e.text.includes(s)) fail(name, `expected text contains a secret: ${e.text}`);
    totals.byType[e.type] = (totals.byType[e.type] || 0) + 1;
  }
  if (new Set(exp.map((e) => e.type)).size < 3) fail(name, 'fewer than 3 memory types');
  // 3. forbidden / neutral
  if (labels.forbidden.length < 7) fail(name, `${labels.forbidden.length} forbidden (want >= 7)`);
  for (const s of [...labels.forbidden, ...(labels.neutral || [])]) {
    if (!inTranscript(s)) fail(name, `forbidden/neutral not in transcript: ${s}`);
    for (const e of exp) if (e.keywords.every((k) => low(s).includes(low(k)))) fail(name, `"${s}" contains all keywords of expected "${e.text}"`);
  }
  for (const s of [...labels.forbidden, ...(labels.neutral || [])]) for (const sec of labels.secrets) if (s.includes(sec)) fail(name, `forbidden/neutral string contains a secret: ${s}`);
  // 4. secrets
  if (labels.secrets.length < 1 || labels.secrets.length > 2) fail(name, `${labels.secrets.length} secrets (want 1-2)`);
  for (const s of labels.secrets) if (!raw.includes(JSON.stringify(s).slice(1, -1))) fail(name, `secret not in transcript: ${s}`);
  // 5. cue phrases anywhere in the transcript and the labels
  const labelRaw = fs.readFileSync(path.join(DIR, name + '.labels.json'), 'utf8');
  for (const txt of [...everything, ...allStrings(labels)]) {
    for (const [c, re] of cueRe) if (re.test(txt)) fail(name, `cue phrase "${c}" in: ${txt.slice(0, 120)}`);
    if (insteadRe.test(txt)) fail(name, `"instead of X we" in: ${txt.slice(0, 120)}`);
  }
  // 6. memory tags: at most one per session
  const tags = (raw.match(/\[MEMORY:/g) || []).length;
  if (tags > 1) fail(name, `${tags} [MEMORY:] tags`);
  if (tags) totals.tagSessions++;
  // 7. files and commands recomputed from main-thread tool calls
  const cwd = lines.find((l) => l.cwd)?.cwd;
  const rel = (p) => (p.startsWith(cwd + '/') ? p.slice(cwd.length + 1) : p);
  const failed = new Set();
  for (const l of lines) if (l.type === 'user' && Array.isArray(l.message?.content)) for (const b of l.message.content) if (b.type === 'tool_result' && b.is_error) failed.add(b.tool_use_id);
  const mod = [], expl = []; let cmds = 0, failedEdits = 0, failedBash = 0;
  const sideExpl = [], sideCmds = { n: 0 };
  for (const l of lines) {
    if (l.type !== 'assistant') continue;
    for (const b of l.message.content) {
      if (b.type !== 'tool_use') continue;
      const ex = l.isSidechain ? sideExpl : expl;
      if (['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(b.name)) {
        if (l.isSidechain) continue;
        if (failed.has(b.id)) { failedEdits++; continue; }
        const p = rel(b.input.file_path || b.input.notebook_path);
        if (!mod.includes(p)) mod.push(p);
      } else if (b.name === 'Read') { const p = rel(b.input.file_path); if (!ex.includes(p)) ex.push(p); }
      else if ((b.name === 'Grep' || b.name === 'Glob') && b.input.path) { const p = rel(b.input.path); if (!ex.includes(p)) ex.push(p); }
      else if (b.name === 'Bash') { if (l.isSidechain) sideCmds.n++; else { cmds++; if (failed.has(b.id)) failedBash++; } }
    }
  }
  const same = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
  if (!same(mod, labels.files.modified)) fail(name, `files.modified ${JSON.stringify(labels.files.modified)} != ${JSON.stringify(mod)}`);
  if (!same(expl, labels.files.explored)) fail(name, `files.explored ${JSON.stringify(labels.files.explored)} != ${JSON.stringify(expl)}`);
  if (cmds !== labels.commands) fail(name, `commands ${labels.commands} != ${cmds}`);
  if (labels.sidechain && (!same(sideExpl, labels.sidechain.explored) || sideCmds.n !== labels.sidechain.commands)) fail(name, 'sidechain counts differ');
  // 8. plans: if TodoWrite is used, at least one todo stays pending and plan labels line up
  const todoCalls = lines.filter((l) => !l.isSidechain && l.type === 'assistant' && l.message.content[0].type === 'tool_use' && l.message.content[0].name === 'TodoWrite');
  if (todoCalls.length) {
    if (!lastTodos.some((t) => t.status === 'pending')) fail(name, 'no todo left pending');
    const first = todoCalls[0].message.content[0].input.todos[0].content;
    const pc = exp.filter((e) => e.type === 'plan_created' && e.text === first);
    if (pc.length !== 1) fail(name, 'plan_created for first todo missing');
    const done = new Set(todoCalls.flatMap((l) => l.message.content[0].input.todos.filter((t) => t.status === 'completed').map((t) => t.content)));
    const steps = exp.filter((e) => e.type === 'plan_step_completed').map((e) => e.text);
    if (!same([...done], steps)) fail(name, `plan_step_completed ${JSON.stringify(steps)} != completed todos ${JSON.stringify([...done])}`);
  }
  for (const k of ['forbidden', 'neutral', 'secrets']) totals[k] += (labels[k] || []).length;
  if (sidechainLines || agentProgress) totals.subagentSessions = (totals.subagentSessions || 0) + 1;
  if (humanTurns >= 3 && humanTurns <= 5) totals.longSessions = (totals.longSessions || 0) + 1;
  totals.versions[major] = (totals.versions[major] || 0) + 1;
  if (lines.some((l) => l.type === 'assistant' && !l.isSidechain && l.message.content.some((b) => b.type === 'tool_use' && ['Edit', 'MultiEdit'].includes(b.name) && failed.has(b.id) && !labels.files.modified.includes(rel(b.input.file_path))))) totals.failedEditOnlyExplored = (totals.failedEditOnlyExplored || 0) + 1;
  if (failedEdits) totals.failedEditSessions = (totals.failedEditSessions || 0) + 1;
  if (failedBash) totals.failedBashSessions = (totals.failedBashSessions || 0) + 1;
  totals.expected += exp.length;
  console.log(`ok? ${name}: lines=${rows.length} turns=${humanTurns} expected=${exp.length} forbidden=${labels.forbidden.length} neutral=${(labels.neutral || []).length} secrets=${labels.secrets.length} cmds=${cmds} failedBash=${failedBash} failedEdits=${failedEdits} tags=${tags}`);
}
console.log(JSON.stringify(totals));
if (totals.sessions === 12) {
  if (totals.sessions - totals.tagSessions < 8) fail('set', 'fewer than 8 sessions without [MEMORY:] tags');
  if ((totals.subagentSessions || 0) < 2) fail('set', 'fewer than 2 sessions with a subagent');
  if ((totals.longSessions || 0) < 4) fail('set', 'fewer than 4 sessions with 3-5 user turns');
  if (!totals.failedEditOnlyExplored) fail('set', 'no failed Edit on a file that is otherwise unmodified');
  if (!totals.failedBashSessions) fail('set', 'no failed Bash command');
  for (const v of ['1.0', '2.0', '2.1']) if (!totals.versions[v]) fail('set', `no ${v}.x session`);
}
if (failures) { console.log(`${failures} failure(s)`); process.exit(1); }
console.log('all checks passed');
