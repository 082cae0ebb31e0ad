// Builds every session spec in ./sessions (or those whose file name starts with argv[2]).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from './gen.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
  const dir = path.join(HERE, 'sessions');
const only = process.argv[2];
for (const f of fs.readdirSync(dir).sort()) {
  if (!f.endsWith('.mjs') || (only && !f.startsWith(only))) continue;
  const spec = (await import(pathToFileURL(path.join(dir, f)).href)).default;
  const r = build(spec);
  const c = {};
  for (const e of r.labels.expected) c[e.type] = (c[e.type] || 0) + 1;
  console.log(`${r.name}: lines=${r.lines} users=${r.userCount} expected=${r.labels.expected.length} forbidden=${r.labels.forbidden.length} neutral=${r.labels.neutral.length} secrets=${r.labels.secrets.length} cmds=${r.labels.commands}`, JSON.stringify(c));
}
