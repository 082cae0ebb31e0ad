import { printable } from '../events/parse-event.js';
import type { CortexEvent, EventType } from '../events/types.js';
import type { Colour, Paint } from './paint.js';

/**
 * `cortex log` entries, in the spirit of `git log`: the id in yellow, the type in its family's
 * colour, then who and when, then the content indented.
 */
const TYPE_COLOUR: Partial<Record<EventType, Colour>> = {
  decision_made: 'green',
  approach_rejected: 'red',
  plan_created: 'blue',
  plan_step_completed: 'blue',
  task_completed: 'blue',
  knowledge_acquired: 'cyan',
  error_resolved: 'magenta',
  preference_noted: 'magenta',
};

const shortTime = (ts: string) => `${ts.slice(0, 10)} ${ts.slice(11, 16)}`;

function metaLines(e: CortexEvent): string[] {
  const lines: string[] = [];
  const m = e.meta;
  if (typeof m.reason === 'string') lines.push(`why: ${m.reason}`);
  if (typeof m.alternative === 'string') lines.push(`instead: ${m.alternative}`);
  if (typeof m.path === 'string') lines.push(`file: ${m.path}`);
  if (Array.isArray(m.files) && m.files.length > 0) lines.push(`files: ${m.files.join(', ')}`);
  if (Array.isArray(m.tags) && m.tags.length > 0) lines.push(`tags: ${m.tags.join(', ')}`);
  return lines;
}

export function renderLogEntry(e: CortexEvent, paint: Paint, options: { oneline?: boolean } = {}): string {
  const colour = TYPE_COLOUR[e.type];
  const type = colour ? paint[colour](e.type) : e.type;
  // Memories stored before capture cleaned them may hold an escape a terminal would act on.
  const content = printable(e.content);
  const firstLine = content.split('\n')[0] ?? '';
  if (options.oneline) return `${paint.yellow(e.id.slice(-8))} ${type} ${firstLine}`;
  const header = `${paint.yellow(`event ${e.id}`)} ${type}${e.confidence < 1 ? paint.dim(` (confidence ${e.confidence.toFixed(2)})`) : ''}`;
  const who = `${paint.dim('Author:')} ${e.author}   ${paint.dim('Session:')} ${e.session}${e.branch ? `   ${paint.dim('Branch:')} ${e.branch}` : ''}`;
  const when = `${paint.dim('Date:')}   ${shortTime(e.ts)} UTC   ${paint.dim(e.provenance)}`;
  const body = [...content.split('\n'), ...metaLines(e).map((line) => paint.dim(printable(line)))].map((line) => `    ${line}`);
  return [header, who, when, '', ...body, ''].join('\n');
}
