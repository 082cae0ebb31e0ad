import { readFile } from 'node:fs/promises';

/**
 * Markdown templates shipped in `templates/`. This module sits one level below the package
 * root both as source (src/) and when bundled (dist/, where esbuild puts every chunk), so the
 * same relative URL finds the folder in tests and in the installed CLI.
 */
const TEMPLATES = new URL('../templates/', import.meta.url);

export function readTemplate(name: string): Promise<string> {
  return readFile(new URL(name, TEMPLATES), 'utf8');
}
