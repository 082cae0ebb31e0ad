/**
 * Pure: a commit message as git will clean it up. prepare-commit-msg must not turn a message git
 * would find empty (and abort the commit for) into one it commits, so it asks this first.
 */

/** The characters `core.commentChar auto` picks from (git's own list, in its order). */
const AUTO_COMMENT_CHARS = '#;@!$%^&|:';
/** Below this line (after the comment prefix and a space) git drops everything: `commit -v`'s diff. */
const SCISSORS = ' ------------------------ >8 ------------------------';

/**
 * The prefixes of the lines git strips as comments, from `core.commentChar` (or
 * `core.commentString`): `#` when unset; with `auto` git picks one per message, so any it may pick.
 */
function commentPrefixes(commentChar: string | undefined): string[] {
  if (commentChar === undefined || commentChar === '') return ['#'];
  return commentChar === 'auto' ? [...AUTO_COMMENT_CHARS] : [commentChar];
}

/**
 * Whether git finds nothing in this message once comment lines, everything below the scissors
 * line and whitespace are gone. A line that only may be a comment (with `auto`) counts as one:
 * a message that is no trailer's business is safer than a commit the user abandoned.
 */
export function isEmptyMessage(message: string, commentChar?: string): boolean {
  const prefixes = commentPrefixes(commentChar);
  for (const line of message.split('\n')) {
    const comment = prefixes.find((prefix) => line.startsWith(prefix));
    if (comment !== undefined && line.replace(/\r$/, '') === `${comment}${SCISSORS}`) return true;
    if (comment === undefined && line.trim() !== '') return false;
  }
  return true;
}
