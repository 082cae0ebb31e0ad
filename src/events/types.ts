/**
 * The event model: every memory Cortex keeps is one immutable, typed event. Changing or
 * forgetting a memory is a new event (retracted, amended, superseded), never an edit.
 */
export const SCHEMA_VERSION = 1;

export const EVENT_TYPES = [
  'decision_made',
  'approach_rejected',
  'plan_created',
  'plan_step_completed',
  'knowledge_acquired',
  'error_resolved',
  'preference_noted',
  'task_completed',
  'file_modified',
  'file_explored',
  'command_run',
  'event_retracted',
  'event_amended',
  'decision_superseded',
  'commit_linked',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export type Meta = Record<string, unknown>;

export interface CortexEvent {
  id: string;
  v: number;
  type: EventType;
  content: string;
  ts: string;
  session: string;
  author: string;
  branch: string | null;
  commit: string | null;
  salience: number;
  confidence: number;
  immortal: boolean;
  provenance: string;
  meta: Meta;
}

/** Short names people type (`cortex remember --type rejected`) and tags use (`[MEMORY: learned]`). */
export const TYPE_ALIASES: Readonly<Record<string, EventType>> = {
  decision: 'decision_made',
  decided: 'decision_made',
  rejected: 'approach_rejected',
  rejection: 'approach_rejected',
  reject: 'approach_rejected',
  plan: 'plan_created',
  step: 'plan_step_completed',
  progress: 'plan_step_completed',
  learned: 'knowledge_acquired',
  learning: 'knowledge_acquired',
  knowledge: 'knowledge_acquired',
  fact: 'knowledge_acquired',
  error: 'error_resolved',
  fixed: 'error_resolved',
  fix: 'error_resolved',
  preference: 'preference_noted',
  prefer: 'preference_noted',
  done: 'task_completed',
  task: 'task_completed',
  modified: 'file_modified',
  explored: 'file_explored',
  command: 'command_run',
  retracted: 'event_retracted',
  amended: 'event_amended',
  superseded: 'decision_superseded',
};

const KNOWN = new Set<string>(EVENT_TYPES);

/** Canonical type for a type name or alias (case-insensitive), or undefined. */
export function resolveEventType(name: string): EventType | undefined {
  const key = name.trim().toLowerCase().replace(/-/g, '_');
  if (KNOWN.has(key)) return key as EventType;
  return TYPE_ALIASES[key];
}

/** Memory an assistant needs (as opposed to the activity trail of files and commands). */
export const MEMORY_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  'decision_made',
  'approach_rejected',
  'plan_created',
  'plan_step_completed',
  'knowledge_acquired',
  'error_resolved',
  'preference_noted',
  'task_completed',
]);
