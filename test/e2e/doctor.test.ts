import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
    for (const check of ['cortex on PATH', 'write access', 'journal', 'git hooks', 'merge driver', 'Claude Code hooks', 'settings', 'locks', 'hook log']) expect(finding(diagnosis, check)?.status).toBe('ok');
    expect(text).toMatch(/all good|works, with warnings/);
  });

  it('outside a git repository, prints a diagnosis (--json too) whose failing line says so, and exits 1', () => {
    const dir = tempDir();
    const { code, diagnosis, text } = doctor(dir, bareEnv());
    expect(code).toBe(1);
    expect(diagnosis).toEqual({
      healthy: false,
      setUp: false,
      findings: [
        { check: 'node', status: 'ok', detail: process.versions.node },
        { check: 'repository', status: 'fail', detail: `not a git repository: ${dir}`, fix: 'run cortex doctor inside a git project, or `git init` first' },
      ],
    });
    expect(text).toMatch(/✗ repository +not a git repository: .* → run cortex doctor inside a git project, or `git init` first\nsomething is broken: fix the ✗ lines\n$/);
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
    rmSync(join(dir, '.git', 'hooks', 'pre-push'));
    writeFileSync(join(dir, '.claude', 'settings.json'), '{ "hooks": ');
    // A real hook failure: a Stop whose transcript is gone is logged, and the hook still exits 0.
    const stop = cortex(dir, ['hook', 'stop'], { env, input: JSON.stringify({ session_id: 's1', transcript_path: join(dir, 'gone.jsonl'), cwd: dir, hook_event_name: 'Stop' }) });
    expect(stop.code).toBe(0);

    const { code, diagnosis } = doctor(dir, env);
    expect(code).toBe(1);
    // Both at once: the one not executable and the one missing.
    expect(finding(diagnosis, 'git hooks')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/post-merge.*missing: pre-push/), fix: expect.stringMatching(/chmod \+x .* && cortex init/) });
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

  describe('says what stops capture even though everything is installed', () => {
    const installed = () => {
      const env = { ...cortexOnPath(tempDir()), HOME: tempDir() };
      const dir = tempRepo({ files: { 'a.txt': '1' } });
      cortex(dir, ['init'], { env });
      return { env, dir };
    };

    it('hooks an older Cortex wrote (a SessionStart that misses fork): a warning whose fix, cortex init, updates them', () => {
      const { env, dir } = installed();
      const settings = join(dir, '.claude', 'settings.json');
      writeFileSync(settings, readFileSync(settings, 'utf8').replace('startup|resume|clear|compact|fork', 'startup|resume|clear|compact'));
      expect(finding(doctor(dir, env).diagnosis, 'Claude Code hooks')).toEqual({
        check: 'Claude Code hooks',
        status: 'warn',
        detail: `written by an older Cortex: SessionStart "startup|resume|clear|compact" in ${settings}; this version runs SessionStart "startup|resume|clear|compact|fork"`,
        fix: 'cortex init',
      });
      cortex(dir, ['init'], { env });
      expect(finding(doctor(dir, env).diagnosis, 'Claude Code hooks')?.status).toBe('ok');
    });

    it('"disableAllHooks": true in the Claude Code settings that decide (settings.local.json over settings.json over the user\'s)', () => {
      const { env, dir } = installed();
      const local = join(dir, '.claude', 'settings.local.json');
      writeFileSync(local, '{ "disableAllHooks": true }');
      const off = doctor(dir, env);
      expect(off.code).toBe(1);
      expect(finding(off.diagnosis, 'Claude Code hooks')).toEqual({ check: 'Claude Code hooks', status: 'fail', detail: `"disableAllHooks": true in ${local}: Claude Code runs none of them, so sessions are not captured`, fix: `remove "disableAllHooks" from ${local}` });
      expect(off.text).toContain('something is broken');

      // The user's own settings turn them off unless the project says otherwise.
      const mine = join(env.HOME, '.claude', 'settings.json');
      mkdirSync(dirname(mine));
      writeFileSync(mine, '{ "disableAllHooks": true }');
      writeFileSync(local, '{ "disableAllHooks": false }');
      expect(finding(doctor(dir, env).diagnosis, 'Claude Code hooks')?.status).toBe('ok');
      rmSync(local);
      expect(finding(doctor(dir, env).diagnosis, 'Claude Code hooks')).toMatchObject({ status: 'fail', fix: `remove "disableAllHooks" from ${mine}` });
    });

    it('a cortex on PATH that does not run (a link to a moved clone) or does not answer', () => {
      const { dir } = installed();
      const bin = tempDir();
      const env = { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`, HOME: tempDir() };
      writeFileSync(join(bin, 'cortex'), '#!/bin/sh\nexec node /nonexistent/cortex/dist/cli.js "$@"\n', { mode: 0o755 });
      const broken = doctor(dir, env);
      expect(broken.code).toBe(1);
      expect(finding(broken.diagnosis, 'cortex on PATH')).toMatchObject({
        status: 'fail',
        detail: `${join(bin, 'cortex')} does not run (cortex --version exited 1: Error: Cannot find module '/nonexistent/cortex/dist/cli.js'): the git and Claude Code hooks call it, and it does nothing for them`,
        fix: expect.stringContaining('npm link'),
      });

      writeFileSync(join(bin, 'cortex'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
      const hung = cortex(dir, ['doctor', '--json'], { env });
      expect(finding(JSON.parse(hung.stdout) as Diagnosis, 'cortex on PATH')).toMatchObject({ status: 'fail', detail: expect.stringContaining('(cortex --version did not answer in 5 s)') });
    });

    it('git config cortex.* values every command refuses, with the unset for the scope each is in', () => {
      const { env: base, dir } = installed();
      const env = { ...base, GIT_CONFIG_GLOBAL: join(tempDir(), 'gitconfig') };
      git(dir, 'config', 'cortex.budget', '-5');
      git(dir, 'config', 'cortex.minSimilarity', '0.3');
      writeFileSync(env.GIT_CONFIG_GLOBAL, '[cortex]\n\trecallBudget = lots\n');
      expect(cortex(dir, ['briefing'], { env }).stderr).toContain('cortex.budget = "-5" is not a whole number from 100 to 100000; using 2000');

      const { code, diagnosis, text } = doctor(dir, env);
      expect(code).toBe(0);
      const settings = finding(diagnosis, 'settings');
      expect(settings).toEqual({
        check: 'settings',
        status: 'warn',
        detail: 'git config cortex.budget = "-5" is not a whole number from 100 to 100000; using 2000; git config cortex.recallbudget = "lots" is not a whole number from 0 to 9500; using 2000',
        fix: 'set each within range, or drop them: git config --unset-all cortex.budget && git config --global --unset-all cortex.recallbudget',
      });
      expect(text).toContain('works, with warnings');

      execFileSync('sh', ['-c', (settings?.fix as string).replace(/^[^:]*: /, '')], { cwd: dir, env: { ...process.env, ...env } });
      expect(finding(doctor(dir, env).diagnosis, 'settings')).toEqual({ check: 'settings', status: 'ok', detail: 'git config cortex.minsimilarity' });
    });

    it('git config cortex.* keys Cortex never reads (a misspelling git keeps silently), with the key meant when one is a typo away', () => {
      const { env: base, dir } = installed();
      const env = { ...base, GIT_CONFIG_GLOBAL: join(tempDir(), 'gitconfig') };
      git(dir, 'config', 'cortex.budgte', '500');
      writeFileSync(env.GIT_CONFIG_GLOBAL, '[cortex]\n\tcolour = always on\n');

      const { code, diagnosis, text } = doctor(dir, env);
      expect(code).toBe(0);
      const settings = finding(diagnosis, 'settings');
      expect(settings).toEqual({
        check: 'settings',
        status: 'warn',
        detail: 'git config cortex.colour is not a Cortex setting, so it does nothing; git config cortex.budgte is not a Cortex setting, so it does nothing (did you mean cortex.budget?)',
        fix: 'drop it: git config --global --unset-all cortex.colour; rename it: git config --unset-all cortex.budgte && git config cortex.budget 500',
      });
      expect(text).toMatch(/! settings +git config cortex.colour is not a Cortex setting/);

      for (const fix of (settings?.fix as string).split('; ')) execFileSync('sh', ['-c', fix.replace(/^[^:]*: /, '')], { cwd: dir, env: { ...process.env, ...env } });
      expect(finding(doctor(dir, env).diagnosis, 'settings')).toEqual({ check: 'settings', status: 'ok', detail: 'git config cortex.budget' });
    });
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

    it('a commit whose tree is missing: a failing line naming the missing object and how to get it back, not a crash', () => {
      const { env, dir } = damaged();
      const parent = git(dir, 'rev-parse', 'refs/heads/cortex/journal').trim();
      const text = join(tempDir(), 'commit');
      writeFileSync(text, `tree ${'ab'.repeat(20)}\nparent ${parent}\nauthor Dev <dev@example.com> 1790000000 +0000\ncommitter Dev <dev@example.com> 1790000000 +0000\n\nappend\n`);
      const commit = git(dir, 'hash-object', '-w', '-t', 'commit', '--literally', text).trim();
      git(dir, 'update-ref', 'refs/heads/cortex/journal', commit);
      const { code, diagnosis, text: shown } = doctor(dir, env);
      expect(code).toBe(1);
      expect(finding(diagnosis, 'journal')).toMatchObject({ status: 'fail', detail: `git object ${'ab'.repeat(20)} that the journal needs is missing from this repository`, fix: expect.stringContaining('fetch it from a clone that has it') });
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
