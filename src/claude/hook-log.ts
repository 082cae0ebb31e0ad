import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { redactText } from '../capture/redact.js';

/**
 * `.git/cortex/log`: what hooks did and why they gave up, for `cortex status` and for people
 * debugging. Every line is redacted (an error message can quote its input); the file rotates
 * at 1 MB so it never grows without bound.
 */
const MAX_LOG_BYTES = 1024 * 1024;

export async function writeHookLog(cortexDir: string, line: string): Promise<void> {
  try {
    await mkdir(cortexDir, { recursive: true });
    const path = join(cortexDir, 'log');
    const info = await stat(path).catch(() => null);
    if (info && info.size > MAX_LOG_BYTES) await rename(path, `${path}.1`);
    await appendFile(path, `${new Date().toISOString()} ${redactText(line.replace(/\s+/g, ' ')).text.slice(0, 2000)}\n`);
  } catch {
    // Logging must never be the reason a hook fails.
  }
}
