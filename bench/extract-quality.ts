import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCandidates } from '../src/capture/extract.js';
import type { Candidate } from '../src/capture/candidate.js';
import { MEMORY_TYPES } from '../src/events/types.js';

/**
 * Extraction quality on the project's labelled sessions (test/fixtures/sessions): memory
 * recall and precision over the non-file types, recall per type, leaked secrets, and how well
 * Layer-1 file sets match. An expected item is found when an event of its type contains all of
 * its keywords; an extracted event is a true positive when it matches any expected item, and is
 * not counted either way when it comes from a sentence labelled neutral.
 */
const DIR = fileURLToPath(new URL('../test/fixtures/sessions/', import.meta.url));

interface Expected {
  type: string;
  keywords: string[];
  text?: string;
}
interface Labels {
  session: string;
  expected: Expected[];
  forbidden?: string[];
  neutral?: string[];
  secrets?: string[];
  files?: { modified?: string[]; explored?: string[] };
}

const has = (content: string, keywords: string[]) => keywords.every((k) => content.toLowerCase().includes(k.toLowerCase()));
const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
const overlaps = (a: string, b: string) => {
  const x = norm(a);
  const y = norm(b);
  return x.length > 0 && y.length > 0 && (x.includes(y.slice(0, 60)) || y.includes(x.slice(0, 60)));
};

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter += 1;
  return inter / (a.size + b.size - inter);
}

export interface QualityDetail {
  session: string;
  missed: Expected[];
  falsePositives: Candidate[];
  leaked: string[];
}

/** Whether a sentence appears, untagged, only in what the user typed (not in the assistant's text). */
function userProseOnly(transcript: string): (sentence: string) => boolean {
  const said = { user: '', assistant: '' };
  for (const line of transcript.split('\n')) {
    let record: { type?: string; message?: { content?: unknown } };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    if (record.type !== 'user' && record.type !== 'assistant') continue;
    const content = record.message?.content;
    const texts = typeof content === 'string' ? [content] : Array.isArray(content) ? content.filter((b) => b?.type === 'text').map((b) => String(b.text)) : [];
    said[record.type] += `${texts.join('\n')}\n`;
  }
  return (sentence) => said.user.includes(sentence) && !said.assistant.includes(sentence) && !/\[MEMORY:[^\]]*\]\s*$/i.test(said.user.slice(0, said.user.indexOf(sentence)).split('\n').pop() ?? '');
}

export function scoreExtraction(verbose = false, dir = DIR, extract: (text: string) => Candidate[] = (text) => extractCandidates(text).candidates) {
  const files = readdirSync(dir).filter((f) => f.endsWith('.labels.json')).sort();
  const perType: Record<string, { expected: number; found: number }> = {};
  let extracted = 0;
  let truePositive = 0;
  let leaks = 0;
  let crashes = 0;
  const jaccards: number[] = [];
  let exactFileSets = 0;
  const details: QualityDetail[] = [];
  for (const file of files) {
    const labels = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Labels;
    const text = readFileSync(join(dir, file.replace('.labels.json', '.jsonl')), 'utf8');
    let candidates: Candidate[];
    try {
      candidates = extract(text);
    } catch {
      crashes += 1;
      continue;
    }
    const memories = candidates.filter((c) => MEMORY_TYPES.has(c.type));
    const used = new Set<Candidate>();
    const missed: Expected[] = [];
    const userOnly = userProseOnly(text);
    for (const exp of labels.expected) {
      // Layer 2 reads assistant prose (issue 3): a decision the user typed, untagged, is out of scope.
      if (exp.type !== 'preference_noted' && exp.text && userOnly(exp.text)) {
        (labels.neutral ??= []).push(exp.text);
        continue;
      }
      const bucket = (perType[exp.type] ??= { expected: 0, found: 0 });
      bucket.expected += 1;
      const hit = memories.find((c) => c.type === exp.type && !used.has(c) && has(c.content, exp.keywords));
      if (hit) {
        used.add(hit);
        bucket.found += 1;
      } else missed.push(exp);
    }
    const falsePositives: Candidate[] = [];
    for (const c of memories) {
      const matchesExpected = labels.expected.some((exp) => exp.type === c.type && has(c.content, exp.keywords) && !(labels.neutral ?? []).includes(exp.text ?? ''));
      if (matchesExpected) {
        extracted += 1;
        truePositive += 1;
        continue;
      }
      if ((labels.neutral ?? []).some((n) => overlaps(c.content, n))) continue;
      extracted += 1;
      falsePositives.push(c);
    }
    const output = JSON.stringify(candidates);
    const leaked = (labels.secrets ?? []).filter((s) => output.includes(s));
    leaks += leaked.length;
    const got = (type: string) => new Set(candidates.filter((c) => c.type === type).map((c) => String(c.meta.path)));
    const jm = jaccard(got('file_modified'), new Set(labels.files?.modified ?? []));
    const je = jaccard(got('file_explored'), new Set(labels.files?.explored ?? []));
    jaccards.push((jm + je) / 2);
    if (jm === 1 && je === 1) exactFileSets += 1;
    if (verbose) details.push({ session: labels.session, missed, falsePositives, leaked });
  }
  const expected = Object.values(perType).reduce((n, t) => n + t.expected, 0);
  const found = Object.values(perType).reduce((n, t) => n + t.found, 0);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    sessions: files.length,
    memoryRecall: r(found / expected),
    memoryPrecision: r(extracted === 0 ? 1 : truePositive / extracted),
    recallByType: Object.fromEntries(Object.entries(perType).map(([type, t]) => [type, { recall: r(t.found / t.expected), expected: t.expected }])),
    secretsLeaked: leaks,
    crashes,
    fileSets: { meanJaccard: r(jaccards.reduce((a, b) => a + b, 0) / jaccards.length), exactSessions: exactFileSets },
    details: verbose ? details : undefined,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Another labelled set in the same format: `npx tsx bench/extract-quality.ts <dir>`.
  const result = scoreExtraction(true, process.argv[2] ?? DIR);
  for (const d of result.details ?? []) {
    for (const m of d.missed) console.log(`MISS ${d.session} ${m.type}: ${m.text}`);
    for (const f of d.falsePositives) console.log(`FP   ${d.session} ${f.type} [${f.provenance}]: ${f.content}`);
    for (const l of d.leaked) console.log(`LEAK ${d.session}: ${l}`);
  }
  console.log(JSON.stringify({ ...result, details: undefined }, null, 2));
}
