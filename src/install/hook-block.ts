import { programOf } from './shell-words.js';

/**
 * The marked block Cortex puts into a user's git hook script, and taking it out again so the
 * file is byte-identical to before. Pure: text in, text out.
 */
export const BLOCK_START = '# >>> cortex >>> (added by `cortex init`; `cortex uninstall` removes it)';
export const BLOCK_END = '# <<< cortex <<<';

/** Hooks git feeds on stdin: the block saves stdin for the rest of the user's script. */
const STDIN_HOOKS = new Set(['post-rewrite', 'pre-push']);

/** The shell lines that hand one hook over to `cortex git-hook`, failing open. */
export function hookBlock(hook: string, command: string): string {
  const call = `${command} git-hook ${hook} "$@"`;
  const body = STDIN_HOOKS.has(hook)
    ? [
        'cortex_stdin=$(mktemp 2>/dev/null || echo "${TMPDIR:-/tmp}/cortex-hook-$$")',
        'cat > "$cortex_stdin"',
        `if command -v ${programOf(command)} >/dev/null 2>&1; then ${call} < "$cortex_stdin" || true; fi`,
        'exec < "$cortex_stdin"; rm -f "$cortex_stdin"',
      ]
    : [`if command -v ${programOf(command)} >/dev/null 2>&1; then ${call} || true; fi`];
  return [BLOCK_START, ...body, BLOCK_END, ''].join('\n');
}

const SHELL_SHEBANG = /^#!\s*(?:\/usr\/bin\/env\s+(?:-S\s+)?)?\/?(?:[\w/]*\/)?(?:sh|bash|dash|zsh|ksh|ash)\b/;

/**
 * Whether a block can go into this script: a shell script, whose shebang names a shell, or which
 * has none. git runs a shebang-less hook with sh (the kernel refuses it, git falls back to the
 * shell) and husky v9 runs `.husky/<hook>` with `sh -e`: such a file is a shell snippet. Another
 * interpreter's script, or a binary, is not.
 */
export function acceptsBlock(script: string): boolean {
  if (script.includes('\0')) return false;
  if (!script.startsWith('#!')) return true;
  const firstLineEnd = script.indexOf('\n');
  return firstLineEnd !== -1 && SHELL_SHEBANG.test(script.slice(0, firstLineEnd));
}

/** The script with the block right after its shebang, or on top (before the user's code can exit or read stdin). */
export function addBlock(script: string, block: string): string {
  const cut = script.startsWith('#!') ? script.indexOf('\n') + 1 : 0;
  return `${script.slice(0, cut)}${block}${script.slice(cut)}`;
}

/**
 * What takes the place of a hook that is not a shell script (moved aside to `chained`): our block,
 * then the user's hook, with the block's saved stdin, its exit status the hook's. `exec` needs an
 * executable file; one that is not was run by a shell (husky's `sh -e`), so a shell runs it still.
 */
export function chainScript(block: string, chained: string, executable: boolean): string {
  return `#!/bin/sh\n${block}exec ${executable ? '' : 'sh '}"$(dirname "$0")/${chained}" "$@"\n`;
}

export function hasBlock(script: string): boolean {
  return script.includes(BLOCK_START);
}

/** The script without the block: exactly what it was before `addBlock`. */
export function removeBlock(script: string): string {
  const start = script.indexOf(BLOCK_START);
  if (start === -1) return script;
  const end = script.indexOf(`${BLOCK_END}\n`, start);
  if (end === -1) return script;
  return script.slice(0, start) + script.slice(end + BLOCK_END.length + 1);
}
