import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cortex, cortexOnPath } from '../helpers/cli.js';
import { giveToTestUser, isRoot, makeUnwritable, testUser, walk } from '../helpers/other-user.js';
import { git, tempDir, tempRepo } from '../helpers/repo.js';

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

  describe('with the journal ref damaged (a bad gc, a partial copy of .git), still runs every check and says how to recover', () => {
    const damaged = () => {
      const env = { ...cortexOnPath(tempDir()), HOME: tempDir() };
      const dir = tempRepo({ files: { 'a.txt': '1' } });
      cortex(dir, ['init'], { env });
      expect(cortex(dir, ['remember', 'Use Postgres', '-t', 'decision'], { env }).code).toBe(0);
      return { env, dir };
    };
    const otherChecksRan = (d: Diagnosis) => {
      for (const check of ['cortex on PATH', 'git hooks', 'merge driver', 'Claude Code hooks', 'locks', 'hook log']) expect(finding(d, check)?.status).toBe('ok');
    };

    it('a ref naming a missing object: with a remote, the fix (drop the ref, cortex sync) brings the journal back', () => {
      const { env, dir } = damaged();
      const bare = tempDir();
      git(bare, 'init', '-q', '--bare');
      git(dir, 'remote', 'add', 'origin', bare);
      expect(cortex(dir, ['sync'], { env }).code).toBe(0);
      writeFileSync(join(dir, '.git', 'refs', 'heads', 'cortex', 'journal'), `${'12345678'.repeat(5)}\n`);

      const { code, diagnosis, text } = doctor(dir, env);
      expect(code).toBe(1);
      expect(diagnosis.healthy).toBe(false);
      expect(finding(diagnosis, 'journal')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`points at a missing object, ${'12345678'.repeat(5)}`), fix: 'git update-ref -d refs/heads/cortex/journal && cortex sync (takes the remote\'s journal back; memory never pushed is lost)' });
      otherChecksRan(diagnosis);
      expect(text).toContain('something is broken');

      git(dir, 'update-ref', '-d', 'refs/heads/cortex/journal');
      expect(cortex(dir, ['sync'], { env }).code).toBe(0);
      expect(doctor(dir, env).diagnosis.healthy).toBe(true);
      expect(cortex(dir, ['decisions'], { env }).stdout).toContain('Use Postgres');
    });

    it('a ref naming a blob, without a remote: says what it points at and how to start again', () => {
      const { env, dir } = damaged();
      const blob = git(dir, 'hash-object', '-w', 'a.txt').trim();
      writeFileSync(join(dir, '.git', 'refs', 'heads', 'cortex', 'journal'), `${blob}\n`);
      const { code, diagnosis } = doctor(dir, env);
      expect(code).toBe(1);
      expect(finding(diagnosis, 'journal')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`a blob (${blob.slice(0, 12)}), not a commit`), fix: expect.stringContaining('git update-ref -d refs/heads/cortex/journal && cortex init') });
      otherChecksRan(diagnosis);
    });

    it('a commit whose tree is missing: the check that throws is a failing line with a fix, not a crash', () => {
      const { env, dir } = damaged();
      const parent = git(dir, 'rev-parse', 'refs/heads/cortex/journal').trim();
      const text = join(tempDir(), 'commit');
      writeFileSync(text, `tree ${'ab'.repeat(20)}\nparent ${parent}\nauthor Dev <dev@example.com> 1790000000 +0000\ncommitter Dev <dev@example.com> 1790000000 +0000\n\nappend\n`);
      const commit = git(dir, 'hash-object', '-w', '-t', 'commit', '--literally', text).trim();
      git(dir, 'update-ref', 'refs/heads/cortex/journal', commit);
      const { code, diagnosis, text: shown } = doctor(dir, env);
      expect(code).toBe(1);
      expect(finding(diagnosis, 'journal')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^could not be checked: .*abab/), fix: expect.stringContaining('CORTEX_DEBUG=1') });
      otherChecksRan(diagnosis);
      expect(shown).toContain('✗ journal');
    });
  });

  describe('when the user cannot write what Cortex writes (a `sudo git pull` ran its hooks as root)', () => {
    /** A repository set up by its user, with a remembered decision and Cortex's caches built. */
    function usersRepo() {
      const bin = tempDir();
      const env = { ...cortexOnPath(bin), HOME: tempDir() };
      const dir = tempRepo({ files: { 'a.txt': '1' } });
      cortex(dir, ['init'], { env });
      cortex(dir, ['remember', 'Use Postgres', '-t', 'decision'], { env });
      cortex(dir, ['decisions'], { env });
      giveToTestUser(dir, bin, env.HOME);
      const run = (args: string[]) => cortex(dir, args, { env, as: testUser });
      const check = () => {
        const json = run(['doctor', '--json']);
        return { code: json.code, diagnosis: JSON.parse(json.stdout) as Diagnosis, text: run(['doctor']).stdout };
      };
      return { dir, run, check };
    }

    it.runIf(isRoot)('a .git/cortex owned by root: a ✗ naming it and its owner, with the chown that fixes it', () => {
      const { dir, run, check } = usersRepo();
      const cortexDir = join(dir, '.git', 'cortex');
      makeUnwritable(cortexDir);
      // Its config cache gone too: reading the config must not need to write it back.
      rmSync(join(cortexDir, 'config.json'));

      const { code, diagnosis, text } = check();
      expect(code).toBe(1);
      expect(finding(diagnosis, 'write access')).toEqual({
        check: 'write access',
        status: 'fail',
        detail: `not writable by you (owned by root): ${cortexDir}: hooks capture nothing (and cannot log why), commands that write fail`,
        fix: `sudo chown -R $(id -un) ${cortexDir}`,
      });
      for (const check of ['journal', 'git hooks', 'Claude Code hooks', 'locks', 'hook log']) expect(finding(diagnosis, check)?.status).toBe('ok');
      expect(finding(diagnosis, 'embeddings')?.status).toBe('info');
      expect(text).toMatch(/✗ write access +not writable by you \(owned by root\)/);

      // The fix, as the user would run it, makes doctor content.
      execFileSync('sh', ['-c', (finding(diagnosis, 'write access')?.fix as string).replace('sudo ', '').replace('$(id -un)', String(testUser?.uid))]);
      expect(finding(check().diagnosis, 'write access')?.status).toBe('ok');
      expect(run(['remember', 'Use Kafka', '-t', 'decision']).code).toBe(0);
    });

    it('object folders and a .git/cortex the user owns but cannot write: chmod u+w for theirs, and root\'s named', () => {
      const { dir, check } = usersRepo();
      const cortexDir = join(dir, '.git', 'cortex');
      walk(cortexDir, (p) => chmodSync(p, statSync(p).mode & ~0o222));
      const objects = join(dir, '.git', 'objects');
      const objectDir = join(objects, readdirSync(objects).find((n) => /^[0-9a-f]{2}$/.test(n)) as string);
      const undo = makeUnwritable(objectDir);
      try {
        const { code, diagnosis } = check();
        expect(code).toBe(1);
        expect(finding(diagnosis, 'write access')).toMatchObject({
          status: 'fail',
          detail: expect.stringContaining(`${cortexDir}, ${objectDir}`),
          fix: isRoot ? `sudo chown -R $(id -un) ${objects} && chmod -R u+w ${cortexDir}` : `chmod -R u+w ${cortexDir} ${objects}`,
        });
        if (isRoot) expect(finding(diagnosis, 'write access')?.detail).toContain('(owned by root)');
      } finally {
        walk(cortexDir, (p) => chmodSync(p, statSync(p).mode | 0o200));
        undo();
      }
    });
  });
});
