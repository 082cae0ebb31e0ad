import * as fsp from 'node:fs/promises';

/** node's promise fs in the shape isomorphic-git accepts (it is only used to read packs). */
export const objectFs = { promises: fsp };
