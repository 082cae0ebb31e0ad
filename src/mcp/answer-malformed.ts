import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable } from 'node:stream';

/**
 * The SDK's stdio transport drops a line it cannot read as a JSON-RPC message without a reply,
 * so a client that sent a request without a method waits on its id forever. JSON-RPC 2.0 says
 * what to answer: -32700 for a line that is not JSON, -32600 for one that is not a request,
 * notification or response (no method, another "jsonrpc", an id that is neither string nor
 * number, a member the protocol has not), -32602 for params that are not an object (with the
 * request's id when it has one). This filter answers those itself and passes every other line
 * on to the transport unchanged.
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
  const fields = message as Record<string, unknown>;
  const { id, method, params } = fields;
  const usableId = typeof id === 'string' || typeof id === 'number' ? id : null;
  // The SDK's schemas are strict: whatever they would drop unanswered is answered here.
  if (fields.jsonrpc !== '2.0') return error(usableId, -32600, 'Invalid Request: "jsonrpc" must be "2.0"');
  if ('id' in fields && usableId === null) return error(null, -32600, 'Invalid Request: "id" must be a string or a number');
  const isResponse = 'result' in fields || 'error' in fields;
  if (typeof method !== 'string' && !isResponse) return error(usableId, -32600, 'Invalid Request: no method');
  const extra = Object.keys(fields).find((key) => !(isResponse ? RESPONSE_MEMBERS : REQUEST_MEMBERS).has(key));
  if (extra !== undefined) return error(usableId, -32600, `Invalid Request: unexpected member "${extra}"`);
  if ('params' in fields && (params === null || typeof params !== 'object' || Array.isArray(params))) return error(usableId, -32602, 'Invalid params: "params" must be an object');
  if (method === 'tools/call') {
    const call = params as Record<string, unknown> | undefined;
    const args = call?.arguments;
    if (typeof call?.name !== 'string') return error(usableId, -32602, 'Invalid params: tools/call needs the tool\'s "name"');
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return error(usableId, -32602, 'Invalid params: "arguments" must be an object');
  }
  return null;
}

const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);
const RESPONSE_MEMBERS = new Set(['jsonrpc', 'id', 'result', 'error']);

const error = (id: string | number | null, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } });
