import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractCandidates } from '../../src/capture/extract.js';
import { readPreferenceWithModel, readWithModel } from '../../src/capture/sentence-model.js';
import { examplesOf, LABELLED_SETS, MODEL_PATH, preferenceExamplesOf, PREFERENCE_CLASSES, PREFERENCE_MODEL_PATH, serialise, trainSentenceModel } from '../../scripts/train-sentence-model.js';
import { assistant, session, user } from '../helpers/transcript.js';

const read = (text: string) => extractCandidates(session([assistant(text)])).candidates.map((c) => [c.type, c.provenance]);

describe('the sentence model (layer 2, for sentences no cue reads)', () => {
  it('is what training on the labelled sets gives: the committed weights are not stale', () => {
    const examples = LABELLED_SETS.flatMap(examplesOf);
    expect(examples.filter((e) => e.label !== 'none').length).toBeGreaterThan(400);
    expect(serialise(trainSentenceModel(examples))).toBe(readFileSync(MODEL_PATH, 'utf8'));
  }, 60_000);

  // A sentence of the labelled sets (so of the model's training), not one made up for the test:
  // a made-up one drifts under the threshold as the sets grow.
  it('reads a rejection said as its cost, with no word a cue knows', () => {
    expect(read('Raising `testTimeout` to 15 s would only make this rarer, and it would hide the next slow test as well.')).toEqual([['approach_rejected', 'layer2:model']]);
  });

  it.each([
    ['the next step, told as an order', "Now fix the failing Elixir test — the fixture doesn't have the expected agent_id field."],
    ['advice to a reader', 'For simpler cases, you can skip JSON entirely and just print plain text.'],
    ['a failure explained, not yet fixed', 'The integration tests fail because the fixture writes two messages.'],
    ['narration', 'Let me look at the config loader.'],
    ['a prediction', "Once tonight's run finishes, stage 14 should show no straggler at all."],
    ['a status line', 'The TODO app is now ready for use with professional-grade architecture, complete functionality, and modern design patterns.'],
    ['a test run reported', 'All renderer tests pass, but the LiveView tests need the Endpoint properly configured in test mode.'],
    ['a failure being diagnosed', 'The idempotency test is failing because the `write_session_jsonl` helper writes 2 messages, but the second sync also finds 2 — so 4 total means the upsert identity isn\'t working.'],
  ])('stays silent on %s', (_name, text) => {
    expect(read(text)).toEqual([]);
  });

  it('answers only when sure', () => {
    expect(readWithModel('ok')).toBeNull();
    expect(readWithModel('Raising `testTimeout` to 15 s would only make this rarer, and it would hide the next slow test as well.')?.probability).toBeGreaterThanOrEqual(0.7);
  });
});

describe("the preference model (the user's sentences no pattern reads)", () => {
  const fromUser = (text: string) => extractCandidates(session([user(text)])).candidates.map((c) => [c.type, c.provenance]);

  it('is what training on the labelled sets gives: the committed weights are not stale', () => {
    const examples = LABELLED_SETS.flatMap(preferenceExamplesOf);
    expect(examples.filter((e) => e.label === 'preference_noted').length).toBeGreaterThan(100);
    expect(serialise(trainSentenceModel(examples, PREFERENCE_CLASSES))).toBe(readFileSync(PREFERENCE_MODEL_PATH, 'utf8'));
  }, 60_000);

  it.each(['errors get wrapped with %w and a short lowercase context, no pkg/errors.', 'We use pnpm in this repo.'])('reads %j, a standing instruction no pattern knows', (text) => {
    expect(fromUser(text)).toEqual([['preference_noted', 'layer2:user-model']]);
  });

  it.each([
    ['a one-off request', 'please update the README with the new flags'],
    ['a request for now', 'keep the old index for now, we can drop it after the release.'],
    ['a bug report', 'the build is broken, please fix it'],
    ['thanks', 'thanks, that works'],
  ])('stays silent on %s', (_name, text) => {
    expect(fromUser(text)).toEqual([]);
  });

  it('answers only when sure: a rule it was taught, yes; a request for this task, or nothing much, no', () => {
    expect(readPreferenceWithModel('errors get wrapped with %w and a short lowercase context, no pkg/errors.')).toBeGreaterThanOrEqual(0.6);
    expect(readPreferenceWithModel('please update the README with the new flags')).toBeNull();
    expect(readPreferenceWithModel('ok')).toBeNull();
  });
});
