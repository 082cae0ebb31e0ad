import type { Heading, List, ListItem, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';
import { remark } from 'remark';

/**
 * mdast builders and the one remark configuration every projection renders with. Building
 * trees instead of concatenating strings is what keeps a memory's own text from becoming
 * markup: a decision containing `*`, `#` or `<script>` is escaped, never interpreted.
 */
const processor = remark().data('settings', { bullet: '-', emphasis: '_', strong: '*', listItemIndent: 'one', rule: '-' });

export const text = (value: string): PhrasingContent => ({ type: 'text', value: oneLine(value) });
export const strong = (value: string): PhrasingContent => ({ type: 'strong', children: [text(value)] });
export const emphasis = (value: string): PhrasingContent => ({ type: 'emphasis', children: [text(value)] });
export const code = (value: string): PhrasingContent => ({ type: 'inlineCode', value: oneLine(value) });
export const paragraph = (...children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children });
export const heading = (depth: 1 | 2 | 3, ...children: PhrasingContent[]): Heading => ({ type: 'heading', depth, children });
export const html = (value: string): RootContent => ({ type: 'html', value });
export const listItem = (...children: PhrasingContent[]): ListItem => ({ type: 'listItem', spread: false, children: [paragraph(...children)] });
export const list = (items: ListItem[], ordered = false, start?: number): List => ({ type: 'list', ordered, start: ordered ? start ?? 1 : undefined, spread: false, children: items });

const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ');

export function renderMarkdown(nodes: readonly RootContent[]): string {
  const root: Root = { type: 'root', children: [...nodes] };
  return processor.stringify(root);
}

export function parseMarkdown(markdown: string): Root {
  return processor.parse(markdown);
}

/**
 * A template's blocks with `{{name}}` paragraphs replaced by the named sections (removed when
 * a section is empty or absent). Other blocks are kept as written.
 */
export function fillTemplate(template: Root, sections: Readonly<Record<string, readonly RootContent[] | undefined>>): RootContent[] {
  const out: RootContent[] = [];
  for (const node of template.children) {
    const name = placeholderName(node);
    if (name === null) out.push(node);
    else out.push(...(sections[name] ?? []));
  }
  return out;
}

export function placeholderName(node: RootContent): string | null {
  if (node.type !== 'paragraph' || node.children.length !== 1) return null;
  const only = node.children[0];
  const match = only?.type === 'text' ? /^\{\{\s*([\w-]+)\s*\}\}$/.exec(only.value.trim()) : null;
  return match ? (match[1] as string) : null;
}

/** Short forms used in provenance: the day, and a session id. */
export const day = (ts: string): string => ts.slice(0, 10);
/** A Claude Code session id: a UUID, with or without its dashes. */
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/**
 * A UUID by its first 8 characters, as git shortens a hash (random, so they stay distinct); any
 * other id whole: ids given to import or `remember --session` ("sess-0001", "sess-0002") often
 * differ only at the end, and cut to 8 they all read "sess-000".
 */
export const shortSession = (session: string): string => (UUID.test(session) ? session.slice(0, 8) : session);
/** An event id as `cortex log --oneline` prints it: its last 8 characters, the random part. */
export const shortId = (id: string): string => id.slice(-8);
/** A reason as a clause: "because it is fast", also when it was given as "because it is fast". */
export const becauseOf = (reason: string): string => (/^because\b/i.test(reason.trim()) ? reason.trim() : `because ${reason}`);

/** At most `max` UTF-16 units, cut before a character, never inside one (an emoji's surrogate pair). */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  if (end > 0 && /[\uD800-\uDBFF]/.test(s[end - 1] as string)) end -= 1; // a high surrogate without its pair
  return `${s.slice(0, end).trimEnd()}…`;
}
