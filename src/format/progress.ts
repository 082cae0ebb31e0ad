/**
 * A one-line progress bar on stderr, redrawn at most ten times a second, shown only on a
 * terminal (a pipe or a log gets nothing).
 */
export interface Progress {
  update(done: number, total: number): void;
  finish(message?: string): void;
}

export function createProgress(stream: { write(text: string): unknown; isTTY?: boolean }, label: string): Progress {
  if (!stream.isTTY) return { update: () => undefined, finish: () => undefined };
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const width = 30;
      const filled = Math.round(share * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done.toLocaleString('en')}/${total.toLocaleString('en')}`);
      drawn = true;
    },
    finish(message) {
      if (drawn) stream.write('\r\u001b[2K');
      if (message) stream.write(`${message}\n`);
    },
  };
}
