import { describe, expect, it } from 'vitest';
import { findUnknownKeys } from '../../src/projections/settings.js';

describe('findUnknownKeys', () => {
  it.each([
    ['a setting', ['cortex.budget'], []],
    ['a git hook switch', ['cortex.pushjournal', 'cortex.pulljournal'], []],
    ['the journal\'s name, as cortex init keeps it', ['cortex.journalref'], []],
    ['not ours', ['user.email', 'merge.cortex.driver', 'core.hookspath'], []],
    ['letters swapped', ['cortex.budgte'], [{ key: 'cortex.budgte', suggestion: 'cortex.budget' }]],
    ['a letter more', ['cortex.pushjournals'], [{ key: 'cortex.pushjournals', suggestion: 'cortex.pushjournal' }]],
    ['a letter wrong', ['cortex.minconfidance'], [{ key: 'cortex.minconfidance', suggestion: 'cortex.minconfidence' }]],
    ['nothing close', ['cortex.colour'], [{ key: 'cortex.colour' }]],
  ])('%s', (_name, keys, unknown) => {
    expect(findUnknownKeys(keys)).toEqual(unknown);
  });
});
