import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withCortexMcp, withoutCortexMcp } from '../../src/claude/mcp-config.js';
import { withCortexHooks, withoutCortexHooks } from '../../src/claude/settings.js';
import { editJsonText } from '../../src/install/edit-json-text.js';

const mine = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }] }] }, env: { FOO: '1' }, mcpServers: { other: { command: 'other-mcp' } } };
/** The same settings as people and tools lay them out. */
const layouts: Record<string, string> = {
  'two spaces (JSON.stringify)': `${JSON.stringify(mine, null, 2)}\n`,
  'four spaces, arrays inline': '{\n    "hooks": {\n        "Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]\n    },\n    "env": {"FOO": "1"},\n    "mcpServers": {"other": {"command": "other-mcp"}}\n}\n',
  tabs: `${JSON.stringify(mine, null, '\t')}\n`,
  'one line, compact, no final newline': JSON.stringify(mine),
  'one line, spaced': '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]}, "env": {"FOO": "1"}, "mcpServers": {"other": {"command": "other-mcp"}}}\n',
  'cuddled brackets': '{\n  "hooks": {\n    "Stop": [{\n      "hooks": [{"type": "command", "command": "echo mine"}]\n    }]\n  },\n  "env": {"FOO": "1"},\n  "mcpServers": {\n    "other": {"command": "other-mcp"}\n  }\n}\n',
};

describe('editJsonText: Cortex\'s entries in a file the user owns', () => {
  it.each(Object.entries(layouts))('%s: init edits in only its entries, keeps every line of the user\'s, changes nothing the second time; uninstall gives back the same bytes', (_, text) => {
    const value = JSON.parse(text);
    const installed = editJsonText(text, withCortexMcp(withCortexHooks(value, 'cortex'), 'cortex'));
    expect(JSON.parse(installed)).toEqual(withCortexMcp(withCortexHooks(value, 'cortex'), 'cortex'));
    for (const key of ['"env"', '"other"']) expect(installed).toContain(text.slice(text.indexOf(key), text.indexOf('}', text.indexOf(key)) + 1));
    expect(Object.keys(JSON.parse(installed))).toEqual(Object.keys(value));
    expect(editJsonText(installed, withCortexMcp(withCortexHooks(JSON.parse(installed), 'cortex'), 'cortex'))).toBe(installed);
    expect(editJsonText(installed, withoutCortexMcp(withoutCortexHooks(JSON.parse(installed))))).toBe(text);
  });

  it('indents a new entry like the file: four spaces, a tab', () => {
    expect(editJsonText('{\n    "a": 1\n}\n', { a: 1, b: { c: [1] } })).toBe('{\n    "a": 1,\n    "b": {\n        "c": [\n            1\n        ]\n    }\n}\n');
    expect(editJsonText('{\n\t"a": 1\n}\n', { a: 1, b: { c: 2 } })).toBe('{\n\t"a": 1,\n\t"b": {\n\t\t"c": 2\n\t}\n}\n');
    expect(editJsonText('', { a: 1 })).toBe('{\n  "a": 1\n}\n');
  });

  const json = fc.jsonValue({ maxDepth: 3 });
  const object = fc.dictionary(fc.string({ maxLength: 4 }), json, { maxKeys: 5 });
  const layout = fc.constantFrom<string | number>(0, 2, 4, '\t');

  it('whatever the two values and the layout, the edited text is the new value', () => {
    fc.assert(
      fc.property(object, object, layout, (before, after, indent) => {
        const text = JSON.stringify(before, null, indent);
        expect(JSON.parse(editJsonText(text, after))).toEqual(JSON.parse(JSON.stringify(after)));
      }),
      { numRuns: 300 },
    );
  });

  it('whatever the user\'s settings and their layout, adding Cortex\'s entries and taking them out again gives back the same bytes', () => {
    const group = fc.record({ matcher: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }), hooks: fc.array(fc.record({ type: fc.constant('command'), command: fc.string({ maxLength: 8 }) }), { minLength: 1, maxLength: 2 }) }, { requiredKeys: ['hooks'] });
    const settings = fc.record({ model: fc.string({ maxLength: 5 }), hooks: fc.dictionary(fc.constantFrom('Stop', 'PreToolUse', 'SessionStart'), fc.array(group, { minLength: 1, maxLength: 2 })), other: json }, { requiredKeys: [] });
    fc.assert(
      fc.property(settings, layout, (value, indent) => {
        const text = `${JSON.stringify(value, null, indent)}\n`;
        const parsed = JSON.parse(text);
        const installed = editJsonText(text, withCortexHooks(parsed, 'cortex'));
        const rest = withoutCortexHooks(JSON.parse(installed));
        if (Object.keys(rest).length === 0 || (parsed.hooks && Object.keys(parsed.hooks).length === 0)) return; // uninstall removes the file, or an emptied hooks
        expect(editJsonText(installed, rest)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
