import type { EventType } from './types.js';

/**
 * How much an event matters before decay (salience) and how sure we are it is real
 * (confidence). Salience depends on the type; confidence on how the event was captured:
 * anything a person or a tool call stated outright is certain, keyword heuristics are not.
 */
const SALIENCE: Readonly<Record<EventType, number>> = {
  decision_made: 0.9,
  approach_rejected: 0.9,
  preference_noted: 0.8,
  plan_created: 0.8,
  knowledge_acquired: 0.7,
  error_resolved: 0.7,
  plan_step_completed: 0.6,
  task_completed: 0.5,
  file_modified: 0.3,
  command_run: 0.2,
  file_explored: 0.1,
  event_retracted: 1,
  event_amended: 1,
  decision_superseded: 1,
  commit_linked: 0.1,
};

/** Decisions and rejections never decay: forgetting why is exactly what Cortex exists to prevent. */
const IMMORTAL = new Set<EventType>(['decision_made', 'approach_rejected']);

export const HEURISTIC_CONFIDENCE = 0.6;

export function defaultSalience(type: EventType): number {
  return SALIENCE[type];
}

export function isImmortal(type: EventType): boolean {
  return IMMORTAL.has(type);
}

/** Confidence by source, read from the provenance prefix (`layer2:chose-over` → heuristic). */
export function defaultConfidence(provenance: string): number {
  return provenance.startsWith('layer2:') ? HEURISTIC_CONFIDENCE : 1;
}
