// The build: type check, then two esbuild bundles into dist/, and the search lexicon.
// - the CLI (and the demo), split into lazily loaded chunks so each command loads only its code;
// - the hook entry, bundled apart: hooks run on every prompt and stop and load the fewest files.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'], { stdio: 'inherit' });

const shared = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outdir: 'dist',
  entryNames: '[name]',
  logLevel: 'warning',
  // CommonJS dependencies (gray-matter) call require() for node built-ins: give ESM chunks one.
  // The embedding library is an optional peer dependency (and native): loaded from node_modules when present.
  external: ['@huggingface/transformers'],
  // string-width builds Unicode tables when it loads, for help text that is ASCII (see the file).
  // jsonc-parser's main entry is UMD, whose require() calls a bundle cannot follow: its ES build.
  alias: { 'string-width': './src/format/string-width.ts', 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  banner: { js: "import { createRequire as __cortexRequire } from 'node:module'; const require = __cortexRequire(import.meta.url);" },
};

await build({ ...shared, entryPoints: ['src/cli.ts', 'src/demo/demo.ts'], chunkNames: '[name]-[hash]' });
execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/write-lexicon.ts'], { stdio: 'inherit' });
// The capture models' weights, read on first use beside the bundle (sentence-model.ts).
for (const file of readdirSync('src/capture').filter((f) => f.endsWith('-model-data.json'))) copyFileSync(`src/capture/${file}`, `dist/${file}`);
execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/write-thesaurus.ts'], { stdio: 'inherit' });
// isomorphic-git (only for packed objects) stays in node_modules rather than in the hook's files.
await build({ ...shared, entryPoints: ['src/hook.ts'], chunkNames: 'hook-[name]-[hash]', external: ['isomorphic-git', '@huggingface/transformers'] });
