/** The dependency manifests reality checks read, by ecosystem (root of the work tree only). */
export type Ecosystem = 'npm' | 'pypi' | 'cargo' | 'go';

export const ECOSYSTEM_OF: Readonly<Record<string, Ecosystem>> = {
  'package.json': 'npm',
  'pyproject.toml': 'pypi',
  'requirements.txt': 'pypi',
  'Cargo.toml': 'cargo',
  'go.mod': 'go',
};

export const MANIFEST_FILES: readonly string[] = Object.keys(ECOSYSTEM_OF);
