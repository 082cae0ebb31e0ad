// Consistency checks for a blind capture set (blind15 on share them). Usage: node check-set.mjs <set folder>,
// or `node check.mjs` inside a set. Exit code 1 on any failure.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const CUES = ['I decided', 'we decided', 'decision:', "I'll go with", 'going with', 'turns out', 'it turns out', 'TIL',
  'lesson learned', 'learned that', 'the fix was', 'root cause', 'I rejected', 'ruled out', 'instead of', 'note to self',
  'remember that', 'key insight', 'from now on'];
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cueRes = CUES.map((c) => [c, new RegExp(`(?<![A-Za-z0-9])${esc(c).replace(/'/g, "['\u2019]")}(?![A-Za-z0-9])`, 'i')]);

/** Checks the set in `dir`; exits 1 on any failure. */
export function checkSet(dir) {
  let failures = 0;
  const fail = (s, msg) => { failures++; console.log(`FAIL ${s}: ${msg}`); };

  function strings(v, out = []) {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
    else if (v && typeof v === 'object') Object.values(v).forEach((x) => strings(x, out));
    return out;
  }

  const rel = (p, cwd) => (cwd && p.startsWith(cwd + '/') ? p.slice(cwd.length + 1) : p).replace(/\/+$/, '');

  const sessions = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
  const totals = {};
  for (const file of sessions) {
    const name = file.replace(/\.jsonl$/, '');
    const raw = readFileSync(join(dir, file), 'utf8');
    const labels = JSON.parse(readFileSync(join(dir, name + '.labels.json'), 'utf8'));
    if (labels.session !== name) fail(name, `label session is ${labels.session}`);

    const lines = raw.split('\n').filter((l) => l.trim() !== '');
    const objs = [];
    lines.forEach((l, i) => {
      try { objs.push(JSON.parse(l)); } catch { fail(name, `line ${i + 1} is not valid JSON`); }
    });
    if (lines.length < 25 || lines.length > 55) fail(name, `${lines.length} lines (want 25-55)`);

    // main-thread prose: assistant text blocks, human user strings, todo contents
    const main = [];
    const all = strings(objs);
    const explored = [], modified = [];
    let commands = 0;
    const toolUses = new Map();
    const errored = new Set();
    for (const o of objs) {
      if (o.type === 'user' && !o.isSidechain) {
        const c = o.message?.content;
        if (Array.isArray(c)) for (const b of c) { if (b.type === 'tool_result' && b.is_error) errored.add(b.tool_use_id); }
      }
    }
    for (const o of objs) {
      if (o.isSidechain || (o.type !== 'user' && o.type !== 'assistant')) continue;
      if (o.version !== labels.version) fail(name, `line version ${o.version} != ${labels.version}`);
      const c = o.message?.content;
      if (o.type === 'user') {
        if (typeof c === 'string' && !o.isMeta && !c.startsWith('<')) main.push(c);
        continue;
      }
      for (const b of c || []) {
        if (b.type === 'text') main.push(b.text);
        if (b.type !== 'tool_use') continue;
        toolUses.set(b.id, b);
        const inp = b.input || {};
        if (b.name === 'Bash') commands++;
        if (b.name === 'TodoWrite') for (const t of inp.todos || []) main.push(t.content);
        if (b.name === 'Read' && inp.file_path) explored.push(rel(inp.file_path, o.cwd));
        if ((b.name === 'Grep' || b.name === 'Glob') && inp.path) explored.push(rel(inp.path, o.cwd));
        if (['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(b.name) && !errored.has(b.id)) {
          modified.push(rel(inp.file_path || inp.notebook_path, o.cwd));
        }
      }
    }
    const uniq = (a) => [...new Set(a)];
    const same = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
    if (!same(uniq(explored), labels.files.explored) || labels.files.explored.length !== uniq(labels.files.explored).length)
      fail(name, `files.explored ${JSON.stringify(labels.files.explored)} != recomputed ${JSON.stringify(uniq(explored))}`);
    if (!same(uniq(modified), labels.files.modified) || labels.files.modified.length !== uniq(labels.files.modified).length)
      fail(name, `files.modified ${JSON.stringify(labels.files.modified)} != recomputed ${JSON.stringify(uniq(modified))}`);
    if (commands !== labels.commands) fail(name, `commands ${labels.commands} != recomputed ${commands}`);

    // expected
    const exp = labels.expected;
    if (exp.length < 6 || exp.length > 11) fail(name, `${exp.length} expected items (want 6-11)`);
    const seenText = new Map();
    for (const e of exp) {
      totals[e.type] = (totals[e.type] || 0) + 1;
      if (!main.some((m) => m.includes(e.text))) fail(name, `expected text not in main-thread prose/todos: ${e.text}`);
      if (!e.keywords || e.keywords.length < 1) fail(name, `no keywords: ${e.text}`);
      for (const k of e.keywords) if (!e.text.toLowerCase().includes(k.toLowerCase())) fail(name, `keyword "${k}" not in text: ${e.text}`);
      const key = e.text + '|' + e.type;
      if (seenText.has(key)) fail(name, `duplicate expected item: ${e.text}`);
      seenText.set(key, 1);
      for (const s of labels.secrets) if (e.text.includes(s)) fail(name, `expected text contains a secret`);
    }
    // forbidden / neutral
    if ((labels.forbidden || []).length < 7) fail(name, `only ${labels.forbidden.length} forbidden`);
    for (const kind of ['forbidden', 'neutral']) {
      for (const f of labels[kind] || []) {
        if (!all.some((s) => s.includes(f))) fail(name, `${kind} string not in transcript: ${f}`);
        for (const e of exp) {
          if (e.keywords.every((k) => f.toLowerCase().includes(k.toLowerCase()))) fail(name, `${kind} string contains all keywords of expected "${e.text}": ${f}`);
        }
        if (exp.some((e) => e.text === f)) fail(name, `${kind} string is also expected: ${f}`);
      }
    }
    // secrets
    if (!labels.secrets.length || labels.secrets.length > 2) fail(name, `${labels.secrets.length} secrets (want 1-2)`);
    for (const s of labels.secrets) if (!all.some((x) => x.includes(s))) fail(name, `secret not in transcript: ${s}`);
    // cue phrases anywhere in transcript and labels
    const hay = all.concat(strings(labels));
    for (const [c, re] of cueRes) for (const s of hay) if (re.test(s)) { fail(name, `cue phrase "${c}" in: ${s.slice(0, 120)}`); break; }

    console.log(`ok   ${name}: ${lines.length} lines, ${exp.length} expected, ${labels.forbidden.length} forbidden, ${(labels.neutral || []).length} neutral, ${labels.secrets.length} secrets, ${commands} commands`);
  }
  console.log('totals by type:', JSON.stringify(totals));
  if (sessions.length !== 12) fail('set', `${sessions.length} sessions (want 12)`);
  if (failures) { console.log(`${failures} failure(s)`); process.exit(1); }
  console.log('all checks passed');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) checkSet(resolve(process.argv[2] ?? '.'));
