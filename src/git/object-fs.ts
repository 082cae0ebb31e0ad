import * as fsp from 'node:fs/promises';
import { randomBytes } from 'node:crypto';

/**
 * The file system handed to isomorphic-git. It is node's, except that objects are written to a
 * temporary name and renamed into place (as git itself does): isomorphic-git writes them in
 * place and never rewrites an existing one, so a process killed mid-write could otherwise leave
 * a truncated object behind for a later writer to trust.
 */
async function writeFileAtomically(path: string, data: Uint8Array | string, options?: unknown): Promise<void> {
  if (!path.includes('/objects/')) return fsp.writeFile(path, data, options as never);
  const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await fsp.writeFile(temp, data, options as never);
  await fsp.rename(temp, path);
}

export const objectFs = { promises: { ...fsp, writeFile: writeFileAtomically } };
