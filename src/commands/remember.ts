import { planSteps } from '../capture/layer1.js';
import { redactMemory } from '../capture/redact.js';
import { CortexError } from '../errors.js';
import { truncate } from '../projections/markdown.js';
import { append, buildEvents, captureContext, readAll, type Journal } from '../journal/journal.js';
import { resolveEventType, type CortexEvent, type Meta } from '../events/types.js';
import { foldMemory, normalizeText } from '../projections/fold.js';
import { eventsInView } from '../workspace/branch-view.js';
import { readSettings } from '../workspace/settings.js';
import { resolveEventId } from './resolve-id.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface RememberArgs {
  text: string[];
  /** Default: learned, or decision when it supersedes one. */
  type?: string;
  why?: string;
  instead?: string;
  file?: string[];
  tag?: string[];
  session?: string;
  supersedes?: string;
  step?: string[];
  json?: boolean;
}

/** What `cortex decisions` lists, and so what can replace or be replaced. */
const STANDING_TYPES: ReadonlySet<string> = new Set(['decision_made', 'approach_rejected', 'preference_noted']);

/** Events that change another memory, recorded by forget and --supersedes with the memory they change. */
const CHANGES: ReadonlySet<string> = new Set(['event_retracted', 'event_amended', 'decision_superseded', 'commit_linked']);

/**
 * Store one memory the user states outright (confidence 1.0). Like captured memories, it is
 * redacted before it exists: the text often comes from the assistant (the MCP tool runs this) or
 * from pasted output, and the journal is pushed with the repository.
 */
export async function runRemember(args: RememberArgs, io: CommandIO): Promise<number> {
  const text = args.text.join(' ').trim();
  if (!text) throw new CortexError('USAGE', 'nothing to remember: give the text, e.g. cortex remember "Use Postgres" --type decision');
  const typeName = args.type ?? (args.supersedes !== undefined ? 'decision' : 'learned');
  const type = resolveEventType(typeName);
  if (!type) throw new CortexError('USAGE', `unknown type "${typeName}" (try decision, rejected, learned, plan, step, preference, error, done)`);
  if (CHANGES.has(type)) throw new CortexError('USAGE', `${type} changes another memory and is not one to remember: forget one with cortex forget <id>, replace a decision with cortex remember "…" --supersedes <id>`);
  const given: Meta = {};
  if (args.why) given.reason = args.why;
  if (args.instead) given.alternative = args.instead;
  if (args.file && args.file.length > 0) given.files = args.file;
  if (args.tag && args.tag.length > 0) given.tags = args.tag;
  if (type === 'plan_created') given.steps = planSteps(text, args.step ?? []);
  else if (args.step && args.step.length > 0) throw new CortexError('USAGE', '--step is for a plan: add --type plan');
  // An empty value (an unset shell variable) would otherwise store the memory and replace nothing.
  if (args.supersedes !== undefined && args.supersedes.trim() === '') throw new CortexError('USAGE', '--supersedes was given no id (an empty variable?): give the id of the decision this one replaces (cortex decisions lists them), or leave --supersedes out');
  if (args.supersedes && !STANDING_TYPES.has(type)) throw new CortexError('USAGE', `--supersedes replaces a decision: give --type decision (or rejected, preference), not ${typeName}`);
  const { content, meta } = redactMemory({ content: text, meta: given });
  // A secret and nothing else says nothing once it is redacted: storing "[REDACTED:…]" helps no one.
  if (content.replace(/\[REDACTED:[\w-]+\]/g, '').replace(/[\s\p{P}\p{S}]/gu, '') === '') throw new CortexError('INVALID_INPUT', 'that memory is only a secret, which Cortex never stores: nothing stored (say what it is for, e.g. "The staging API key is in 1Password")');

  const journal = await openJournalAt(io, { forWriting: true });
  // A step belongs to the plan in view here: once branches merge, "the plan most recently worked
  // on" may be another branch's, which never had this step.
  if (type === 'plan_step_completed') meta.plan_id = await planInView(journal, content);
  const ctx = await captureContext(journal, args.session ?? 'cli', 'cli:remember');
  const [event] = buildEvents([{ type, content, meta }], ctx);
  const events = [event!];
  if (args.supersedes) {
    // The replaced decision stays in the journal, retired by an event naming both.
    const { events: all } = await readAll(journal);
    const old = supersedable(all, await eventsInView(journal.repo, all), args.supersedes);
    events.push(...buildEvents([{ type: 'decision_superseded', content: `Superseded: ${old.content}`, meta: { target: old.id, by: event!.id } }], ctx));
  }
  await append(journal, events);
  if (args.json) printJson(io, event);
  else io.stdout.write(`[${event!.type} ${event!.id}] ${content}\n`);
  return 0;
}

/**
 * The decision `--supersedes` names, refused where superseding it would mislead: a memory that is
 * not a decision, one already forgotten, or one already replaced (superseding it again would leave
 * two decisions in force, the first replacement and this one).
 */
function supersedable(events: readonly CortexEvent[], inView: readonly CortexEvent[], id: string): CortexEvent {
  const old = resolveEventId(events, id);
  if (!STANDING_TYPES.has(old.type)) throw new CortexError('INVALID_INPUT', `${old.id} is a ${old.type}, not a decision: only decisions, rejected approaches and preferences are superseded (cortex forget retires other memories)`);
  // What HEAD shows decides: a decision retired on a branch HEAD has not merged is in force here.
  const retracted = new Set(inView.filter((e) => e.type === 'event_retracted').map((e) => e.meta.target));
  if (retracted.has(old.id)) throw new CortexError('INVALID_INPUT', `${old.id} was forgotten: there is no decision in force to supersede`);
  const by = inView.find((e) => e.type === 'decision_superseded' && e.meta.target === old.id && !retracted.has(e.meta.by) && !retracted.has(e.id));
  if (by) throw new CortexError('INVALID_INPUT', `${old.id} is already superseded by ${String(by.meta.by)}: supersede that one instead`);
  return old;
}

/**
 * The plan a step ticks on HEAD: the open plan that has a step of that text (the newest, when
 * several do). Two plans are open at once after a merge. A text no open plan has is refused, with
 * the steps there are: stored, a typo would become a new step, done, and the one meant stay open.
 */
async function planInView(journal: Journal, step: string): Promise<string> {
  const [{ events }, { settings }] = await Promise.all([readAll(journal), readSettings(journal)]);
  const state = foldMemory(await eventsInView(journal.repo, events), settings, new Date());
  const named = state.plans.filter((p) => !p.complete && p.steps.some((s) => normalizeText(s.text) === normalizeText(step)));
  const plan = named.sort((a, b) => (a.updated < b.updated ? 1 : -1))[0];
  if (plan) return plan.id;
  const open = state.activePlan?.steps.filter((s) => !s.done).map((s) => `"${truncate(s.text, 60)}"`) ?? [];
  if (open.length === 0) throw new CortexError('INVALID_INPUT', `no plan in progress here has a step "${truncate(step, 60)}": nothing stored (record finished work with --type done, or a plan with --type plan --step …)`);
  throw new CortexError('INVALID_INPUT', `the plan in progress has no step "${truncate(step, 60)}": nothing stored (its open steps: ${open.slice(0, 5).join(', ')}${open.length > 5 ? ', …' : ''})`);
}
