import { findNodeAtLocation, parseTree, type JSONPath, type Node } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';

/**
 * A JSON file the user owns (`.claude/settings.json`, `.mcp.json`) changed from its value to
 * `next` by editing only what differs: members and elements added, removed or replaced in
 * place, in the file's own indentation and spacing, the rest of its bytes untouched. So init
 * leaves a diff of Cortex's entries alone, and uninstall, taking the same entries out, gives
 * back the very bytes the user had. Pure: text in, text out. An empty text (no file) is written
 * afresh, two-space indented.
 */
export function editJsonText(text: string, next: unknown): string {
  const tree = parseTree(text);
  const before = parseJson(text);
  if (!tree || before === undefined) return `${JSON.stringify(next, null, 2)}\n`;
  return editValue(text, [], before, next, detectStyle(text, tree));
}

/** Parsed as the caller parsed it: jsonc-parser's values have no prototype, so they never deep-equal the caller's. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

interface Style {
  /** One level of indentation: the file's first indented line's. */
  indent: string;
  /** `"key": value, …` rather than `"key":value,…` on one line. */
  spaced: boolean;
}

function detectStyle(text: string, tree: Node): Style {
  const property = firstProperty(tree);
  const [key, value] = property?.children ?? [];
  return {
    indent: /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ',
    spaced: key && value ? /:\s/.test(text.slice(end(key), value.offset)) : true,
  };
}

function firstProperty(node: Node): Node | undefined {
  if (node.type === 'property') return node;
  for (const child of node.children ?? []) {
    const found = firstProperty(child);
    if (found) return found;
  }
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function editValue(text: string, path: JSONPath, before: unknown, after: unknown, style: Style): string {
  if (isDeepStrictEqual(before, after)) return text;
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) text = removeChild(text, [...path, key]);
    for (const key of Object.keys(after)) if (Object.hasOwn(before, key)) text = editValue(text, [...path, key], before[key], after[key], style);
    for (const key of Object.keys(after)) if (!Object.hasOwn(before, key)) text = appendChild(text, path, { key, value: after[key] }, style);
    return text;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    // Kept at both ends; what lies between is edited pairwise, or replaced.
    let head = 0;
    while (head < before.length && head < after.length && isDeepStrictEqual(before[head], after[head])) head++;
    let tail = 0;
    while (tail < before.length - head && tail < after.length - head && isDeepStrictEqual(before.at(-1 - tail), after.at(-1 - tail))) tail++;
    const gone = before.length - head - tail;
    const come = after.length - head - tail;
    if (gone === come) {
      for (let i = head; i < head + gone; i++) text = editValue(text, [...path, i], before[i], after[i], style);
      return text;
    }
    for (let i = head + gone - 1; i >= head; i--) text = removeChild(text, [...path, i]);
    for (let i = head; i < head + come; i++) text = insertChild(text, path, i, { value: after[i] }, style);
    return text;
  }
  const node = findNodeAtLocation(parseTree(text) as Node, path) as Node;
  const container = node.parent?.type === 'property' ? node.parent.parent : node.parent;
  return splice(text, node.offset, node.length, render(after, lineIndent(text, node.offset), style, container !== undefined && !isMultiLine(text, container)));
}

interface Child {
  key?: string;
  value: unknown;
}

/** Takes out a member or an element with its comma, so that adding it back gives the same bytes. */
function removeChild(text: string, path: JSONPath): string {
  const valueNode = findNodeAtLocation(parseTree(text) as Node, path) as Node;
  const child = valueNode.parent?.type === 'property' ? valueNode.parent : valueNode;
  const siblings = (child.parent as Node).children as Node[];
  const at = siblings.indexOf(child);
  const container = child.parent as Node;
  if (siblings.length === 1) return splice(text, container.offset + 1, container.length - 2, '');
  if (at === 0) return splice(text, child.offset, (siblings[1] as Node).offset - child.offset, '');
  const previous = siblings[at - 1] as Node;
  return splice(text, end(previous), end(child) - end(previous), '');
}

function appendChild(text: string, path: JSONPath, child: Child, style: Style): string {
  const container = findNodeAtLocation(parseTree(text) as Node, path) as Node;
  return insertChild(text, path, container.children?.length ?? 0, child, style);
}

/** Adds a member or an element at `index`, laid out like its siblings. */
function insertChild(text: string, path: JSONPath, index: number, child: Child, style: Style): string {
  const container = findNodeAtLocation(parseTree(text) as Node, path) as Node;
  const siblings = container.children ?? [];
  if (siblings.length === 0) {
    const outer = lineIndent(text, container.offset);
    const inner = `${outer}${style.indent}`;
    return splice(text, container.offset + 1, container.length - 2, `\n${inner}${renderChild(child, inner, style, false)}\n${outer}`);
  }
  const inline = !isMultiLine(text, container);
  // Laid out as the last sibling is: what follows the comma before it (or the bracket before an
  // only one), a new line and its indentation, a space, or nothing.
  const last = siblings.at(-1) as Node;
  const lead = text.slice(siblings.length > 1 ? text.indexOf(',', end(siblings.at(-2) as Node)) + 1 : container.offset + 1, last.offset);
  const gap = lead || (style.spaced ? ' ' : '');
  const indent = gap.includes('\n') ? gap.slice(gap.lastIndexOf('\n') + 1) : lineIndent(text, container.offset);
  const rendered = renderChild(child, indent, style, inline);
  if (index === 0) return splice(text, (siblings[0] as Node).offset, 0, `${rendered},${gap}`);
  return splice(text, end(siblings[index - 1] as Node), 0, `,${gap}${rendered}`);
}

function renderChild(child: Child, indent: string, style: Style, inline: boolean): string {
  const value = render(child.value, indent, style, inline);
  return child.key === undefined ? value : `${JSON.stringify(child.key)}:${style.spaced ? ' ' : ''}${value}`;
}

function render(value: unknown, indent: string, style: Style, inline: boolean): string {
  if (!inline) return JSON.stringify(value, null, style.indent).replace(/\n/g, `\n${indent}`); // strings hold no raw newline
  const sep = style.spaced ? ' ' : '';
  if (Array.isArray(value)) return `[${value.map((v) => render(v, indent, style, true)).join(`,${sep}`)}]`;
  if (isObject(value)) return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${sep}${render(v, indent, style, true)}`).join(`,${sep}`)}}`;
  return JSON.stringify(value);
}

const end = (node: Node) => node.offset + node.length;
const splice = (text: string, at: number, length: number, insert: string) => `${text.slice(0, at)}${insert}${text.slice(at + length)}`;
const isMultiLine = (text: string, node: Node) => text.slice(node.offset, end(node)).includes('\n');

function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}
