import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCandidates } from '../src/capture/extract.js';
import { scoreExtraction } from './extract-quality.js';
import { benchRepo, buildJournal, CLI } from './fixtures.js';
import { round, sample, sampleTimed } from './stats.js';

/**
 * Issue 3 budgets: the Stop hook on a fresh 50 KB tail (whole CLI call), extract throughput
 * (a real transcript repeated to 10 MB), and extraction quality on the labelled sessions.
 */
const SHARED_LARGE = fileURLToPath(new URL('../../shared/fixtures/transcripts/large/', import.meta.url));
const OWN = fileURLToPath(new URL('../test/fixtures/sessions/', import.meta.url));

function realTranscript(): { name: string; text: string } {
  if (existsSync(SHARED_LARGE)) {
    const name = readdirSync(SHARED_LARGE).find((f) => f.endsWith('.jsonl'));
    if (name) return { name: `shared/large/${name}`, text: readFileSync(join(SHARED_LARGE, name), 'utf8') };
  }
  const files = readdirSync(OWN).filter((f) => f.endsWith('.jsonl'));
  return { name: 'test/fixtures/sessions (all)', text: files.map((f) => readFileSync(join(OWN, f), 'utf8')).join('') };
}

/** ~50 KB of new transcript: prose with memories, tool calls and results, unique per run. */
function tail(run: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 50_000; i++) {
    const ts = new Date(Date.now() + i).toISOString();
    const id = `toolu_${run}_${i}`;
    const base = { sessionId: 'bench-session', cwd: '/repo', timestamp: ts, version: '2.1.39', isSidechain: false };
    const entries = [
      { ...base, type: 'assistant', message: { id: `msg_${run}_${i}`, role: 'assistant', content: [{ type: 'text', text: `Going with a bounded queue of ${run * 1000 + i} slots rather than an unbounded one, since memory must stay flat under load. Turns out the worker pool ${i} drops jobs silently when the queue is full.` }] } },
      { ...base, type: 'assistant', message: { id: `msg_${run}_${i}b`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Edit', input: { file_path: `/repo/src/queue-${run}-${i}.ts`, old_string: 'a', new_string: 'b' } }] } },
      { ...base, type: 'user', toolUseResult: { filePath: `/repo/src/queue-${run}-${i}.ts` }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x'.repeat(600) }] } },
    ];
    for (const entry of entries) {
      const line = `${JSON.stringify(entry)}\n`;
      lines.push(line);
      size += line.length;
    }
  }
  return lines.join('');
}

async function settleBackground(dir: string): Promise<void> {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(600);
  for (let waited = 0; waited < 10_000 && existsSync(join(dir, '.git', 'cortex', 'projections.lock')); waited += 50) await sleep(50);
}

export async function benchCapture(journalSize: number) {
  const dir = benchRepo();
  const work = mkdtempSync(join(tmpdir(), 'cortex-bench-capture-'));
  try {
    await buildJournal(dir, journalSize);
    const transcript = join(work, 'session.jsonl');
    writeFileSync(transcript, '');
    const payload = JSON.stringify({ session_id: 'bench-session', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false });
    let run = 0;
    const stopHook = await sampleTimed(15, async () => {
      // Untimed: let the previous stop's background regeneration of .cortex/ finish first
      // (turns are seconds apart in real use; on 2 cores it would otherwise steal this run's CPU).
      await settleBackground(dir);
      appendFileSync(transcript, tail(run++));
      const started = performance.now();
      spawnSync(process.execPath, [CLI, 'hook', 'stop'], { cwd: dir, input: payload });
      return performance.now() - started;
    });

    const real = realTranscript();
    let big = '';
    while (big.length < 10 * 1024 * 1024) big += real.text;
    const bigPath = join(work, 'big.jsonl');
    writeFileSync(bigPath, big);
    const mb = Buffer.byteLength(big) / (1024 * 1024);
    const inProcess = await sample(3, () => extractCandidates(big));
    const cli = await sample(5, () => spawnSync(process.execPath, [CLI, 'extract', bigPath, '--json'], { cwd: work, maxBuffer: 512 * 1024 * 1024 }));
    return {
      journalEvents: journalSize,
      stopHook50KbTailCliMs: stopHook,
      extractThroughput: { transcript: real.name, mb: round(mb), inProcessMBps: round(mb / (inProcess.p50 / 1000)), cliMBps: round(mb / (cli.p50 / 1000)) },
      quality: scoreExtraction(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
}
