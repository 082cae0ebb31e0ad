import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DEMO = fileURLToPath(new URL('../../dist/demo.js', import.meta.url));

describe('npm run demo (the Quick start)', () => {
  it('replays the sessions through the hooks and shows branch-aligned decisions, the plan and the briefing', () => {
    const result = spawnSync(process.execPath, [DEMO], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(result.status, result.stderr).toBe(0);
    const out = result.stdout;
    const [onFeature, onMain, merged] = out.split('$ cortex decisions').slice(1);
    expect(onFeature).toContain('Slugs are 7 characters of base62');
    expect(onMain).not.toContain('Slugs are 7 characters of base62');
    expect(onMain).toContain('Postgres rather than MongoDB');
    expect(merged).toContain('Slugs are 7 characters of base62');
    expect(out).toMatch(/→ {2}3\. Redirect endpoint {2}← you are here/);
    expect(out).toContain('## Rejected approaches');
    expect(out).toContain('SessionStart hook gave Claude a');
    const diff = out.slice(out.indexOf('$ cortex diff main...feature/slugs'), out.indexOf('$ cortex decisions', out.indexOf('$ cortex diff')));
    expect(diff).toMatch(/Decisions \(1\)\n {2}\+ Slugs are 7 characters of base62/);
    expect(diff).toMatch(/Rejected approaches \(1\)\n {2}\+ Hash-based slugs/);
    expect(diff).not.toContain('Postgres');
    // What init and the hooks add to the work tree, every file of it.
    expect(out.trimEnd().split('\n').at(-1)).toBe('Memory lives on the branch cortex/journal; your work tree only gains .claude/, .cortex/ and .gitattributes.');
  });
});
