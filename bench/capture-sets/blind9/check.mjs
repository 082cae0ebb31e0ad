// Consistency checks for capture-blind9. Run: node check.mjs
// Reads only the files in this folder.
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const DIR = dirname(fileURLToPath(import.meta.url));
const CUES = ["I decided", "we decided", "decision:", "I'll go with", "I’ll go with", "going with", "turns out",
  "it turns out", "TIL", "lesson learned", "learned that", "the fix was", "root cause", "I rejected", "ruled out",
  "instead of", "note to self", "remember that", "key insight", "from now on"];
const TYPES = new Set(["decision_made", "approach_rejected", "knowledge_acquired", "error_resolved",
  "preference_noted", "plan_created", "plan_step_completed"]);
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const cueRes = CUES.map((c) => [c, new RegExp(`(?<![A-Za-z0-9])${esc(c)}(?![A-Za-z0-9])`, "i")]);

let failures = 0;
let sessFail = 0;
const fail = (sess, msg) => { failures++; sessFail++; console.log(`FAIL ${sess}: ${msg}`); };

function strings(v, out) {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) { out.push(k); strings(x, out); }
  return out;
}

const files = readdirSync(DIR).filter((f) => /^\d{3}-.*\.jsonl$/.test(f)).sort();
const totals = { sessions: 0, expected: 0, forbidden: 0, neutral: 0, secrets: 0, byType: {}, noTag: 0 };

for (const f of files) {
  sessFail = 0;
  const name = f.replace(/\.jsonl$/, "");
  const raw = readFileSync(join(DIR, f), "utf8");
  const lab = JSON.parse(readFileSync(join(DIR, name + ".labels.json"), "utf8"));
  const lines = raw.split("\n").filter((l) => l.length);
  const recs = [];
  lines.forEach((l, i) => {
    try { recs.push(JSON.parse(l)); } catch { fail(name, `line ${i + 1} is not JSON`); }
  });
  if (lab.session !== name) fail(name, "session field mismatch");
  if (lines.length < 25 || lines.length > 55) fail(name, `line count ${lines.length} outside 25-55`);

  // main-thread text corpus: assistant text blocks, human user text, todo contents
  const main = [];
  const sessionId = recs.find((r) => r.sessionId)?.sessionId;
  const cwd = recs.find((r) => r.cwd)?.cwd;
  const rel = (p) => (p && p.startsWith(cwd + "/") ? p.slice(cwd.length + 1) : p);
  const toolUse = new Map(); // id -> {name,input}
  const results = new Map(); // id -> is_error
  let tags = 0;
  for (const r of recs) {
    if (r.isSidechain || (r.type !== "user" && r.type !== "assistant")) continue;
    if (r.sessionId !== sessionId) fail(name, "sessionId mismatch");
    const c = r.message?.content;
    if (r.type === "user") {
      if (typeof c === "string") main.push(c);
      else for (const b of c) {
        if (b.type === "text") main.push(b.text);
        if (b.type === "tool_result") results.set(b.tool_use_id, !!b.is_error);
      }
    } else {
      for (const b of c) {
        if (b.type === "text") main.push(b.text);
        if (b.type === "tool_use") {
          toolUse.set(b.id, { name: b.name, input: b.input, line: r.uuid });
          if (b.name === "TodoWrite") for (const t of b.input.todos) main.push(t.content);
        }
      }
    }
  }
  for (const m of main) tags += (m.match(/\[MEMORY:/gi) || []).length;
  if (tags > 1) fail(name, `${tags} memory tags`);
  if (tags === 0) totals.noTag++;

  // tool_result parentUuid must be the line that holds the tool_use
  for (const r of recs) {
    if (r.type !== "user" || !Array.isArray(r.message?.content)) continue;
    for (const b of r.message.content) {
      if (b.type !== "tool_result") continue;
      const tu = toolUse.get(b.tool_use_id);
      if (!r.isSidechain && !tu) fail(name, `orphan tool_result ${b.tool_use_id}`);
      if (tu && r.parentUuid !== tu.line) fail(name, `tool_result ${b.tool_use_id} parentUuid is not the tool_use line`);
    }
  }
  const all = recs.flatMap((r) => strings(r, []));
  const inTranscript = (s) => raw.includes(JSON.stringify(s).slice(1, -1)) || all.some((x) => x.includes(s));

  // expected
  const ex = lab.expected;
  if (ex.length < 7 || ex.length > 12) fail(name, `${ex.length} expected items`);
  for (const e of ex) {
    if (!TYPES.has(e.type)) fail(name, `bad type ${e.type}`);
    if (e.keywords.length < 2 || e.keywords.length > 3) fail(name, `keyword count for "${e.text}"`);
    for (const k of e.keywords) if (!e.text.toLowerCase().includes(k.toLowerCase())) fail(name, `keyword "${k}" not in text "${e.text}"`);
    if (!main.some((m) => m.includes(e.text))) fail(name, `expected text not in main thread: "${e.text}"`);
    totals.byType[e.type] = (totals.byType[e.type] || 0) + 1;
  }
  // forbidden / neutral
  if (lab.forbidden.length < 7) fail(name, `${lab.forbidden.length} forbidden`);
  for (const [kind, arr] of [["forbidden", lab.forbidden], ["neutral", lab.neutral || []]]) {
    for (const s of arr) {
      if (!inTranscript(s)) fail(name, `${kind} not in transcript: "${s}"`);
      for (const e of ex) {
        if (e.keywords.every((k) => s.toLowerCase().includes(k.toLowerCase())))
          fail(name, `${kind} "${s}" contains all keywords of expected "${e.text}"`);
      }
      if (ex.some((e) => e.text === s)) fail(name, `${kind} string is also expected: "${s}"`);
    }
  }
  // secrets
  if (lab.secrets.length < 1 || lab.secrets.length > 2) fail(name, `${lab.secrets.length} secrets`);
  for (const s of lab.secrets) if (!inTranscript(s)) fail(name, `secret not in transcript: ${s}`);
  // cue phrases anywhere
  for (const s of all) for (const [c, re] of cueRes) if (re.test(s)) fail(name, `cue phrase "${c}" in: ${s.slice(0, 120)}`);
  for (const [c, re] of cueRes) if (re.test(raw)) fail(name, `cue phrase "${c}" in raw file`);

  // files / commands recomputed from main-thread tool calls
  const modified = [], explored = [];
  let commands = 0;
  const add = (a, x) => { if (x && !a.includes(x)) a.push(x); };
  for (const [id, tu] of toolUse) {
    const err = results.get(id);
    if (["Edit", "Write", "MultiEdit", "NotebookEdit"].includes(tu.name) && err === false) add(modified, rel(tu.input.file_path || tu.input.notebook_path));
    if (tu.name === "Read") add(explored, rel(tu.input.file_path));
    if ((tu.name === "Glob" || tu.name === "Grep") && tu.input.path) add(explored, rel(tu.input.path));
    if (tu.name === "Bash") commands++;
  }
  const same = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
  if (!same(modified, lab.files.modified)) fail(name, `files.modified ${JSON.stringify(modified)} vs ${JSON.stringify(lab.files.modified)}`);
  if (!same(explored, lab.files.explored)) fail(name, `files.explored ${JSON.stringify(explored)} vs ${JSON.stringify(lab.files.explored)}`);
  if (commands !== lab.commands) fail(name, `commands ${commands} vs ${lab.commands}`);
  for (const p of [...lab.files.modified, ...lab.files.explored]) if (p.startsWith("/") || p.endsWith("/")) fail(name, `path not relative: ${p}`);

  totals.sessions++;
  totals.expected += ex.length;
  totals.forbidden += lab.forbidden.length;
  totals.neutral += (lab.neutral || []).length;
  totals.secrets += lab.secrets.length;
  console.log(`${sessFail ? "BAD " : "ok  "} ${name}  v${lab.version}  lines=${lines.length} expected=${ex.length} forbidden=${lab.forbidden.length} neutral=${(lab.neutral || []).length} secrets=${lab.secrets.length} tags=${tags}`);
}
if (totals.noTag < 8) fail("set", `only ${totals.noTag} sessions without memory tags`);
console.log(JSON.stringify(totals, null, 2));
if (failures) { console.log(`${failures} failure(s)`); process.exit(1); }
console.log("all checks passed");
