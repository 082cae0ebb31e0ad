/** Builders for Claude Code transcript lines in the 2.x shape (TRANSCRIPTS.md). */
let n = 0;
const envelope = () => ({
  uuid: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  parentUuid: null,
  sessionId: 'test-session',
  timestamp: new Date(Date.UTC(2026, 10, 21, 10, 0, n)).toISOString(),
  cwd: '/repo',
  gitBranch: 'main',
  version: '2.1.39',
  userType: 'external',
  isSidechain: false,
});

export const assistant = (text: string) => ({ ...envelope(), type: 'assistant', message: { id: `msg_${n}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }] } });
export const user = (text: string) => ({ ...envelope(), type: 'user', message: { role: 'user', content: text } });
export const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({ ...envelope(), type: 'assistant', message: { id: `msg_${id}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });
export const toolResult = (id: string, content: string, isError = false) => ({ ...envelope(), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] } });

export const session = (lines: object[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
