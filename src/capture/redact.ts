/**
 * Redaction before an event exists: secrets are replaced by a typed placeholder
 * (`[REDACTED:github-token]`) and only the count is kept. Patterns cover the providers people
 * actually paste (cloud, forge, payment, chat, AI APIs), private key blocks, credentials in URLs
 * and connection strings, secret-looking assignments, and high-entropy strings that follow a
 * credential word. Pure.
 */
interface Rule {
  kind: string;
  pattern: RegExp;
  /** Which capture group holds the secret; 0 (the whole match) when absent. */
  group?: number;
}

const CREDENTIAL_WORD = String.raw`(?:[A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|passwd|pwd|api[ _-]?key|apikey|access[ _-]?key|private[ _-]?key|client[ _-]?secret|credentials?|auth[_-]?key|signing[_-]?key|session[_-]?key|webhook[_-]?secret|encryption[_-]?key|bearer)[A-Za-z0-9_.-]*)`;

const RULES: Rule[] = [
  { kind: 'private-key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'stripe-webhook-secret', pattern: /\bwhsec_[A-Za-z0-9]{20,}/g },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})/g },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'sendgrid-key', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'twilio-key', pattern: /\bSK[0-9a-f]{32}\b/g },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // user:password@host in any URL (postgres://, redis://, https://, amqp://…); the user stays.
  { kind: 'password', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"`]+:([^\s@/'"`]+)@/gi, group: 1 },
  // Password=…; in ADO/JDBC-style connection strings.
  { kind: 'password', pattern: /\b(?:password|pwd)\s*=\s*(?!\[REDACTED:)([^;'"\s]+)/gi, group: 1 },
  { kind: 'authorization', pattern: /\bauthorization\s*[:=]\s*["']?(?:bearer|basic|token|bot)\s+([A-Za-z0-9._~+/=-]{8,})/gi, group: 1 },
  { kind: 'bearer-token', pattern: /\bbearer\s+([A-Za-z0-9._~+/-]{20,}=*)/gi, group: 1 },
  // KEY=value, KEY: value, "key": "value", --password value, where the key names a credential.
  {
    kind: 'secret',
    pattern: new RegExp(String.raw`${CREDENTIAL_WORD}["']?\s*(?:=|:=|:|\s+=>)\s*["']?(?!\[REDACTED:)([^\s"'\`,;)}\]]{6,})`, 'gi'),
    group: 1,
  },
  { kind: 'secret', pattern: new RegExp(String.raw`--${CREDENTIAL_WORD}[= ]["']?(?!\[REDACTED:)([^\s"']{6,})`, 'gi'), group: 1 },
];

const PLACEHOLDER = /\[REDACTED:[a-z-]+\]/;

function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Values that look like secrets by shape: long, mixed, random. Keeps words, paths and placeholders. */
function looksRandom(value: string): boolean {
  if (value.length < 16 || PLACEHOLDER.test(value)) return false;
  if (/^[a-z]+(?:[-_][a-z]+)*$/i.test(value)) return false; // words, kebab/snake identifiers
  if (/^(?:\$\{?[A-Z_]+\}?|process\.env\.\w+|os\.environ.*|<[^>]+>|your[-_].*|x{6,}|\*{4,}|changeme.*)$/i.test(value)) return false;
  if (/[/\\]/.test(value) && !/[+=]$/.test(value) && /\.[a-z]{1,4}$/i.test(value)) return false; // file paths
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  return classes >= 2 && entropy(value) >= 3.2;
}

// A credential word, then within a few characters a long random-looking token.
const NEAR_CREDENTIAL = new RegExp(String.raw`${CREDENTIAL_WORD}[^\n]{0,24}?([A-Za-z0-9+/_=.-]{20,})`, 'gi');

export interface Redacted {
  text: string;
  count: number;
}

/**
 * Every rule needs one of these markers somewhere in the text; most text (file paths, prose)
 * has none, and skips the rules (and their compilation) entirely.
 */
const MAYBE_SECRET = /AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA|gh[pousr]_|github_pat_|glpat-|sk-|_live_|_test_|whsec_|xox|hooks\.slack|AIza|npm_|SG\.|SK[0-9a-f]{8}|hf_|eyJ|PRIVATE KEY|:\/\/|passw|pwd|secret|token|key|credential|auth|bearer/i;

export function redactText(input: string): Redacted {
  if (!MAYBE_SECRET.test(input)) return { text: input, count: 0 };
  let text = input;
  let count = 0;
  for (const rule of RULES) {
    text = text.replace(rule.pattern, (match: string, ...groups: unknown[]) => {
      const secret = rule.group ? (groups[rule.group - 1] as string | undefined) : match;
      if (!secret || PLACEHOLDER.test(secret)) return match;
      if (rule.kind === 'secret' && !looksLikeValue(secret)) return match;
      count += 1;
      return match.replace(secret, `[REDACTED:${rule.kind}]`);
    });
  }
  text = text.replace(NEAR_CREDENTIAL, (match: string, secret: string) => {
    if (!looksRandom(secret)) return match;
    count += 1;
    return match.replace(secret, '[REDACTED:secret]');
  });
  return { text, count };
}

/** After `password=`: anything but an obvious non-secret (a variable reference, a placeholder, a type). */
function looksLikeValue(value: string): boolean {
  if (PLACEHOLDER.test(value)) return false;
  if (/^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|process\.env\.\w+|os\.environ\b.*|env\(.*|getenv.*|<[^>]+>|\{\{.*\}\}|%[A-Z_]+%)$/i.test(value)) return false;
  if (/^(?:true|false|null|none|undefined|string|str|int|number|bool|boolean|required|optional|redacted|\*+|x+|\.\.\.|…)$/i.test(value)) return false;
  if (/^(?:self|this|config|settings|options|args|params|os|env|req|request)\.[\w.]+$/i.test(value)) return false;
  if (/^[a-z_][a-z0-9_]*\(/i.test(value)) return false; // a function call
  return true;
}

/** Redact every string inside a JSON-like value; returns the copy and the total count. */
export function redactDeep<T>(value: T): { value: T; count: number } {
  let count = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const r = redactText(v);
      count += r.count;
      return r.text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { value: walk(value) as T, count };
}
