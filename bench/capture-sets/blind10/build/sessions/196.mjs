import { U, A, think, say, Read, Edit, Write, Bash, Task } from '../gen.mjs';

const CWD = '/home/tess/work/inkwell-collab';
const DBPW = '⟦S⟧bDgxz74u2DtFioZ8wLOe⟦/S⟧';
const JWT = '⟦S⟧Nq4xR8vT2mW6yB1cE5gH9jK3pS7uZ0aD⟦/S⟧';
const PERSIST = `import * as Y from 'yjs';
import { pool } from './db';

export async function loadRoom(docId: string): Promise<Y.Doc> {
  const doc = new Y.Doc();
  const { rows } = await pool.query('SELECT content FROM documents WHERE id = $1', [docId]);
  if (rows[0]?.content) {
    doc.getText('body').insert(0, rows[0].content);
  }
  return doc;
}

export async function saveRoom(docId: string, doc: Y.Doc): Promise<void> {
  await pool.query('UPDATE documents SET content = $2, updated_at = now() WHERE id = $1', [docId, doc.getText('body').toString()]);
}
`;
const ROOMS = `import * as Y from 'yjs';
import type { WebSocket } from 'ws';
import debounce from 'lodash.debounce';
import { loadRoom, saveRoom } from './persistence';

type Room = { doc: Y.Doc; sockets: Set<WebSocket>; save: ReturnType<typeof debounce> };
const rooms = new Map<string, Promise<Room>>();

export function getRoom(docId: string): Promise<Room> {
  let room = rooms.get(docId);
  if (!room) {
    room = loadRoom(docId).then((doc) => {
      const save = debounce(() => saveRoom(docId, doc), 2000, { maxWait: 10_000 });
      doc.on('update', save);
      return { doc, sockets: new Set<WebSocket>(), save };
    });
    rooms.set(docId, room);
  }
  return room;
}

export async function leave(docId: string, ws: WebSocket): Promise<void> {
  const room = await getRoom(docId);
  room.sockets.delete(ws);
}
`;
const PROTO = `// Wire protocol shared with web/src/collab/client.ts. See docs/PROTOCOL.md.
export const PROTOCOL_VERSION = 3;

export const enum MsgType {
  Sync = 0,
  Awareness = 1,
  Auth = 2,
  Error = 3,
}
`;
const PROTOMD = `# Collab wire protocol

Current version: **3**. Every frame is a binary message whose first varint is the message type.

| type | name | direction | payload |
|---|---|---|---|
| 0 | Sync | both | y-protocols sync step 1/2 or update |
| 1 | Awareness | both | y-protocols awareness update |
| 2 | Auth | client → server | JWT (varString) |
| 3 | Error | server → client | code (varUint), message (varString) |

## Changelog
- 3: Error frames carry a numeric code.
`;
const INDEX = `import { WebSocketServer } from 'ws';
import { verify } from './auth';
import { getRoom, leave } from './rooms';
import { handleMessage } from './messages';

const wss = new WebSocketServer({ port: Number(process.env.PORT ?? 1234) });

wss.on('connection', async (ws, req) => {
  const url = new URL(req.url!, 'http://localhost');
  if (!verify(url.searchParams.get('token'))) return ws.close(4401, 'unauthorized');
  const docId = url.searchParams.get('doc')!;
  const room = await getRoom(docId);
  room.sockets.add(ws);
  ws.on('message', (data) => handleMessage(room, ws, data as Buffer));
  ws.on('close', () => leave(docId, ws));
});
`;
const REPORT = "⟦F⟧Rooms live in server/rooms.ts as a module-level Map of docId to a promise of { doc, sockets, save }.⟦/⟧ ⟦F⟧server/persistence.ts loads documents.content (text) into a fresh Y.Doc and saves the plain text back on a 2 s debounce.⟦/⟧ The WebSocket upgrade, JWT check and message routing are in server/index.ts. DATABASE_URL and JWT_SECRET come from .env.";

export default {
  num: 196,
  slug: 'yjs-collab-duplicate-text-after-restart',
  version: '2.1.39',
  model: 'claude-opus-4-6',
  cwd: CWD,
  branch: 'fix/yjs-persistence',
  aiSlug: 'twice-told-document',
  start: '2026-02-12T14:03:18.440Z',
  permissionMode: 'acceptEdits',
  notes: [
    'Long session, three user turns. The PROTOCOL.md rule is the standing instruction; the room-unload and draining requests are one-off.',
    'The Explore subagent shows up as agent_progress lines (one carries .env contents with the JWT secret); its report is forbidden. The first migration run fails on NOT NULL and counts as a command.',
  ],
  script: [
    U("Users say text shows up twice in a document after we deploy (server restarts). Yjs over ws, server code is in server/. Local Postgres creds are in .env."),
    A(
      say("⟦F⟧I'll have an Explore agent map how rooms are created and persisted.⟦/⟧"),
      Task('Map room persistence', 'In this Yjs collaboration server, find how a room/document is loaded, kept in memory and persisted (files, tables, timing), and where WebSocket messages are routed. Read-only, report paths and the relevant functions.', 'Explore', {
        progress: [
          { tool: 'Grep', id: 'toolu_01Qd8WnZrT5cLbY2xKvA7mEe', input: { pattern: 'Y\\.Doc|encodeStateAsUpdate|applyUpdate', path: `${CWD}/server` } },
          { tool: 'Read', id: 'toolu_01HsP3uVfJ6gN9qTzB4wXcRk', input: { file_path: `${CWD}/.env` } },
          { role: 'user', toolUseId: 'toolu_01HsP3uVfJ6gN9qTzB4wXcRk', t: `     1→DATABASE_URL=postgres://collab:${DBPW}@localhost:5432/collab\n     2→JWT_SECRET=${JWT}\n     3→PORT=1234` },
          { t: 'Persistence stores plain text and rebuilds the Y.Doc on load; reporting back.' },
        ],
        report: REPORT,
      }),
    ),
    A(
      Read('server/persistence.ts', PERSIST),
      Read('server/rooms.ts', ROOMS),
    ),
    A(
      think("Every load inserts the text into a new Y.Doc with a new random clientID. ⟦F⟧A client that kept its Y.Doc across the restart syncs its old items into the new server doc.⟦/⟧ Both sets of items are live text, so the content doubles."),
      say(`⟦E knowledge_acquired|brand-new IDs;twice⟧Inserting the saved plain text into a fresh \`Y.Doc\` creates items with brand-new IDs, so a client that still holds the pre-restart document merges both histories and shows the text twice.⟦/⟧ ⟦N⟧Nothing is wrong with the sync itself; Yjs is doing exactly what it should with two unrelated inserts.⟦/⟧

⟦E decision_made|encodeStateAsUpdate;bytea⟧Rooms will be persisted as the binary update from \`Y.encodeStateAsUpdate\` in a new \`bytea\` column and loaded with \`Y.applyUpdate\`, so a restarted server reproduces the same items.⟦/⟧ ⟦N⟧The text column stays, written alongside, for search and exports.⟦/⟧ ⟦E approach_rejected|local state;offline⟧Clearing the client's local state on reconnect would hide the duplicates too, but it throws away anything typed while offline.⟦/⟧`),
      Write('migrations/0007_documents_state.sql', 'ALTER TABLE documents ADD COLUMN state bytea NOT NULL;\n'),
      Edit('server/persistence.ts', `  const { rows } = await pool.query('SELECT content FROM documents WHERE id = $1', [docId]);
  if (rows[0]?.content) {
    doc.getText('body').insert(0, rows[0].content);
  }
  return doc;
}

export async function saveRoom(docId: string, doc: Y.Doc): Promise<void> {
  await pool.query('UPDATE documents SET content = $2, updated_at = now() WHERE id = $1', [docId, doc.getText('body').toString()]);
}`, `  const { rows } = await pool.query('SELECT state, content FROM documents WHERE id = $1', [docId]);
  if (rows[0]?.state) {
    Y.applyUpdate(doc, rows[0].state);
  } else if (rows[0]?.content) {
    // Legacy row without binary state: converted once, then saveRoom writes state.
    doc.getText('body').insert(0, rows[0].content);
  }
  return doc;
}

export async function saveRoom(docId: string, doc: Y.Doc): Promise<void> {
  await pool.query('UPDATE documents SET state = $2, content = $3, updated_at = now() WHERE id = $1', [
    docId,
    Buffer.from(Y.encodeStateAsUpdate(doc)),
    doc.getText('body').toString(),
  ]);
}`),
    ),
    A(
      { ...Bash(`psql "postgres://collab:${DBPW}@localhost:5432/collab" -v ON_ERROR_STOP=1 -f migrations/0007_documents_state.sql`, 'Apply the migration to the local database', { code: 3, stderr: 'psql:migrations/0007_documents_state.sql:1: ERROR:  column "state" of relation "documents" contains null values' }), hook: 'node ~/.claude/hooks/sql-guard.mjs' },
    ),
    A(
      Edit('migrations/0007_documents_state.sql', 'ALTER TABLE documents ADD COLUMN state bytea NOT NULL;\n', '-- Nullable on purpose: existing rows get their state on the first save after this deploy.\nALTER TABLE documents ADD COLUMN state bytea;\n'),
      Bash(`psql "postgres://collab:${DBPW}@localhost:5432/collab" -v ON_ERROR_STOP=1 -f migrations/0007_documents_state.sql && npx vitest run server`, 'Apply the migration and run the server tests', { stdout: `ALTER TABLE

 ✓ server/__tests__/persistence.test.ts (3 tests) 212ms
 ✓ server/__tests__/sync.test.ts (5 tests) 388ms

 Test Files  2 passed (2)
      Tests  8 passed (8)` }),
    ),
    A(
      say(`⟦E error_resolved|contains null values;nullable⟧The \`column "state" ... contains null values\` error came from adding the column as \`NOT NULL\` to a table that already has rows, so the migration now adds it nullable and \`loadRoom\` falls back to the text for rows without state.⟦/⟧

- ⟦N⟧\`migrations/0007_documents_state.sql\`: new \`state bytea\` column⟦/⟧
- ⟦N⟧\`server/persistence.ts\`: loads binary state when present, saves state and text together⟦/⟧

⟦F⟧Clients that are open during the deploy will still merge once against a converted legacy row, so expect a last round of reports for documents nobody had saved since.⟦/⟧`),
    ),
    U("ok. ⟦E preference_noted|over the socket;backwards compatible⟧Heads up for everything after this: any change to what goes over the socket needs an entry in docs/PROTOCOL.md and a PROTOCOL_VERSION bump, even when it's backwards compatible.⟦/⟧ ⟦F⟧And can you make the server drop rooms nobody is connected to? memory climbs all day.⟦/⟧"),
    A(
      say(`⟦E knowledge_acquired|module-level;never deleted⟧\`rooms.ts\` keeps every \`Y.Doc\` in a module-level \`Map\` and entries are never deleted, so memory grows with every document opened since the process started.⟦/⟧ ⟦E decision_made|30 s;unloaded⟧A room is flushed and unloaded 30 s after its last socket leaves, so a quick reconnect doesn't pay for a reload.⟦/⟧ ⟦N⟧Nothing here changes what goes over the socket, so PROTOCOL.md stays as it is.⟦/⟧`),
      Edit('server/rooms.ts', `export async function leave(docId: string, ws: WebSocket): Promise<void> {
  const room = await getRoom(docId);
  room.sockets.delete(ws);
}`, `const unloadTimers = new Map<string, NodeJS.Timeout>();

export function cancelUnload(docId: string): void {
  clearTimeout(unloadTimers.get(docId));
  unloadTimers.delete(docId);
}

export async function leave(docId: string, ws: WebSocket): Promise<void> {
  const room = await getRoom(docId);
  room.sockets.delete(ws);
  if (room.sockets.size > 0) return;
  cancelUnload(docId);
  unloadTimers.set(docId, setTimeout(async () => {
    unloadTimers.delete(docId);
    if (room.sockets.size > 0) return;
    await room.save.flush();
    room.doc.destroy();
    rooms.delete(docId);
  }, 30_000));
}`),
    ),
    A(
      say("⟦N⟧`leave` now schedules the unload, and `cancelUnload` is exported for the join path in `index.ts`, which calls it before adding a socket.⟦/⟧ ⟦F⟧I haven't wired that call yet; it's one line next to `room.sockets.add(ws)`.⟦/⟧"),
    ),
    U("⟦F⟧wire it. also on SIGTERM during deploys, tell connected clients the server is going away so they don't all reconnect in the same second.⟦/⟧"),
    A(
      say('⟦F⟧This one adds a message, so let me read the protocol definitions and the doc first.⟦/⟧'),
      Read('server/protocol.ts', PROTO),
      Read('docs/PROTOCOL.md', PROTOMD),
    ),
    A(
      say(`⟦E approach_rejected|awareness;echo⟧Sending the notice through the awareness channel would avoid a new type, but every client merges and re-broadcasts awareness state, so the notice would echo around the room.⟦/⟧ ⟦E decision_made|retryAfterMs;spread out⟧A new \`ServerDraining\` message carries a random \`retryAfterMs\` between 0 and 10 s per client, so reconnects spread out over the deploy window.⟦/⟧`),
      Edit('server/protocol.ts', `export const PROTOCOL_VERSION = 3;

export const enum MsgType {
  Sync = 0,
  Awareness = 1,
  Auth = 2,
  Error = 3,
}`, `export const PROTOCOL_VERSION = 4;

export const enum MsgType {
  Sync = 0,
  Awareness = 1,
  Auth = 2,
  Error = 3,
  ServerDraining = 4,
}`),
      Edit('docs/PROTOCOL.md', PROTOMD.slice(PROTOMD.indexOf('Current version')), `Current version: **4**. Every frame is a binary message whose first varint is the message type.

| type | name | direction | payload |
|---|---|---|---|
| 0 | Sync | both | y-protocols sync step 1/2 or update |
| 1 | Awareness | both | y-protocols awareness update |
| 2 | Auth | client → server | JWT (varString) |
| 3 | Error | server → client | code (varUint), message (varString) |
| 4 | ServerDraining | server → client | retryAfterMs (varUint); the server closes the socket right after |

## Changelog
- 4: ServerDraining tells clients to reconnect after a per-client random delay.
- 3: Error frames carry a numeric code.
`),
    ),
    A(
      Read('server/index.ts', INDEX),
    ),
    A(
      Edit('server/index.ts', INDEX.slice(INDEX.indexOf("import { getRoom, leave }")), `import { cancelUnload, getRoom, leave } from './rooms';
import { handleMessage } from './messages';
import { MsgType } from './protocol';
import * as encoding from 'lib0/encoding';

const wss = new WebSocketServer({ port: Number(process.env.PORT ?? 1234) });

wss.on('connection', async (ws, req) => {
  const url = new URL(req.url!, 'http://localhost');
  if (!verify(url.searchParams.get('token'))) return ws.close(4401, 'unauthorized');
  const docId = url.searchParams.get('doc')!;
  cancelUnload(docId);
  const room = await getRoom(docId);
  room.sockets.add(ws);
  ws.on('message', (data) => handleMessage(room, ws, data as Buffer));
  ws.on('close', () => leave(docId, ws));
});

// Deploys: tell every client to come back after its own random delay, then close with 1012 (service restart).
process.on('SIGTERM', () => {
  for (const ws of wss.clients) {
    const enc = encoding.createEncoder();
    encoding.writeVarUint(enc, MsgType.ServerDraining);
    encoding.writeVarUint(enc, Math.floor(Math.random() * 10_000));
    ws.send(encoding.toUint8Array(enc), () => ws.close(1012, 'server restarting'));
  }
  wss.close(() => process.exit(0));
});
`),
    ),
    A(
      say(`Both are in:

- ⟦N⟧\`PROTOCOL_VERSION\` is 4 and \`docs/PROTOCOL.md\` documents type 4 with a changelog line⟦/⟧
- ⟦N⟧\`server/protocol.ts\`: \`MsgType.ServerDraining = 4\`⟦/⟧
- ⟦N⟧\`server/index.ts\`: \`cancelUnload\` before a socket joins, and a SIGTERM handler that sends \`ServerDraining\` and closes with 1012⟦/⟧

⟦F⟧Pending saves still depend on the debounce firing before the process exits; flushing every room in the SIGTERM handler would close that gap.⟦/⟧ ⟦F⟧Do you want the web client side of \`ServerDraining\` in this branch as well?⟦/⟧`),
    ),
  ],
};
