import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isWriteRefused } from '../errors.js';
import { cortexDir } from '../git/repo.js';
import { excludeInThisClone } from '../install/info-exclude.js';
import type { Journal } from '../journal/journal.js';
import { HOOK_MAX_CHARS, readBriefing } from '../workspace/briefing.js';
import { readSettings } from '../workspace/settings.js';
import { writeIfChanged } from '../write-if-changed.js';

/**
 * SessionStart: the briefing goes to Claude on stdout (for startup, resume, clear and compact
 * alike, so it survives compaction), or, with `git config cortex.briefing rules`, into
 * `.claude/rules/cortex-briefing.md`, which Claude Code loads itself; never both. A copy is
 * always left in `.git/cortex/briefing.md` for inspection.
 */
export const RULES_BRIEFING = join('.claude', 'rules', 'cortex-briefing.md');

export async function deliverBriefing(journal: Journal, source: string): Promise<{ summary: string; context?: string; notice?: string }> {
  const { settings } = await readSettings(journal);
  const { briefing, cached } = await readBriefing(journal, settings, { maxChars: HOOK_MAX_CHARS });
  // The copy is for inspection: where .git/cortex cannot be written, the briefing still goes to
  // Claude, and the user hears once that this session's memory will not be kept.
  const copy = join(cortexDir(journal.repo), 'briefing.md');
  const refused = await writeIfChanged(copy, briefing.markdown).then(
    () => null,
    (err: unknown) => {
      if (!isWriteRefused(err)) throw err;
      return err.code;
    },
  );
  const notice = refused ? `Cortex cannot write ${cortexDir(journal.repo)} (${refused}), so this session's memory will not be saved. Run cortex doctor for the fix.` : undefined;
  const root = journal.repo.workTree;
  const rulesPath = root ? join(root, RULES_BRIEFING) : null;
  const about = `briefing for ${source}: ${briefing.chars} chars${cached ? ' (cached)' : ''}`;
  if (settings.delivery === 'rules') {
    if (!rulesPath) return { summary: `${about}; no work tree for the rules file` };
    await writeIfChanged(rulesPath, briefing.markdown);
    // The rules copy is personal and regenerated: kept out of `git status`.
    await excludeInThisClone(journal.repo, RULES_BRIEFING);
    return { summary: `${about}, written to ${RULES_BRIEFING}` };
  }
  if (rulesPath) await rm(rulesPath, { force: true });
  // Nothing remembered yet: say nothing rather than a preamble around empty sections.
  const empty = briefing.sections.every((s) => s.shown === 0);
  return { summary: `${about}${empty ? ', empty: nothing printed' : ', printed'}`, context: empty ? undefined : briefing.markdown, ...(notice ? { notice } : {}) };
}
