/**
 * Whether git would take `name` as a full ref name: the rules of `git check-ref-format`, which
 * are few and fixed. Checked here rather than by running git because every command opens the
 * journal, and a spawn would cost more than the command; isomorphic-git only cleans names up.
 */
export function isValidRefName(name: string): boolean {
  if (name === '@' || name.endsWith('.') || name.includes('..') || name.includes('@{')) return false;
  // Control characters, space, and the characters git gives meaning to in revisions and globs.
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  const components = name.split('/');
  if (components.length < 2) return false;
  return components.every((c) => c !== '' && !c.startsWith('.') && !c.endsWith('.lock'));
}
