import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable } from 'node:stream';

/**
 * The SDK's stdio transport drops a line it cannot read as a JSON-RPC message without a reply,
 * so a client that sent a request without a method waits on its id forever. JSON-RPC 2.0 says
 * what to answer: -32700 for a line that is not JSON, -32600 for one that is not a request,
 * notification or response (with the request's id when it has one). This filter answers those
 * itself and passes every other line on to the transport unchanged.
 */
export function answerMalformed(input: Readable, reply: (message: object) => void): Readable {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const take = (stream: Transform, line: string) => {
    const problem = problemOf(line);
    if (problem) reply(problem);
    else stream.push(`${line}\n`);
  };
  return input.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        pending += decoder.write(chunk);
        let newline: number;
        while ((newline = pending.indexOf('\n')) >= 0) {
          take(this, pending.slice(0, newline));
          pending = pending.slice(newline + 1);
        }
        done();
      },
      flush(done) {
        pending += decoder.end();
        if (pending !== '') take(this, pending);
        done();
      },
    }),
  );
}

/** The JSON-RPC error a line deserves, or null when it is a message (or blank) for the transport. */
export function problemOf(line: string): object | null {
  if (line.trim() === '') return null;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return error(null, -32700, 'Parse error: the line is not JSON');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return error(null, -32600, 'Invalid Request: expected a JSON-RPC object');
  const { id, method } = message as Record<string, unknown>;
  const usableId = typeof id === 'string' || typeof id === 'number' ? id : null;
  if (typeof method !== 'string' && !('result' in message) && !('error' in message)) return error(usableId, -32600, 'Invalid Request: no method');
  return null;
}

const error = (id: string | number | null, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
