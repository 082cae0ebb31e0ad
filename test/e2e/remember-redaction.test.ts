import { describe, expect, it } from 'vitest';
import type { CortexEvent } from '../../src/events/types.js';
import { cortex, cortexJson } from '../helpers/cli.js';
import { git, tempRepo } from '../helpers/repo.js';

// Fake credentials in the shapes providers issue; none is real.
const KEY = 'AKIAIOSFODNN7EXAMPLE';
const PASSWORD = 'MyS3cretPass';

describe('cortex remember and forget redact before they store', () => {
  it('removes secrets from the text, --why and --instead, counts them in meta, and never writes them to the journal', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const stored = cortex(dir, ['remember', `the key is ${KEY}`, '-t', 'rejected', '--why', `mysql -u root -p${PASSWORD} leaked in CI logs`, '--instead', `a vault path, not ${KEY}`]);
    expect(stored.code).toBe(0);
    expect(stored.stdout).toMatch(/\] the key is \[REDACTED:aws-access-key\]\n$/);

    const [event] = cortexJson<CortexEvent[]>(dir, ['log']);
    expect(event).toMatchObject({
      content: 'the key is [REDACTED:aws-access-key]',
      // The key said twice is one secret; the password another.
      meta: { reason: 'mysql -u root -p[REDACTED:password] leaked in CI logs', alternative: 'a vault path, not [REDACTED:aws-access-key]', redactions: 2 },
    });
    const journal = git(dir, 'log', '-p', '--all');
    expect(journal).toContain('[REDACTED:aws-access-key]');
    expect(journal).not.toContain(KEY);
    expect(journal).not.toContain(PASSWORD);
  });

  it('refuses a memory that is only a secret, in one line, and stores nothing', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    expect(cortex(dir, ['remember', KEY])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^cortex: that memory is only a secret.*\n$/) });
    expect(cortex(dir, ['log', '--json']).stdout.trim()).toBe('[]');
    // Nor is a change to another memory one to remember: forget and --supersedes record those with their target.
    expect(cortex(dir, ['remember', 'oops', '--type', 'event_retracted'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^cortex: event_retracted changes another memory/) });
    expect(cortex(dir, ['log', '--json']).stdout.trim()).toBe('[]');
  });

  it('adds no redaction count when there was nothing to redact', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['remember', 'Use Postgres advisory locks', '-t', 'decision', '--why', 'exactly-once']);
    expect(cortexJson<CortexEvent[]>(dir, ['log'])[0]?.meta).toEqual({ reason: 'exactly-once' });
  });

  it('redacts the reason given to forget', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const { id } = JSON.parse(cortex(dir, ['remember', 'Use the shared staging account', '-t', 'decision', '--json']).stdout) as { id: string };
    expect(cortex(dir, ['forget', id, '--why', `it pasted ${KEY} into the notes`]).code).toBe(0);
    const retraction = cortexJson<CortexEvent[]>(dir, ['log']).find((e) => e.type === 'event_retracted');
    expect(retraction?.meta).toMatchObject({ reason: 'it pasted [REDACTED:aws-access-key] into the notes', redactions: 1 });
    expect(git(dir, 'log', '-p', '--all')).not.toContain(KEY);
  });
});
