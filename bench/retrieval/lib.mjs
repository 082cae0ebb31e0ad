// Shared builder: turns a hand-written session script into events.jsonl + queries.json.
// Memory items are [key, typeCode, content, meta?]; activity items are strings:
//   "M path | detail"  file_modified      "E path | detail"  file_explored
//   "$ command | result"  command_run
import { writeFileSync, mkdirSync } from 'node:fs';

const TYPES = {
  D: 'decision_made', R: 'approach_rejected', K: 'knowledge_acquired', X: 'error_resolved',
  P: 'preference_noted', PL: 'plan_created', PS: 'plan_step_completed', T: 'task_completed',
};

function rng(seed) { let s = seed >>> 0; return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32); }

export function build({ project, outDir, sessions, queries, seed = 7 }) {
  const rand = rng(seed);
  const events = []; const byKey = new Map(); let n = 0;
  sessions.forEach((s, si) => {
    const sessionId = `${project}-s${String(si + 1).padStart(2, '0')}-${(Math.floor(rand() * 0xffffff)).toString(16).padStart(6, '0')}`;
    let t = Date.parse(s.start + ':00Z');
    for (const item of s.items) {
      t += Math.floor((1 + rand() * 8) * 60000 + rand() * 59000);
      const id = `evt_${project}_${String(++n).padStart(4, '0')}`;
      const ts = new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
      let ev;
      if (typeof item === 'string') {
        const code = item[0]; const [body, detail] = item.slice(2).split(' | ').map((x) => x && x.trim());
        if (code === '$') ev = { type: 'command_run', content: `Ran \`${body}\`${detail ? ` — ${detail}` : ''}`, meta: { command: body } };
        else if (code === 'M') ev = { type: 'file_modified', content: `Modified ${body}${detail ? `: ${detail}` : ''}`, meta: { path: body } };
        else if (code === 'E') ev = { type: 'file_explored', content: `Read ${body}${detail ? ` (${detail})` : ''}`, meta: { path: body } };
        else throw new Error('bad activity ' + item);
      } else {
        const [key, code, content, meta = {}] = item;
        if (!TYPES[code]) throw new Error('bad type ' + code);
        if (key) { if (byKey.has(key)) throw new Error('dup key ' + key); byKey.set(key, id); }
        ev = { type: TYPES[code], content, meta };
      }
      events.push({ id, type: ev.type, content: ev.content, ts, session: sessionId, meta: ev.meta });
    }
  });
  const qs = queries.map(([query, keys, paraphrase]) => ({
    query,
    relevant: keys.map((k) => { const id = byKey.get(k); if (!id) throw new Error(`unknown key ${k} in "${query}"`); return id; }),
    paraphrase,
  }));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(`${outDir}/events.jsonl`, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  writeFileSync(`${outDir}/queries.json`, JSON.stringify(qs, null, 2) + '\n');
  return { events, queries: qs };
}
