import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CortexError } from '../errors.js';
import { compareAndSwapRef, readRef } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { runGit } from '../git/run-git.js';
import { mergeJournals } from './merge.js';
import { readTip, type JournalStore } from './tip.js';

/**
 * Team sync through the remote the user already has (or a URL, as `git push` takes): fetch the
 * remote journal, unite it with ours (fast-forward when one contains the other, a union merge
 * commit otherwise), push, and start over if the remote moved in between. Only the journal ref
 * is ever fetched or pushed.
 */
export interface SyncResult {
  remote: string;
  before: string | null;
  after: string | null;
  remoteBefore: string | null;
  pushed: boolean;
  merged: boolean;
  attempts: number;
}

const ATTEMPTS = 8;

/** The journal's branch name, as remote-tracking refs and FETCH_HEAD show it. */
const journalBranch = (store: JournalStore): string => store.ref.replace(/^refs\/heads\//, '');

/**
 * What `git push` takes besides a remote's name: a URL (`scheme://…`, `host:path`) or a path.
 * The pre-push hook gets one as its remote when the push names no configured remote. Never an
 * option: it goes to git fetch and git push as an argument.
 */
async function looksLikeUrl(remote: string, cwd: string): Promise<boolean> {
  if (remote.startsWith('-')) return false;
  return /[:/\\]/.test(remote) || (await stat(resolve(cwd, remote)).then((s) => s.isDirectory(), () => false));
}

export async function syncJournal(repo: Repo, store: JournalStore, remote: string, author: string, options: { push?: boolean } = {}): Promise<SyncResult> {
  const cwd = repo.workTree ?? repo.gitDir;
  const git = (...args: string[]) => runGit(args, { cwd });
  const named = (await git('remote', 'get-url', remote)).code === 0;
  if (!named && !(await looksLikeUrl(remote, cwd))) throw new CortexError('USAGE', `no remote named "${remote}" (git remote -v lists them; a URL works too)`);
  // A URL can hold anything a ref name may not ("..", ":"): its tracking ref goes by a hash.
  const trackingRef = `refs/cortex/sync/${named ? remote.replace(/[^\w.-]/g, '_') : `url-${createHash('sha1').update(remote).digest('hex').slice(0, 16)}`}`;
  const branch = store.ref;
  const before = await readTip(store);
  let remoteBefore: string | null = null;
  let merged = false;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const fetch = await git('fetch', '--quiet', '--no-tags', remote, `+${branch}:${trackingRef}`);
    let theirs: string | null = null;
    if (fetch.code === 0) theirs = await readRef(repo.commonDir, trackingRef);
    else if (!/couldn't find remote ref|no such ref|not our ref/i.test(fetch.stderr)) {
      throw new CortexError('GIT_FAILED', `git fetch ${remote} failed: ${fetch.stderr.trim().split('\n')[0] ?? ''}`);
    }
    if (attempt === 1) remoteBefore = theirs;
    const ours = await readTip(store);
    let next = ours;
    if (theirs && theirs !== ours) {
      const united = await uniteWith(repo, store, ours, theirs, author);
      if (!united) continue; // a local append raced us
      next = united.tip;
      merged ||= united.merged;
    }
    if (!next || next === theirs || options.push === false) return { remote, before, after: next, remoteBefore, pushed: false, merged, attempts: attempt };
    const push = await git('push', '--quiet', '--no-verify', remote, `${branch}:${branch}`);
    if (push.code === 0) {
      await git('update-ref', trackingRef, next);
      return { remote, before, after: next, remoteBefore, pushed: true, merged, attempts: attempt };
    }
    if (!/rejected|non-fast-forward|fetch first|failed to update ref|cannot lock ref/i.test(push.stderr)) {
      throw new CortexError('GIT_FAILED', `git push ${remote} failed: ${push.stderr.trim().split('\n')[0] ?? ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * attempt)); // the remote moved: again
  }
  throw new CortexError('APPEND_CONTENDED', `the journal on ${remote} kept moving; ran out of ${ATTEMPTS} attempts. Run cortex sync again.`);
}

/**
 * Our journal (at `ours`) united with `theirs` and the ref moved there: a fast-forward when one
 * contains the other, a union merge commit otherwise. Null when a local append moved the ref
 * meanwhile (read the tip and try again).
 */
export async function uniteWith(repo: Repo, store: JournalStore, ours: string | null, theirs: string, author: string): Promise<{ tip: string; merged: boolean } | null> {
  const isAncestor = async (a: string, b: string) => (await runGit(['merge-base', '--is-ancestor', a, b], { cwd: repo.workTree ?? repo.gitDir })).code === 0;
  if (ours === theirs || (ours && (await isAncestor(theirs, ours)))) return { tip: ours as string, merged: false };
  const merged = ours !== null && !(await isAncestor(ours, theirs));
  const tip = merged ? await mergeJournals(store, ours as string, theirs, author) : theirs;
  return (await compareAndSwapRef(store.gitdir, store.ref, ours, tip)) ? { tip, merged } : null;
}

/**
 * Unite the journal with the remote journals git has already fetched (`refs/remotes/<remote>/`
 * and the journal's branch name): after a `git pull`, the teammates' memories that came with it
 * are in the journal before the tracked files are regenerated from it. Local only: no fetch, no
 * push. Returns how many remote journals brought something new.
 */
export async function uniteFetchedJournals(repo: Repo, store: JournalStore, author: string): Promise<number> {
  const branch = journalBranch(store);
  const listed = await runGit(['for-each-ref', '--format=%(objectname)', `refs/remotes/*/${branch}`], { cwd: repo.workTree ?? repo.gitDir });
  let united = 0;
  for (const theirs of new Set(listed.stdout.split('\n').filter(Boolean))) {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const ours = await readTip(store);
      const result = await uniteWith(repo, store, ours, theirs, author);
      if (!result) continue;
      if (result.tip !== ours) united++;
      break;
    }
  }
  return united;
}

/** How recent FETCH_HEAD must be to be the fetch of the pull that ran post-merge. */
const JUST_NOW_MS = 120_000;

/**
 * The remote a pull just fetched from without bringing the journal (`git pull origin main` fetches
 * that one branch): FETCH_HEAD, written in the last two minutes, names no journal branch. Null
 * when the pull brought the journal too, when there was no fetch (a local merge), or when its
 * URL is no configured remote's.
 */
export async function remoteFetchedWithoutJournal(repo: Repo, store: JournalStore): Promise<string | null> {
  const branch = journalBranch(store);
  // A linked worktree keeps its own FETCH_HEAD; the newest one is this pull's.
  const heads = await Promise.all([...new Set([repo.gitDir, repo.commonDir])].map(async (dir) => {
    const path = join(dir, 'FETCH_HEAD');
    const info = await stat(path).catch(() => null);
    return info && Date.now() - info.mtimeMs <= JUST_NOW_MS ? { path, time: info.mtimeMs } : null;
  }));
  const newest = heads.filter((h) => h !== null).sort((a, b) => b.time - a.time)[0];
  if (!newest) return null;
  const lines = (await readFile(newest.path, 'utf8')).split('\n').filter(Boolean);
  if (lines.length === 0 || lines.some((line) => line.includes(`'${branch}' of `))) return null;
  const url = / of (.+)$/.exec(lines[0] as string)?.[1];
  if (!url) return null;
  // FETCH_HEAD shows the URL without a trailing ".git" or "/".
  const bare = (u: string) => u.trim().replace(/\/+$/, '').replace(/\.git$/, '');
  const config = await runGit(['config', '--get-regexp', '^remote\\..*\\.url$'], { cwd: repo.workTree ?? repo.gitDir });
  for (const line of config.stdout.split('\n')) {
    const match = /^remote\.(.+)\.url (.+)$/.exec(line);
    if (match && bare(match[2] as string) === bare(url)) return match[1] as string;
  }
  return null;
}
