import { discoverRepo } from '../src/git/repo.js';
import { openJournal } from '../src/journal/journal.js';
import { searchMemory } from '../src/search/search.js';
import { readBranchViewOf } from '../src/workspace/branch-view.js';
import { percentile, round, time } from './stats.js';

/**
 * A resident searcher, as the MCP server is: a process that opens the repository and answers
 * queries, nothing else. Run as its own process so the timings are not those of a heap holding
 * the bench's 100K freshly built events. Prints `{first, p50, p95, runs}` as JSON.
 *
 *   node --import tsx bench/resident-queries.ts <repo> <rounds> <query>...
 */
const [dir, rounds, ...queries] = process.argv.slice(2);
if (!dir || !rounds || queries.length === 0) throw new Error('usage: resident-queries.ts <repo> <rounds> <query>...');

const journal = await openJournal(await discoverRepo(dir));
// The first query of a process loads the shards it needs and the lexicon.
const first = (await time(() => searchMemory(journal, { query: 'consumer offset retry' }))).ms;
// A resident caller reads the branch view once per HEAD, not per query.
const view = await readBranchViewOf(journal.repo, [{ branch: 'main', commit: null }], new Map());
for (const query of queries) await searchMemory(journal, { query }, { view }); // load their shards
const warm: number[] = [];
for (let r = 0; r < Number(rounds); r++) for (const query of queries) warm.push((await time(() => searchMemory(journal, { query }, { view }))).ms);
process.stdout.write(JSON.stringify({ first: round(first), p50: percentile(warm, 50), p95: percentile(warm, 95), runs: warm.length }));
