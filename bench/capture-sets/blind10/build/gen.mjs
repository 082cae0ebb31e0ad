// Generator for the capture-blind10 sessions. Each spec in ./sessions/*.mjs describes one
// session as a script of user turns and assistant messages. Labelled sentences are marked
// inline (see README.md in the parent folder); this file turns a spec into
// NNN-slug.jsonl + NNN-slug.labels.json. Deterministic: ids come from a seeded PRNG.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.resolve(HERE, '..');

// ---------- script helpers (used by the specs) ----------
export const U = (text, extra = {}) => ({ kind: 'user', text, ...extra });
export const A = (...blocks) => ({ kind: 'assistant', blocks });
export const think = (t) => ({ b: 'thinking', t });
export const say = (t) => ({ b: 'text', t });
export const Read = (file, content, opts = {}) => ({ b: 'tool', name: 'Read', file, content, ...opts });
export const Edit = (file, old_string, new_string, opts = {}) => ({ b: 'tool', name: 'Edit', file, old_string, new_string, ...opts });
export const Write = (file, content, opts = {}) => ({ b: 'tool', name: 'Write', file, content, ...opts });
export const MultiEdit = (file, edits, opts = {}) => ({ b: 'tool', name: 'MultiEdit', file, edits, ...opts });
export const Bash = (command, description, out = {}) => ({ b: 'tool', name: 'Bash', command, description, ...out });
export const Grep = (pattern, opts = {}) => ({ b: 'tool', name: 'Grep', pattern, ...opts });
export const Glob = (pattern, opts = {}) => ({ b: 'tool', name: 'Glob', pattern, ...opts });
export const Todo = (todos) => ({ b: 'tool', name: 'TodoWrite', todos });
export const Task = (description, prompt, subagent_type, opts = {}) => ({ b: 'tool', name: 'Task', description, prompt, subagent_type, ...opts });
export const WebFetch = (url, prompt, result) => ({ b: 'tool', name: 'WebFetch', url, prompt, result });

// ---------- deterministic ids ----------
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = B62 + '+/';

// ---------- marker parsing ----------
// ⟦E type|kw1;kw2⟧sentence⟦/⟧  expected   ⟦F⟧…⟦/⟧ forbidden   ⟦N⟧…⟦/⟧ neutral   ⟦S⟧…⟦/S⟧ secret
const SEC = /⟦S⟧([\s\S]*?)⟦\/S⟧/g;
const MK = /⟦(E|F|N)(?: ([a-z_]+)\|([^⟧]*))?⟧([\s\S]*?)⟦\/⟧/g;

export function build(spec) {
  const rnd = mulberry32(spec.seed ?? spec.num * 7919);
  const pick = (alpha, n) => Array.from({ length: n }, () => alpha[Math.floor(rnd() * alpha.length)]).join('');
  const hex = (n) => pick('0123456789abcdef', n);
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(rnd() * 4)]}${hex(3)}-${hex(12)}`;
  const msgId = () => 'msg_01' + pick(B62, 22);
  const reqId = () => 'req_011C' + pick(B62, 20);
  const toolId = () => 'toolu_01' + pick(B62, 22);
  const sig = () => pick(B64, 180 + Math.floor(rnd() * 200)) + '==';

  const [maj, min, pat] = spec.version.split('.').map(Number);
  const v10 = maj === 1;
  const v20 = maj === 2 && min === 0;
  const v21 = maj === 2 && min >= 1;
  const hasSlug = v21 || (v20 && pat >= 60);
  const hasCaller = v21 && pat >= 20;
  const hasGeo = v21 && pat >= 17;

  const L = { expected: [], forbidden: [], neutral: [], secrets: [] };
  const ctxMain = { main: true };
  // strip markers and collect labels. ctx.exp says whether expected items are legal here.
  function strip(s, ctx) {
    if (typeof s !== 'string') return s;
    s = s.replace(SEC, (m, body) => { if (!L.secrets.includes(body)) L.secrets.push(body); return body; });
    return s.replace(MK, (m, kind, type, kws, body) => {
      if (kind === 'E') {
        if (!ctx.exp) throw new Error(`${spec.num}: expected marker in non-main context: ${body}`);
        L.expected.push({ type, keywords: kws.split(';').map((k) => k.trim()), text: body });
      } else if (kind === 'F') L.forbidden.push(body);
      else L.neutral.push(body);
      return body;
    });
  }
  function stripDeep(v, ctx) {
    if (typeof v === 'string') return strip(v, ctx);
    if (Array.isArray(v)) return v.map((x) => stripDeep(x, ctx));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stripDeep(x, ctx)]));
    return v;
  }

  let clock = Date.parse(spec.start);
  const ts = (min = 0.3, max = 4) => { clock += Math.round((min + rnd() * (max - min)) * 1000); return new Date(clock).toISOString(); };

  const lines = [];
  const sessionId = spec.sessionId ?? uuid();
  const abs = (p) => (p.startsWith('/') ? p : `${spec.cwd}/${p}`);
  const inPath = (p) => (spec.abs ? abs(p) : p);
  const rel = (p) => (p.startsWith(spec.cwd + '/') ? p.slice(spec.cwd.length + 1) : p);
  const files = { modified: [], explored: [] };
  const side = { explored: [], commands: 0 };
  let commands = 0;
  const store = {}; // path -> content
  let todos = [];
  let firstTodo = true;
  const todoKw = spec.todoKeywords || {};
  let tracked = {};
  let slugOn = false;
  let cacheRead = 11000 + Math.floor(rnd() * 6000);

  function env(parentUuid, extra = {}) {
    const e = { parentUuid, isSidechain: false, userType: 'external', cwd: spec.cwd, sessionId, version: spec.version, gitBranch: spec.branch };
    if (hasSlug && slugOn) e.slug = spec.aiSlug;
    return Object.assign(e, extra);
  }
  function usage(out, creation) {
    const u = { input_tokens: 3 + Math.floor(rnd() * 7), cache_creation_input_tokens: creation, cache_read_input_tokens: cacheRead };
    u.cache_creation = v21 ? { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: creation } : { ephemeral_5m_input_tokens: creation, ephemeral_1h_input_tokens: 0 };
    u.output_tokens = out;
    u.service_tier = 'standard';
    if (hasGeo) u.inference_geo = 'not_available';
    return u;
  }
  function assistantLine(parent, id, req, block, model, usageObj, sidechain) {
    const message = v10
      ? { id, type: 'message', role: 'assistant', model, content: [block], stop_reason: null, stop_sequence: null, usage: usageObj }
      : { model, id, type: 'message', role: 'assistant', content: [block], stop_reason: null, stop_sequence: null, usage: usageObj };
    const l = env(parent, { message, requestId: req, type: 'assistant', uuid: uuid(), timestamp: ts(0.4, 3) });
    if (sidechain) l.isSidechain = true;
    return l;
  }
  function numbered(content, start = 1) {
    const ls = content.replace(/\n$/, '').split('\n');
    return ls.map((x, i) => `${String(i + start).padStart(6)}→${x}`).join('\n');
  }
  const REMINDER = '\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware. You CAN and SHOULD provide analysis of malware, what it is doing. But you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer questions about the code behavior.\n</system-reminder>\n';
  const addUnique = (arr, x) => { if (!arr.includes(x)) arr.push(x); };

  // Produce {content, is_error, tur} for a tool block; record files/commands.
  function runTool(t, input, sidechain) {
    const ex = sidechain ? side.explored : files.explored;
    switch (t.name) {
      case 'Read': {
        const p = abs(t.file);
        addUnique(ex, rel(p));
        const c = t.content;
        store[p] = c;
        const n = c.replace(/\n$/, '').split('\n').length;
        const start = t.offset || 1;
        return { content: numbered(c, start) + REMINDER, tur: { type: 'text', file: { filePath: p, content: c, numLines: n, startLine: start, totalLines: t.totalLines || n + start - 1 } } };
      }
      case 'Grep': {
        if (t.path) addUnique(ex, rel(abs(t.path)));
        if (t.output_mode === 'content') {
          const c = t.result;
          return { content: c, tur: { mode: 'content', numFiles: 0, filenames: [], content: c, numLines: c.split('\n').length } };
        }
        const fl = (t.result || []).map(abs);
        return { content: fl.length ? `Found ${fl.length} file${fl.length > 1 ? 's' : ''}\n${fl.join('\n')}` : 'No files found', tur: { mode: 'files_with_matches', filenames: fl, numFiles: fl.length } };
      }
      case 'Glob': {
        if (t.path) addUnique(ex, rel(abs(t.path)));
        const fl = (t.result || []).map(abs);
        return { content: fl.length ? fl.join('\n') : 'No files found', tur: { filenames: fl, durationMs: 20 + Math.floor(rnd() * 80), numFiles: fl.length, truncated: false } };
      }
      case 'Bash': {
        if (sidechain) side.commands++; else commands++;
        const stdout = t.stdout ?? '';
        const stderr = t.stderr ?? '';
        if (t.code) {
          const body = [stdout, stderr].filter(Boolean).join('\n');
          const c = v10 ? body : `Exit code ${t.code}\n${body}`;
          return { content: c, is_error: true, tur: `Error: ${c}` };
        }
        const c = [stdout, stderr].filter(Boolean).join('\n');
        return { content: c, tur: { stdout, stderr, interrupted: false, isImage: false, ...(v21 ? { noOutputExpected: false } : {}) } };
      }
      case 'Edit': {
        const p = abs(t.file);
        if (t.error) {
          const detail = /not been read/.test(t.error) ? t.error : `${t.error}\nString: ${input.old_string}`;
          return { content: `<tool_use_error>${detail}</tool_use_error>`, is_error: true, tur: `Error: ${detail}` };
        }
        addUnique(files.modified, rel(p));
        const orig = store[p] ?? input.old_string;
        const idx = orig.indexOf(input.old_string);
        const startLine = idx >= 0 ? orig.slice(0, idx).split('\n').length : 1;
        const updated = idx >= 0 ? orig.slice(0, idx) + input.new_string + orig.slice(idx + input.old_string.length) : input.new_string;
        store[p] = updated;
        const newLines = input.new_string.split('\n');
        const oldLines = input.old_string.split('\n');
        const snippet = newLines.map((x, i) => `${String(startLine + i).padStart(6)}→${x}`).join('\n');
        return {
          content: `The file ${p} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${snippet}`,
          tur: { filePath: p, oldString: input.old_string, newString: input.new_string, originalFile: orig, structuredPatch: [{ oldStart: startLine, oldLines: oldLines.length, newStart: startLine, newLines: newLines.length, lines: [...oldLines.map((x) => '-' + x), ...newLines.map((x) => '+' + x)] }], userModified: false, replaceAll: false },
        };
      }
      case 'MultiEdit': {
        const p = abs(t.file);
        addUnique(files.modified, rel(p));
        let cur = store[p] ?? '';
        const orig = cur;
        for (const e of input.edits) cur = cur.replace(e.old_string, e.new_string);
        store[p] = cur;
        const desc = input.edits.map((e, i) => `${i + 1}. Replaced "${e.old_string.slice(0, 50)}${e.old_string.length > 50 ? '...' : ''}" with "${e.new_string.slice(0, 50)}${e.new_string.length > 50 ? '...' : ''}"`).join('\n');
        return { content: `Applied ${input.edits.length} edits to ${p}:\n${desc}`, tur: { filePath: p, edits: input.edits.map((e) => ({ ...e, replace_all: false })), originalFileContents: orig, structuredPatch: [], userModified: false } };
      }
      case 'Write': {
        const p = abs(t.file);
        addUnique(files.modified, rel(p));
        const existed = p in store;
        store[p] = input.content;
        if (existed) return { content: `The file ${p} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(input.content)}`, tur: { type: 'update', filePath: p, content: input.content, structuredPatch: [] } };
        return { content: `File created successfully at: ${p}`, tur: { type: 'create', filePath: p, content: input.content, structuredPatch: [] } };
      }
      case 'TodoWrite': {
        const old = todos;
        todos = input.todos;
        return { content: 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable', tur: { oldTodos: old, newTodos: todos } };
      }
      case 'WebFetch': {
        return { content: t.result, tur: { bytes: 40000 + Math.floor(rnd() * 90000), code: 200, codeText: 'OK', result: t.result, durationMs: 2000 + Math.floor(rnd() * 5000), url: input.url } };
      }
      default:
        throw new Error('unknown tool ' + t.name);
    }
  }

  function toolInput(t, ctx) {
    switch (t.name) {
      case 'Read': return { file_path: inPath(t.file), ...(t.offset ? { offset: t.offset } : {}), ...(t.limit ? { limit: t.limit } : {}) };
      case 'Grep': { const i = { pattern: t.pattern }; if (t.path) i.path = inPath(t.path); if (t.glob) i.glob = t.glob; if (t.output_mode) i.output_mode = t.output_mode; if (t.n) i['-n'] = true; return i; }
      case 'Glob': { const i = { pattern: t.pattern }; if (t.path) i.path = inPath(t.path); return i; }
      case 'Bash': { const i = { command: stripDeep(t.command, ctx) }; if (t.description) i.description = t.description; if (t.timeout) i.timeout = t.timeout; return i; }
      case 'Edit': return { file_path: inPath(t.file), old_string: t.old_string, new_string: t.new_string };
      case 'MultiEdit': return { file_path: inPath(t.file), edits: t.edits.map(([o, n]) => ({ old_string: o, new_string: n })) };
      case 'Write': return { file_path: inPath(t.file), content: t.content };
      case 'TodoWrite': return { todos: t.todos.map((x) => ({ content: stripDeep(x.content, { exp: false }), status: x.status, activeForm: x.activeForm })) };
      case 'Task': return { description: t.description, prompt: t.prompt, subagent_type: t.subagent_type };
      case 'WebFetch': return { url: t.url, prompt: t.prompt };
    }
  }

  // plan labels from TodoWrite
  const completedSeen = new Set();
  function planLabels(input) {
    if (firstTodo) {
      firstTodo = false;
      const c = input.todos[0].content;
      L.expected.push({ type: 'plan_created', keywords: todoKw[c] || die(`no todo keywords for ${c}`), text: c });
    }
    for (const td of input.todos) {
      if (td.status === 'completed' && !completedSeen.has(td.content)) {
        completedSeen.add(td.content);
        L.expected.push({ type: 'plan_step_completed', keywords: todoKw[td.content] || die(`no todo keywords for ${td.content}`), text: td.content });
      }
    }
  }
  function die(m) { throw new Error(`${spec.num}: ${m}`); }

  let last = null; // uuid of last line in main chain
  let userCount = 0;

  // 2.1 session start hook
  if (v21) {
    const tid = uuid();
    const l = env(null, { type: 'progress', data: { type: 'hook_progress', hookEvent: 'SessionStart', hookName: 'SessionStart:startup', command: spec.startHook || '~/.claude/hooks/session-start.sh' }, parentToolUseID: tid, toolUseID: tid, timestamp: ts(0, 0.1), uuid: uuid() });
    lines.push(l);
    last = l.uuid;
  }
  if (v10 && spec.title) lines.push({ type: 'summary', summary: spec.title, leafUuid: 'LEAF' });

  function snapshot(messageId, update, snapMsg) {
    lines.push({ type: 'file-history-snapshot', messageId, snapshot: { messageId: snapMsg ?? messageId, trackedFileBackups: JSON.parse(JSON.stringify(tracked)), timestamp: new Date(clock).toISOString() }, isSnapshotUpdate: update });
  }
  let lastUserUuid = null;

  // run a sidechain script inline (1.0.x)
  function runSidechain(prompt, script, model) {
    let p = null;
    const root = { parentUuid: null, isSidechain: true, userType: 'external', cwd: spec.cwd, sessionId, version: spec.version, gitBranch: spec.branch, type: 'user', message: { role: 'user', content: prompt }, uuid: uuid(), timestamp: ts(0.05, 0.2) };
    lines.push(root);
    p = root.uuid;
    for (const m of script) {
      const id = msgId(), req = reqId();
      const pending = [];
      m.blocks.forEach((b, i) => {
        let block;
        if (b.b === 'text') block = { type: 'text', text: strip(b.t, { exp: false }) };
        else if (b.b === 'thinking') block = { type: 'thinking', thinking: strip(b.t, { exp: false }), signature: sig() };
        else { const input = stripDeep(toolInput(b, { exp: false }), { exp: false }); block = { type: 'tool_use', id: toolId(), name: b.name, input }; pending.push([b, block]); }
        const l = assistantLine(p, id, req, block, model, usage(i === m.blocks.length - 1 ? 80 + Math.floor(rnd() * 400) : 3, 900 + Math.floor(rnd() * 3000)), true);
        lines.push(l);
        p = l.uuid;
        if (block.type === 'tool_use') block._line = l.uuid;
      });
      for (const [b, block] of pending) {
        const r = runTool(b, block.input, true);
        const res = { parentUuid: block._line, isSidechain: true, userType: 'external', cwd: spec.cwd, sessionId, version: spec.version, gitBranch: spec.branch, type: 'user', message: { role: 'user', content: [{ tool_use_id: block.id, type: 'tool_result', content: stripDeep(r.content, { exp: false }), ...(r.is_error ? { is_error: true } : {}) }] }, uuid: uuid(), timestamp: ts(0.1, 1.5), toolUseResult: stripDeep(r.tur, { exp: false }) };
        delete block._line;
        lines.push(res);
        p = res.uuid;
      }
    }
  }

  for (const step of spec.script) {
    if (step.kind === 'user') {
      userCount++;
      const uid = uuid();
      clock += 20000 + Math.floor(rnd() * 60000);
      if (!v10) snapshot(uid, false);
      const text = strip(step.text, { exp: true });
      const l = env(last, { type: 'user', message: { role: 'user', content: text }, uuid: uid, timestamp: ts(0, 0.1) });
      if (v20) { l.thinkingMetadata = { level: 'high', disabled: false, triggers: [] }; l.todos = []; }
      if (v21) { l.thinkingMetadata = { maxThinkingTokens: 31999 }; l.todos = []; l.permissionMode = spec.permissionMode || 'default'; }
      lines.push(l);
      last = uid;
      lastUserUuid = uid;
      slugOn = true;
      continue;
    }
    if (step.kind === 'system') {
      const l = env(last, { type: 'system', subtype: step.subtype, ...step.fields, timestamp: ts(0.1, 0.3), uuid: uuid(), isMeta: false });
      lines.push(l);
      last = l.uuid;
      continue;
    }
    // assistant message
    const id = msgId(), req = reqId();
    const model = step.model || spec.model;
    const creation = 800 + Math.floor(rnd() * 5000);
    const pending = [];
    step.blocks.forEach((b, i) => {
      let block;
      if (b.b === 'text') block = { type: 'text', text: strip(b.t, { exp: true }) };
      else if (b.b === 'thinking') block = { type: 'thinking', thinking: strip(b.t, { exp: false }), signature: sig() };
      else {
        const input = stripDeep(toolInput(b, { exp: false }), { exp: false });
        if (b.name === 'TodoWrite') {
          // todo content may carry E markers? No: labels come from todoKeywords.
          planLabels(input);
        }
        block = { type: 'tool_use', id: toolId(), name: b.name, input };
        if (hasCaller) block.caller = { type: 'direct' };
        pending.push([b, block]);
      }
      const out = i === step.blocks.length - 1 ? 60 + Math.floor(rnd() * 900) : 2 + Math.floor(rnd() * 10);
      const l = assistantLine(last, id, req, block, model, usage(out, creation), false);
      lines.push(l);
      last = l.uuid;
      if (block.type === 'tool_use') block._line = l.uuid;
      // 2.1: PreToolUse hook progress on Bash calls marked hook:true
      if (block.type === 'tool_use' && v21 && b.hook) {
        const pl = env(last, { type: 'progress', data: { type: 'hook_progress', hookEvent: 'PreToolUse', hookName: `PreToolUse:${b.name}`, command: b.hook }, toolUseID: block.id, parentToolUseID: block.id, uuid: uuid(), timestamp: ts(0.01, 0.05) });
        lines.push(pl);
        last = pl.uuid;
      }
    });
    cacheRead += creation;
    for (const [b, block] of pending) {
      const lineUuid = block._line;
      delete block._line;
      let r;
      if (b.name === 'Task') {
        if (v10) {
          runSidechain(block.input.prompt, b.side || [], b.sideModel || model);
          const c = [{ type: 'text', text: strip(b.report, { exp: false }) }];
          r = { content: c, tur: { content: c, totalDurationMs: 30000 + Math.floor(rnd() * 60000), totalTokens: 20000 + Math.floor(rnd() * 20000), totalToolUseCount: (b.side || []).reduce((n, m) => n + m.blocks.filter((x) => x.b === 'tool').length, 0), usage: { input_tokens: 5, cache_creation_input_tokens: 1400, cache_read_input_tokens: 24000, output_tokens: 900, service_tier: 'standard' } } };
        } else {
          const agentId = hex(7);
          for (const pm of b.progress || []) {
            const inner = pm.role === 'user'
              ? { type: 'user', timestamp: new Date(clock).toISOString(), message: { role: 'user', content: [{ tool_use_id: pm.toolUseId, type: 'tool_result', content: strip(pm.t, { exp: false }) }] }, uuid: uuid() }
              : { type: 'assistant', timestamp: new Date(clock).toISOString(), message: { model: 'claude-haiku-4-5-20251001', id: msgId(), type: 'message', role: 'assistant', content: [pm.tool ? { type: 'tool_use', id: pm.id || toolId(), name: pm.tool, input: pm.input } : { type: 'text', text: strip(pm.t, { exp: false }) }], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, cache_creation_input_tokens: 1100, cache_read_input_tokens: 14000, output_tokens: 40, service_tier: 'standard', ...(hasGeo ? { inference_geo: 'not_available' } : {}) }, context_management: null }, requestId: reqId(), uuid: uuid() };
            const pl = env(lineUuid, { type: 'progress', data: { message: inner, normalizedMessages: [], type: 'agent_progress', prompt: block.input.prompt, agentId }, toolUseID: 'agent_' + msgId(), parentToolUseID: block.id, uuid: uuid(), timestamp: ts(0.5, 3) });
            lines.push(pl);
          }
          const rep = strip(b.report, { exp: false });
          const usageBlk = { input_tokens: 4, cache_creation_input_tokens: 1375, cache_read_input_tokens: 26075, output_tokens: 1402, service_tier: 'standard' };
          const dur = 30000 + Math.floor(rnd() * 60000), tok = 20000 + Math.floor(rnd() * 20000);
          r = {
            content: [{ type: 'text', text: rep }, { type: 'text', text: `agentId: ${agentId} (for resuming to continue this agent's work if needed)\n<usage>total_tokens: ${tok}\ntool_uses: ${(b.progress || []).filter((x) => x.tool).length}\nduration_ms: ${dur}</usage>` }],
            tur: { status: 'completed', prompt: block.input.prompt, agentId, content: [{ type: 'text', text: rep }], totalDurationMs: dur, totalTokens: tok, totalToolUseCount: (b.progress || []).filter((x) => x.tool).length, usage: usageBlk },
          };
        }
      } else {
        if (v21 && b.name === 'Bash' && b.progress) {
          const pl = env(lineUuid, { type: 'progress', data: { type: 'bash_progress', output: b.progress, fullOutput: b.progress, elapsedTimeSeconds: 3 + Math.floor(rnd() * 30), totalLines: b.progress.split('\n').length, timeoutMs: b.timeout || 120000 }, toolUseID: 'bash-progress-0', parentToolUseID: block.id, uuid: uuid(), timestamp: ts(2, 8) });
          lines.push(pl);
        }
        r = runTool(b, block.input, false);
      }
      const content = typeof r.content === 'string' ? stripDeep(r.content, { exp: false }) : stripDeep(r.content, { exp: false });
      const res = env(lineUuid, { type: 'user', message: { role: 'user', content: [{ tool_use_id: block.id, type: 'tool_result', content, ...(r.is_error ? { is_error: true } : v21 && b.name === 'Task' ? { is_error: false } : {}) }] }, uuid: uuid(), timestamp: ts(0.2, b.name === 'Bash' ? 9 : 1.2), toolUseResult: stripDeep(r.tur, { exp: false }) });
      if (v21) res.sourceToolAssistantUUID = lineUuid;
      lines.push(res);
      last = res.uuid;
      if (!v10 && !r.is_error && ['Edit', 'Write', 'MultiEdit'].includes(b.name)) {
        const p = rel(abs(b.file));
        const prev = tracked[p];
        tracked[p] = { backupFileName: b.name === 'Write' && !prev && !b.existed ? null : `${hex(16)}@v${prev ? prev.version + 1 : 1}`, version: prev ? prev.version + 1 : 1, backupTime: new Date(clock).toISOString() };
        snapshot(lineUuid, true, lastUserUuid);
      }
    }
  }
  if (v10 && spec.title) lines.find((l) => l.type === 'summary').leafUuid = last;

  const name = `${spec.num}-${spec.slug}`;
  const labels = {
    session: name,
    version: spec.version,
    expected: L.expected,
    forbidden: L.forbidden,
    neutral: L.neutral,
    secrets: L.secrets,
    files: { modified: files.modified, explored: files.explored },
    commands,
  };
  if (v10 && (side.explored.length || side.commands)) labels.sidechain = side;
  if (spec.notes) labels.notes = spec.notes;
  fs.writeFileSync(path.join(OUT, name + '.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  fs.writeFileSync(path.join(OUT, name + '.labels.json'), JSON.stringify(labels, null, 2) + '\n');
  return { name, lines: lines.length, labels, userCount };
}


// Remove label markers (for text that is repeated verbatim elsewhere, e.g. a subagent report).
export const plain = (s) => s.replace(/⟦S⟧([\s\S]*?)⟦\/S⟧/g, '$1').replace(/⟦(E|F|N)(?: [a-z_]+\|[^⟧]*)?⟧([\s\S]*?)⟦\/⟧/g, '$2');
