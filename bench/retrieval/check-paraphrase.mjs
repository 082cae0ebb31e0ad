#!/usr/bin/env node
// Validates a retrieval set and enforces the paraphrase rule.
// Usage: node check-paraphrase.mjs [dir ...]   (defaults to dev and test)
// Rule: a query marked paraphrase=true must share no content word with the content or
// any meta value (reason, alternative, path, command, files, tags, ...) of any of its
// relevant events. Words are lowercased, split on non-alphanumerics, stopwords dropped,
// naively stemmed; two words "match" if their stems are equal OR they share a prefix of
// >= 6 characters (catches deploy/deployment, timezone/timezones, idempot...).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const STOP = new Set(`a an the and or but if then else of to in on at by for with from into onto over under about above below up down out off
is are was were be been being am do does did doing done have has had having will would shall should can could may might must
i me my mine we us our ours you your yours he him his she her it its they them their this that these those there here
what which who whom whose when where why how whats wheres hows whys anything something everything nothing any some all each every
no not nor so than too very just also again ever still yet only own same such both few more most other
as because while until since via per vs etc eg ie ok okay hey please again already
after before during between through within without against among across around once
get got go going gone went thing things stuff way ways one ones`.split(/\s+/).filter(Boolean));

export function stem(w) {
  let s = w;
  for (const [suf, rep] of [['ies', 'y'], ['sses', 'ss'], ['ing', ''], ['edly', ''], ['ed', ''], ['ly', ''], ['es', ''], ['s', '']]) {
    if (s.endsWith(suf) && s.length - suf.length >= 3) { s = s.slice(0, -suf.length) + rep; break; }
  }
  return s;
}
export function words(text) {
  return String(text).toLowerCase().replace(/[’']/g, '').split(/[^a-z0-9]+/).filter((w) => w && !STOP.has(w));
}
function flatten(v) { if (v == null) return []; if (typeof v === 'object') return Object.values(v).flatMap(flatten); return [String(v)]; }
function match(a, b) {
  const sa = stem(a), sb = stem(b);
  if (sa === sb) return true;
  let i = 0; while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i >= 6;
}

let failures = 0;
const dirs = process.argv.slice(2).length ? process.argv.slice(2) : [join(here, 'dev'), join(here, 'test')];
for (const dir of dirs) {
  const lines = readFileSync(join(dir, 'events.jsonl'), 'utf8').split('\n').filter((l) => l.trim());
  const byId = new Map(); const typeCount = {}; const problems = [];
  lines.forEach((l, i) => {
    let e; try { e = JSON.parse(l); } catch { problems.push(`line ${i + 1}: invalid JSON`); return; }
    for (const f of ['id', 'type', 'content', 'ts', 'session']) if (!e[f]) problems.push(`line ${i + 1}: missing ${f}`);
    if (byId.has(e.id)) problems.push(`duplicate id ${e.id}`);
    byId.set(e.id, e); typeCount[e.type] = (typeCount[e.type] || 0) + 1;
  });
  const queries = JSON.parse(readFileSync(join(dir, 'queries.json'), 'utf8'));
  let para = 0;
  for (const q of queries) {
    if (!q.relevant?.length || q.relevant.length > 3) problems.push(`"${q.query}": relevant count ${q.relevant?.length}`);
    for (const id of q.relevant) if (!byId.has(id)) problems.push(`"${q.query}": unknown id ${id}`);
    if (!q.paraphrase) continue;
    para++;
    const qw = [...new Set(words(q.query))];
    for (const id of q.relevant) {
      const e = byId.get(id); if (!e) continue;
      const ew = new Set(words([e.content, ...flatten(e.meta)].join(' ')));
      const shared = qw.filter((w) => [...ew].some((x) => match(w, x)));
      if (shared.length) problems.push(`PARAPHRASE LEAK "${q.query}" ~ ${id}: ${shared.join(', ')}`);
    }
  }
  const sessions = new Set([...byId.values()].map((e) => e.session));
  const ts = [...byId.values()].map((e) => e.ts).sort();
  const memTypes = ['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved', 'preference_noted', 'plan_created', 'plan_step_completed', 'task_completed'];
  const mem = memTypes.reduce((a, t) => a + (typeCount[t] || 0), 0);
  console.log(`== ${dir}`);
  console.log(`events ${byId.size} (memory ${mem} = ${(100 * mem / byId.size).toFixed(0)}%), sessions ${sessions.size}, span ${ts[0]} .. ${ts.at(-1)}`);
  console.log('by type', JSON.stringify(typeCount));
  console.log(`queries ${queries.length}, paraphrase ${para} (${(100 * para / queries.length).toFixed(0)}%)`);
  const relTypes = {}; for (const q of queries) for (const id of q.relevant) { const t = byId.get(id)?.type; relTypes[t] = (relTypes[t] || 0) + 1; }
  console.log('relevant by type', JSON.stringify(relTypes));
  for (const p of problems) console.log('  FAIL', p);
  failures += problems.length;
}
if (failures) { console.log(`${failures} problem(s)`); process.exit(1); } else console.log('OK');
