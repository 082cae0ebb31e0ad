import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractCandidates } from '../../src/capture/extract.js';
import { parseTranscript } from '../../src/capture/transcript.js';
import { scoreExtraction } from '../../bench/extract-quality.js';

const SHARED = fileURLToPath(new URL('../../../shared/fixtures/transcripts/', import.meta.url));
const OWN = fileURLToPath(new URL('../fixtures/sessions/', import.meta.url));

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? jsonlFiles(join(dir, e.name)) : e.name.endsWith('.jsonl') ? [join(dir, e.name)] : []));
}

const hasShared = existsSync(SHARED);
if (!hasShared) console.warn(`skipping the shared real-transcript tests: ${SHARED} is absent (it sits beside the project on developer machines and CI)`);

describe.runIf(hasShared)('real Claude Code transcripts (../shared/fixtures/transcripts)', () => {
  const files = hasShared ? jsonlFiles(SHARED) : [];
  it.each(files.map((f) => [f.slice(SHARED.length), f]))('%s parses and extracts without a crash', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const transcript = parseTranscript(text);
    const lines = text.split('\n').filter((l) => l.trim() !== '').length;
    expect(transcript.corruptLines).toBeLessThan(Math.max(2, lines * 0.01));
    const { candidates } = extractCandidates(text);
    for (const c of candidates) {
      expect(c.content.length).toBeGreaterThan(0);
      if (c.type === 'file_modified' || c.type === 'file_explored') expect(typeof c.meta.path).toBe('string');
    }
    if (statSync(file).size > 0 && transcript.items.some((i) => i.kind === 'tool-use' && i.name === 'Edit' && !i.sidechain)) {
      expect(candidates.some((c) => c.type === 'file_modified')).toBe(true);
    }
  });

  // A compaction agent's summary recounts its session: "switched to X", "prefer A over B" are a log.
  it.each(files.filter((f) => /agent-acompact-/.test(f)).map((f) => [f.slice(SHARED.length), f]))('%s yields no heuristic memory', (_name, file) => {
    const { candidates } = extractCandidates(readFileSync(file, 'utf8'));
    expect(candidates.filter((c) => c.provenance.startsWith('layer2:'))).toEqual([]);
  });
});

describe("the project's labelled sessions (test/fixtures/sessions)", () => {
  it('cover every record type and version shape the reader handles', () => {
    const all = jsonlFiles(OWN).map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const marker of ['"isSidechain":true', '"type":"progress"', '"type":"summary"', '"compact_boundary"', '"isCompactSummary":true', '"type":"file-history-snapshot"', '"is_error":true', '"TodoWrite"', '"MultiEdit"', '"version":"1.0.', '"version":"2.0.', '"version":"2.1.']) {
      expect(all, marker).toContain(marker);
    }
  });

  it('are extracted above the quality floor, with no secret leaked and no crash', () => {
    const quality = scoreExtraction();
    expect(quality.crashes).toBe(0);
    expect(quality.secretsLeaked).toBe(0);
    expect(quality.memoryRecall).toBeGreaterThanOrEqual(0.8);
    expect(quality.memoryPrecision).toBeGreaterThanOrEqual(0.85);
    expect(quality.recallByType.decision_made?.recall).toBeGreaterThanOrEqual(0.8);
    expect(quality.recallByType.approach_rejected?.recall).toBeGreaterThanOrEqual(0.8);
    expect(quality.fileSets.meanJaccard).toBeGreaterThanOrEqual(0.95);
  });
});
