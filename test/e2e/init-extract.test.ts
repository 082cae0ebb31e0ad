import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cortex, cortexJson } from '../helpers/cli.js';
import { git, tempDir, tempRepo } from '../helpers/repo.js';
import { assistant, session, toolResult, toolUse, user } from '../helpers/transcript.js';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('cortex init and Claude Code settings', () => {
  it('adds its hooks next to the user\'s own, and a second run changes nothing', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    mkdirSync(join(dir, '.claude'));
    const mine = { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }], PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }] } };
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(mine));

    expect(cortexJson<{ changed: string[] }>(dir, ['init']).changed).toEqual([
      ...['post-merge', 'post-checkout', 'post-rewrite', 'prepare-commit-msg', 'pre-push'].map((h) => `.git/hooks/${h}`),
      '.git/config (merge.cortex)',
      '.gitattributes',
      '.cortex/decisions.md',
      '.cortex/decisions-archive.md',
      '.cortex/active-plan.md',
      '.claude/settings.json',
      '.claude/rules/cortex-memory.md',
    ]);
    const settings = readJson(join(dir, '.claude', 'settings.json'));
    expect(settings.model).toBe('opus');
    expect(settings.hooks.PreToolUse).toEqual(mine.hooks.PreToolUse);
    expect(settings.hooks.Stop).toEqual([...mine.hooks.Stop, { hooks: [{ type: 'command', command: 'cortex hook stop', timeout: 60, async: true }] }]);
    for (const event of ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SubagentStop', 'PreCompact', 'PostCompact', 'SessionEnd']) {
      const commands = settings.hooks[event].flatMap((g: { hooks: Array<{ command: string }> }) => g.hooks.map((h) => h.command));
      expect(commands.filter((c: string) => c.startsWith('cortex hook'))).toHaveLength(1);
    }
    expect(readFileSync(join(dir, '.claude', 'rules', 'cortex-memory.md'), 'utf8')).toContain('[MEMORY: decision]');

    const before = readFileSync(join(dir, '.claude', 'settings.json'), 'utf8');
    expect(cortexJson<{ changed: string[]; created: boolean }>(dir, ['init'])).toMatchObject({ changed: [], created: false });
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe(before);
  });

  it('keeps the layout of the user\'s settings.json and .mcp.json, and uninstall leaves them byte for byte as they were (a clean git status)', () => {
    const settings = '{\n    "hooks": {\n        "Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]\n    },\n    "env": {"FOO": "1"}\n}\n';
    const mcp = '{"mcpServers": {"other": {"command": "other-mcp"}}}\n';
    const dir = tempRepo({ files: { '.claude/settings.json': settings, '.mcp.json': mcp } });
    expect(cortex(dir, ['init', '--no-git', '--mcp']).code).toBe(0);
    const installed = readFileSync(join(dir, '.claude', 'settings.json'), 'utf8');
    expect(installed).toMatch(/^\{\n {4}"hooks": \{\n {8}"Stop": \[\{"hooks": \[\{"type": "command", "command": "echo mine"\}\]\}, /);
    expect(installed).toMatch(/\n {8}"SessionStart": \[\n {12}\{\n {16}"matcher"/);
    expect(installed).toMatch(/\n {4}\},\n {4}"env": \{"FOO": "1"\}\n\}\n$/);
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe('{"mcpServers": {"other": {"command": "other-mcp"}, "cortex": {"type": "stdio", "command": "cortex", "args": ["mcp"]}}}\n');

    expect(cortex(dir, ['uninstall']).code).toBe(0);
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe(settings);
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(mcp);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('uninstall gives back the bytes init found, empty objects and arrays too (which taking Cortex\'s entries out cannot tell from its own), through a second init; after the user\'s own edits it takes the entries out', () => {
    for (const settings of ['{\n  "hooks": {}\n}\n', '{"model": "opus", "hooks": {"Stop": []}}', '{}', '{\n}\n', '']) {
      const mcp = '{"mcpServers": {}}\n';
      const dir = tempRepo({ files: { '.claude/settings.local.json': settings, '.mcp.json': mcp } });
      expect(cortex(dir, ['init', '--local', '--no-git']).code).toBe(0);
      expect(cortex(dir, ['init', '--local', '--no-git', '--mcp']).code).toBe(0);
      expect(readFileSync(join(dir, '.claude', 'settings.local.json'), 'utf8')).toContain('cortex hook stop');
      expect(cortex(dir, ['uninstall']).code).toBe(0);
      expect({ settings: readFileSync(join(dir, '.claude', 'settings.local.json'), 'utf8'), mcp: readFileSync(join(dir, '.mcp.json'), 'utf8') }).toEqual({ settings, mcp });
      expect(git(dir, 'status', '--porcelain')).toBe('');
    }

    const dir = tempRepo({ files: { '.claude/settings.json': '{"hooks": {}}\n' } });
    cortex(dir, ['init', '--no-git']);
    const path = join(dir, '.claude', 'settings.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^\{/, '{"model": "opus",'));
    expect(cortex(dir, ['uninstall']).code).toBe(0);
    expect(readJson(path)).toEqual({ model: 'opus' });
  });

  it('uninstall says what it removed: a line or an entry from a file the user keeps, a file it created', () => {
    const dir = tempRepo({ files: { '.gitattributes': '*.png binary\n', '.claude/settings.json': '{"model": "opus"}\n', '.mcp.json': '{"mcpServers": {"other": {"command": "o"}}}\n' } });
    writeFileSync(join(dir, '.git', 'hooks', 'post-merge'), '#!/bin/sh\necho mine\n', { mode: 0o755 });
    writeFileSync(join(dir, '.git', 'hooks', 'pre-push'), '#!/usr/bin/env node\n', { mode: 0o755 });
    cortex(dir, ['init', '--mcp']);
    expect(cortex(dir, ['uninstall']).stdout.split('\n').filter((l) => l.startsWith('removed'))).toEqual([
      "removed Cortex's block from .git/hooks/post-merge",
      'removed .git/hooks/post-checkout',
      'removed .git/hooks/post-rewrite',
      'removed .git/hooks/prepare-commit-msg',
      "removed Cortex's wrapper from .git/hooks/pre-push (your hook is back in its place)",
      'removed .git/config (merge.cortex)',
      'removed the .cortex/*.md merge=cortex line from .gitattributes',
      'removed .cortex/decisions.md',
      'removed .cortex/decisions-archive.md',
      'removed .cortex/active-plan.md',
      "removed Cortex's hooks from .claude/settings.json",
      'removed the cortex server from .mcp.json',
      'removed .claude/rules/cortex-memory.md',
    ]);
    expect(git(dir, 'status', '--porcelain')).toBe('');

    const fresh = tempRepo({ files: { 'a.txt': '1' } });
    cortex(fresh, ['init', '--no-git', '--mcp']);
    cortex(fresh, ['init', '--no-claude']);
    const removed = cortex(fresh, ['uninstall']).stdout;
    for (const file of ['.gitattributes', '.claude/settings.json', '.mcp.json']) expect(removed).toContain(`removed ${file}\n`);
    // The folders init made for its files go with them; a folder with the user's files stays.
    expect(existsSync(join(fresh, '.claude'))).toBe(false);
    expect(existsSync(join(dir, '.claude', 'settings.json'))).toBe(true);
  });

  it('the briefing runs for every SessionStart source, fork too; init run again updates an older install, and uninstall still gives back the bytes init found', () => {
    const mine = '{\n  "model": "opus"\n}\n';
    const dir = tempRepo({ files: { '.claude/settings.json': mine } });
    cortex(dir, ['init', '--no-git']);
    const path = join(dir, '.claude', 'settings.json');
    const matcher = () => readJson(path).hooks.SessionStart.at(-1).matcher as string;
    expect(matcher().split('|').sort()).toEqual(['clear', 'compact', 'fork', 'resume', 'startup']);

    // As an older Cortex left it: the matcher without fork, in the file and in init's record of what it wrote.
    const older = (text: string) => text.replaceAll('startup|resume|clear|compact|fork', 'startup|resume|clear|compact');
    writeFileSync(path, older(readFileSync(path, 'utf8')));
    const record = join(dir, '.git', 'cortex', 'installed.json');
    writeFileSync(record, older(readFileSync(record, 'utf8')));
    expect(matcher()).toBe('startup|resume|clear|compact');
    expect(cortexJson<{ changed: string[] }>(dir, ['init', '--no-git']).changed).toEqual(['.claude/settings.json']);
    expect(matcher()).toBe('startup|resume|clear|compact|fork');
    expect(readJson(path).hooks.SessionStart).toHaveLength(1);

    expect(cortex(dir, ['uninstall']).code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(mine);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('--local writes the personal settings file instead, which git then ignores in this clone (as Claude Code does); uninstall takes the line back out', () => {
    const dir = tempRepo();
    const exclude = join(dir, '.git', 'info', 'exclude');
    const before = readFileSync(exclude, 'utf8');
    expect(cortexJson<{ changed: string[] }>(dir, ['init', '--local', '--no-git']).changed).toEqual(expect.arrayContaining(['.claude/settings.local.json', '.git/info/exclude']));
    expect(readJson(join(dir, '.claude', 'settings.local.json')).hooks.SessionEnd[0].hooks[0].command).toBe('cortex hook session-end');
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all')).not.toContain('settings.local.json');
    cortex(dir, ['uninstall']);
    expect(readFileSync(exclude, 'utf8')).toBe(before);
  });

  it('--no-claude --no-git creates only the journal and leaves .claude/ and git alone', () => {
    const dir = tempRepo();
    expect(cortexJson<{ created: boolean; changed: string[] }>(dir, ['init', '--no-claude', '--no-git'])).toMatchObject({ created: true, changed: [] });
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    expect(execSync('git rev-parse --verify -q refs/heads/cortex/journal', { cwd: dir }).toString()).toMatch(/^[0-9a-f]{40}/);
  });

  it('refuses to overwrite a settings file it cannot parse, in one line', () => {
    const dir = tempRepo();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), '{ "hooks": ');
    const result = cortex(dir, ['init']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/settings\.json is not a JSON object; fix it \(or move it away\) and run cortex init again\n$/);
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{ "hooks": ');
    // Parsed, but not hooks as Claude Code reads them; or a byte-order mark: each said as it is, in init and doctor.
    writeFileSync(join(dir, '.claude', 'settings.json'), '{"hooks": {"Stop": "oops"}}');
    expect(cortex(dir, ['init'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^cortex: "hooks\.Stop" in the settings is not a list of hook groups; .*\n$/) });
    expect(cortex(dir, ['doctor']).stdout).toMatch(/settings\.json: "hooks\.Stop" in the settings is not a list of hook groups/);
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe('{"hooks": {"Stop": "oops"}}');
    writeFileSync(join(dir, '.claude', 'settings.json'), '\uFEFF{"model":"opus"}');
    expect(cortex(dir, ['init'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/starts with a byte-order mark/) });
  });

  it('hooks installed by init run as Claude Code runs them (a shell command on PATH)', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init']);
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'cortex'), `#!/bin/sh\nexec "${process.execPath}" "${join(process.cwd(), 'dist', 'cli.js')}" "$@"\n`, { mode: 0o755 });
    const transcript = join(tempDir(), 't.jsonl');
    writeFileSync(transcript, session([assistant('Ruled out GraphQL: three REST endpoints do not need it.')]));
    const stop = readJson(join(dir, '.claude', 'settings.json')).hooks.Stop.at(-1).hooks[0].command as string;
    execSync(stop, { cwd: dir, input: JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' }), env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    expect(cortexJson<Array<{ type: string }>>(dir, ['log']).map((e) => e.type)).toEqual(['approach_rejected']);
  });
});

describe('cortex extract', () => {
  it('prints the events a transcript yields as JSON, without writing anything', () => {
    const dir = tempDir();
    const transcript = join(dir, 'session.jsonl');
    writeFileSync(
      transcript,
      session([
        toolUse('t1', 'Edit', { file_path: '/repo/src/db.ts', old_string: 'a', new_string: 'b' }),
        toolResult('t1', 'ok'),
        assistant('Going with Postgres over MongoDB: we need transactions across orders and payments.'),
      ]) + '{"type":"assistant", "trunc',
    );
    const result = cortex(dir, ['extract', transcript, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`cortex: warning: skipped 1 unreadable line in ${transcript}\n`);
    const events = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(events).toEqual([
      expect.objectContaining({ type: 'file_modified', content: 'Modified src/db.ts', confidence: 1, provenance: 'layer1:Edit', meta: { path: 'src/db.ts', tool: 'Edit' }, session: 'test-session' }),
      expect.objectContaining({ type: 'decision_made', confidence: 0.8, provenance: 'layer2:chose', meta: { reason: 'we need transactions across orders and payments', rejected: 'MongoDB' } }),
    ]);
    for (const e of events) expect(e.id).toMatch(/^[0-9A-Z]{26}$/);
  });

  it('reads the first record of a transcript that starts with a byte-order mark, as import does; so does the Stop hook', () => {
    const dir = tempRepo();
    const transcript = join(tempDir(), 'bom.jsonl');
    writeFileSync(transcript, `\uFEFF${session([user('[MEMORY: decision] Use SQS for the job queue because we are on AWS already'), assistant('OK.')])}`);
    const result = cortex(dir, ['extract', transcript, '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(result.stdout) as Array<{ content: string }>).map((e) => e.content)).toEqual(['Use SQS for the job queue because we are on AWS already']);
    cortex(dir, ['hook', 'stop'], { input: JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }) });
    expect(cortexJson<Array<{ type: string }>>(dir, ['log']).map((e) => e.type)).toEqual(['decision_made']);
  });

  it('keeps what a record with an unreadable time says, and everything after it: the Stop hook stores both', () => {
    const dir = tempRepo();
    const transcript = join(tempDir(), 'bad-time.jsonl');
    const lines = session([assistant('[MEMORY: decision] Use SQS for the job queue'), assistant('[MEMORY: decision] Use SNS for fan-out')]).trim().split('\n');
    lines[0] = lines[0]!.replace(/"timestamp":"[^"]*"/, '"timestamp":"2026-13-01T00:00:00Z"');
    writeFileSync(transcript, `${lines.join('\n')}\n`);
    const result = cortex(dir, ['extract', transcript, '--json']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Array<{ content: string }>).map((e) => e.content)).toEqual(['Use SQS for the job queue', 'Use SNS for fan-out']);
    cortex(dir, ['hook', 'stop'], { input: JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }) });
    expect(cortexJson<Array<{ content: string }>>(dir, ['log']).map((e) => e.content).sort()).toEqual(['Use SNS for fan-out', 'Use SQS for the job queue']);
  });

  it('reads the transcript from stdin for -, as import does', () => {
    const text = session([assistant('Ruled out GraphQL: three REST endpoints do not need it.')]) + '{"type":"assistant", "trunc';
    const result = cortex(tempDir(), ['extract', '-', '--json'], { input: text });
    expect(result).toMatchObject({ code: 0, stderr: 'cortex: warning: skipped 1 unreadable line in stdin\n' });
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ type: 'approach_rejected', session: 'test-session' })]);
  });

  it('says so in one line when the transcript is missing', () => {
    expect(cortex(tempDir(), ['extract', 'nope.jsonl', '--json'])).toMatchObject({ code: 1, stderr: 'cortex: nope.jsonl: no such file\n', stdout: '' });
  });
});
