import { chmodSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cortex, cortexOnPath } from '../helpers/cli.js';
import { tempDir, tempRepo } from '../helpers/repo.js';

interface Diagnosis {
  healthy: boolean;
  setUp: boolean;
  findings: Array<{ check: string; status: string; detail: string; fix?: string }>;
}

/** Run doctor with a PATH of our choosing and a HOME of its own (no user-wide Claude settings). */
function doctor(dir: string, env: NodeJS.ProcessEnv): { code: number; diagnosis: Diagnosis; text: string } {
  const json = cortex(dir, ['doctor', '--json'], { env });
  const text = cortex(dir, ['doctor'], { env }).stdout;
  return { code: json.code, diagnosis: JSON.parse(json.stdout) as Diagnosis, text };
}
const finding = (d: Diagnosis, check: string) => d.findings.find((f) => f.check === check);
/** PATH with git and node but without any cortex. */
const bareEnv = () => ({ PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(':'), HOME: tempDir() });

describe('cortex doctor', () => {
  it('after cortex init, with cortex on PATH, finds everything in place and exits 0', () => {
    const env = { ...cortexOnPath(tempDir()), HOME: tempDir() };
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    expect(cortex(dir, ['init'], { env }).code).toBe(0);
    const { code, diagnosis, text } = doctor(dir, env);
    expect(code).toBe(0);
    expect(diagnosis).toMatchObject({ healthy: true, setUp: true });
    for (const check of ['cortex on PATH', 'journal', 'git hooks', 'merge driver', 'Claude Code hooks', 'locks', 'hook log']) expect(finding(diagnosis, check)?.status).toBe('ok');
    expect(text).toMatch(/all good|works, with warnings/);
  });

  it('says cortex is missing from PATH when the hooks need it, and exits 1 with the fix', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init'], { env: { HOME: tempDir() } });
    const { code, diagnosis, text } = doctor(dir, bareEnv());
    expect(code).toBe(1);
    expect(finding(diagnosis, 'cortex on PATH')).toMatchObject({ status: 'fail', fix: expect.stringContaining('npm link') });
    expect(text).toContain('skip silently');
  });

  it('catches a hook git would skip (not executable), a settings file Claude Code cannot read, and problems the hooks logged', () => {
    const env = { ...cortexOnPath(tempDir()), HOME: tempDir() };
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init'], { env });
    chmodSync(join(dir, '.git', 'hooks', 'post-merge'), 0o644);
    writeFileSync(join(dir, '.claude', 'settings.json'), '{ "hooks": ');
    // A real hook failure: a Stop whose transcript is gone is logged, and the hook still exits 0.
    const stop = cortex(dir, ['hook', 'stop'], { env, input: JSON.stringify({ session_id: 's1', transcript_path: join(dir, 'gone.jsonl'), cwd: dir, hook_event_name: 'Stop' }) });
    expect(stop.code).toBe(0);

    const { code, diagnosis } = doctor(dir, env);
    expect(code).toBe(1);
    expect(finding(diagnosis, 'git hooks')).toMatchObject({ status: 'fail', detail: expect.stringContaining('post-merge'), fix: expect.stringContaining('chmod +x') });
    expect(finding(diagnosis, 'Claude Code hooks')).toMatchObject({ status: 'fail', detail: expect.stringContaining('settings.json') });
    expect(finding(diagnosis, 'hook log')).toMatchObject({ status: 'warn', detail: expect.stringContaining('transcript not found') });
  });

  it('in a repository without cortex init says to run it, without failing', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const { code, diagnosis, text } = doctor(dir, bareEnv());
    expect(code).toBe(0);
    expect(diagnosis.setUp).toBe(false);
    expect(finding(diagnosis, 'cortex on PATH')?.status).toBe('warn');
    expect(text).toContain('run cortex init');
  });
});
