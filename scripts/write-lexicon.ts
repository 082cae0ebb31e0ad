// Build step: analyse the search vocabulary once (stemming ~10K entries takes ~60 ms) and ship
// the result as dist/lexicon.json, which query-plan.ts reads instead of redoing the work.
import { writeFileSync } from 'node:fs';
import { buildLexicon, lexiconToJson } from '../src/search/query-plan.js';
import { VOCABULARY } from '../src/search/vocabulary-data.js';

writeFileSync(new URL('../dist/lexicon.json', import.meta.url), lexiconToJson(buildLexicon(VOCABULARY)));
