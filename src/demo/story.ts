/**
 * A realistic multi-session story for `npm run demo`: two people build a URL shortener with
 * Claude Code over three sessions, on main and on a feature branch. Each turn is what Claude
 * Code writes to the transcript (prose, todo lists, edits), replayed through the real hooks.
 */
export type Step =
  | { user: string }
  | { say: string }
  | { todos: Array<[string, 'pending' | 'in_progress' | 'completed']> }
  | { edit: string; content: string };

export interface StorySession {
  id: string;
  author: 'ana@example.com' | 'ben@example.com';
  branch: string;
  /** Turns: the Stop hook runs after each. */
  turns: Step[][];
  commit: string;
}

const PLAN = ['Schema and migrations', 'POST /links', 'Redirect endpoint', 'Rate limiting'];
const todos = (done: number): Array<[string, 'pending' | 'in_progress' | 'completed']> => PLAN.map((s, i) => [s, i < done ? 'completed' : i === done ? 'in_progress' : 'pending']);

export const STORY: StorySession[] = [
  {
    id: 'a1f0c2d4-monday',
    author: 'ana@example.com',
    branch: 'main',
    commit: 'Schema for links and clicks',
    turns: [
      [
        { user: 'Let us build the link API for the shortener. [MEMORY: preference] Keep each migration in its own commit.' },
        { todos: todos(0) },
        { say: "I'll go with Postgres rather than MongoDB, since we need unique constraints on slugs and transactional click counters." },
        { say: 'Ruled out Redis as the primary store: no durability guarantees we trust for links people print on posters.' },
        { edit: 'db/schema.sql', content: 'create table links (slug text primary key, url text not null);\n' },
      ],
      [
        { todos: todos(1) },
        { say: 'Turns out node-postgres returns BIGINT columns as strings, so click counts have to be parsed explicitly.' },
      ],
    ],
  },
  {
    id: 'b7e9a013-wednesday',
    author: 'ana@example.com',
    branch: 'main',
    commit: 'POST /links with 409 on duplicate slugs',
    turns: [
      [
        { edit: 'src/links/create.ts', content: 'export async function createLink() {}\n' },
        { say: 'The duplicate-slug 500 was caused by a race between the existence check and the insert; fixed by relying on the unique index and mapping error 23505 to a 409.' },
        { todos: todos(2) },
      ],
    ],
  },
  {
    id: 'c3d5e7f9-thursday',
    author: 'ben@example.com',
    branch: 'feature/slugs',
    commit: 'Server-side base62 slugs',
    turns: [
      [
        { say: '[MEMORY: decision] Slugs are 7 characters of base62 generated server-side, because 3.5e12 combinations leave collisions to a retry on 409.' },
        { say: '[MEMORY: rejected] Hash-based slugs (the first 7 characters of a SHA-256 of the URL), because the same URL shortened twice must get two links for per-campaign stats.' },
        { edit: 'src/links/slug.ts', content: 'export const slug = () => "";\n' },
      ],
    ],
  },
];
