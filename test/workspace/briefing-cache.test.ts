import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBriefing } from '../../src/workspace/briefing.js';
import { DEFAULT_SETTINGS } from '../../src/projections/settings.js';
import { listRefs } from '../../src/git/refs.js';
import { cortex } from '../helpers/cli.js';
import { journalAt } from '../helpers/journal.js';
import { git, tempRepo } from '../helpers/repo.js';

describe('the cached briefing', () => {
  it('is computed again when another branch moves or the reflogs change, since what HEAD sees depends on where other branches stand and what the reflogs say', async () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    expect(cortex(dir, ['remember', 'Use Postgres for storage', '-t', 'decision']).code).toBe(0);
    const journal = await journalAt(dir);
    expect((await readBriefing(journal, DEFAULT_SETTINGS)).cached).toBe(false);
    expect((await readBriefing(journal, DEFAULT_SETTINGS)).cached).toBe(true);
    git(dir, 'branch', 'feature');
    expect((await readBriefing(journal, DEFAULT_SETTINGS)).cached).toBe(false);
    git(dir, 'pack-refs', '--all');
    git(dir, 'update-ref', 'refs/heads/feature', git(dir, 'commit-tree', '-m', 'elsewhere', 'HEAD^{tree}').trim());
    expect((await readBriefing(journal, DEFAULT_SETTINGS)).cached).toBe(false);
    expect((await readBriefing(journal, DEFAULT_SETTINGS)).cached).toBe(true);
    git(dir, 'reflog', 'expire', '--expire=now', '--all'); // what the reflogs said of the branches is gone
    expect((await readBriefing(journal, DEFAULT_SETTINGS)).cached).toBe(false);
  });
});

describe('listRefs', () => {
  it('lists loose and packed branches, a loose ref winning over its packed line', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    git(dir, 'branch', 'feature/x');
    git(dir, 'pack-refs', '--all');
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    const other = git(dir, 'commit-tree', '-m', 'other', 'HEAD^{tree}').trim();
    git(dir, 'update-ref', 'refs/heads/feature/x', other);
    expect(listRefs(join(dir, '.git'), ['refs/heads/'])).toEqual([['refs/heads/feature/x', other], ['refs/heads/main', head]]);
  });
});
