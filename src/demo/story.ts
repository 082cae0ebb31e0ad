/**
 * A small, realistic multi-session story: three sessions on a URL-shortener service, two
 * people, decisions made and rejected, a plan that progresses, a bug fixed.
 */
export interface StoryEvent {
  type: string;
  content: string;
  ts: string;
  session: string;
  author: string;
  meta?: Record<string, unknown>;
}

const ana = 'ana@example.com';
const ben = 'ben@example.com';

export const STORY: StoryEvent[] = [
  { type: 'plan', content: 'Ship the link API', ts: '2026-11-16T09:05:00Z', session: 'monday-ana', author: ana, meta: { plan_id: 'link-api', steps: ['Schema and migrations', 'POST /links', 'Redirect endpoint', 'Rate limiting'] } },
  { type: 'decision', content: 'Store links in Postgres rather than MongoDB', ts: '2026-11-16T09:20:00Z', session: 'monday-ana', author: ana, meta: { reason: 'we need unique constraints on slugs and transactional click counters', files: ['db/schema.sql'] } },
  { type: 'rejected', content: 'Redis as the primary store', ts: '2026-11-16T09:24:00Z', session: 'monday-ana', author: ana, meta: { reason: 'no durability guarantees we trust for links people print on posters', alternative: 'Postgres' } },
  { type: 'step', content: 'Schema and migrations', ts: '2026-11-16T11:40:00Z', session: 'monday-ana', author: ana, meta: { plan_id: 'link-api', step: 1 } },
  { type: 'learned', content: 'node-postgres returns BIGINT columns as strings; parse click counts explicitly', ts: '2026-11-16T12:10:00Z', session: 'monday-ana', author: ana },
  { type: 'step', content: 'POST /links', ts: '2026-11-18T10:15:00Z', session: 'wednesday-ana', author: ana, meta: { plan_id: 'link-api', step: 2 } },
  { type: 'error', content: 'Duplicate-slug 500s were a race between the existence check and the insert; fixed by relying on the unique index and mapping 23505 to 409', ts: '2026-11-18T11:30:00Z', session: 'wednesday-ana', author: ana, meta: { files: ['src/links/create.ts'] } },
  { type: 'preference', content: 'Ana prefers small commits with the migration in its own commit', ts: '2026-11-18T11:45:00Z', session: 'wednesday-ana', author: ana },
  { type: 'decision', content: 'Slugs are 7 characters of base62 generated server-side', ts: '2026-11-19T14:00:00Z', session: 'thursday-ben', author: ben, meta: { reason: '3.5e12 combinations; collisions handled by retry on 409' } },
  { type: 'rejected', content: 'Hash-based slugs (first 7 chars of SHA-256 of the URL)', ts: '2026-11-19T14:05:00Z', session: 'thursday-ben', author: ben, meta: { reason: 'the same URL shortened twice must get two links for per-campaign stats' } },
];
