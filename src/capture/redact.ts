import type { Meta } from '../events/types.js';

/**
 * Redaction before an event exists: secrets are replaced by a typed placeholder
 * (`[REDACTED:github-token]`) and only the count is kept. Patterns cover the providers people
 * actually paste (cloud, forge, payment, chat, AI APIs), private key blocks, credentials in URLs
 * and connection strings, passwords on command lines (curl -u, mysql -p, htpasswd -b…), secret-looking
 * assignments, high-entropy strings that follow a credential word, and credentials stated in prose
 * ("the db password is …", "login: admin / …") when the value is shaped like a secret. Pure.
 */
interface Rule {
  kind: string;
  pattern: RegExp;
  /** Which capture group holds the secret; 0 (the whole match) when absent. */
  group?: number;
  /** Whether the captured text is really a secret and not a variable, placeholder or port. */
  guard?: (secret: string) => boolean;
  /** A cheap test a text must pass before the pattern is run over it (the pattern costs more). */
  when?: RegExp;
}

const CREDENTIAL_WORD = String.raw`(?:[A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|passwd|(?<![A-Za-z0-9/])pass(?![A-Za-z0-9_.-])|pwd|passphrase|passcode|api[ _-]?key|apikey|access[ _-]?key|private[ _-]?key|client[ _-]?secret|credentials?|auth[_-]?key|signing[_-]?key|session[_-]?key|webhook[_-]?secret|encryption[_-]?key|bearer)[A-Za-z0-9_.-]*)`;

// A credential word as a key starts a word, and is never the kind inside an earlier placeholder:
// `[REDACTED:password]@host` once made the host of a mongodb+srv URL look like a secret that
// follows the word "password". (Starting at a word also spares the engine a try at every letter.)
const CREDENTIAL_KEY = String.raw`(?<![A-Za-z0-9_.-]|\[REDACTED:)${CREDENTIAL_WORD}`;

// The rest of one shell command after a program's name: flags come in any order, but never
// across a pipe, `;`, `&&` or a new line.
const SAME_COMMAND = String.raw`[^\n|;&]*?\s`;

/** What follows a URL's credentials when it is a host: dotted, with a port, localhost, or a list. */
const URL_HOST = String.raw`(?:localhost|(?:[a-z0-9-]+\.)+[a-z0-9-]+|[a-z0-9.-]+:\d{1,5}|[a-z0-9.-]+(?:,[a-z0-9.-]+)+)(?:[:/?#,;]|\s|$)`;

/**
 * Prose that states a credential: "the prod db password is Zq8!vR2#pLm9", "the deploy key
 * passphrase is tangerine-otter-42", `the redis password for staging is "s3cr3t-redis-pw"`. The
 * credential word, then a few words naming whose it is ("for the admin account"), then is/was/set
 * to, a colon, an equals sign, or straight into a quoted value. Whether the value is a secret or a
 * description of one ("is stored hashed", "is refreshed every hour", "is base64-encoded") is the
 * guard's call (secretShaped); a number followed by its unit ("is 32 bytes") never is.
 */
const PROSE_PASS_WORD = String.raw`(?:[A-Za-z0-9_-]*(?:passw(?:or)?d|passwd|pwd|passphrase|passcode)s?|pw)`;
const PROSE_KEY_WORD = String.raw`(?:[A-Za-z0-9_-]*(?:secret|token|api[ _-]?key|apikey|access[ _-]?key|private[ _-]?key|signing[ _-]?key|auth[ _-]?key|licen[sc]e[ _-]?key)s?)`;
const WHOSE = String.raw`(?:\s+(?:for|of|on|to|at|in)\s+(?:the\s+|our\s+|this\s+|that\s+|my\s+|your\s+)?[\w.@:-]+(?:\s+[\w.@-]+)?)?`;
const STATED_AS = String.raw`(?:\s+(?:is|was)(?:\s+(?:now|still|just|set\s+to|changed\s+to))?\s*:?\s+|\s*[:=]\s*|\s+(?=["'\`]))`;
/** One word of a value, without the sentence's own punctuation after it (a trailing `!` stays: passwords end in one). */
const STATED_VALUE = String.raw`["'\`]?(?!\[REDACTED:)([^\s"'\`]*[^\s"'\`.,;:?)\]}])(?!\s+(?:bits?|bytes?|char(?:acter)?s?|digits?|long|hours?|days?|minutes?|seconds?)\b)`;
const stated = (word: string) => new RegExp(String.raw`(?<![A-Za-z0-9_.-]|\[REDACTED:)${word}(?![A-Za-z0-9_])${WHOSE}${STATED_AS}${STATED_VALUE}`, 'gi');

/** Flags of htpasswd and mosquitto_passwd (`-c`, `-bB`, `-C 10`), before the file and the user. */
const HT_FLAG = String.raw`(?:-[A-Za-z0-9]+(?:\s+\d+)?\s+)`;
const ARGUMENT = String.raw`["']?[^\s'"|;&]+["']?`;

const RULES: Rule[] = withIndices([
  { kind: 'private-key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'stripe-key', pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'stripe-webhook-secret', pattern: /\bwhsec_[A-Za-z0-9]{20,}/g },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})/g },
  { kind: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  // A Firebase Cloud Messaging server key (AAAA…:APA91b…), or a device's registration token.
  { kind: 'fcm-key', pattern: /(?<![A-Za-z0-9_-])(?:[A-Za-z0-9_-]{7,64}:)?APA91b[A-Za-z0-9_-]{60,}/g },
  { kind: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/g },
  { kind: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'rubygems-key', pattern: /\brubygems_[0-9a-f]{48}\b/g },
  { kind: 'sendgrid-key', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { kind: 'twilio-key', pattern: /\bSK[0-9a-f]{32}\b/g },
  { kind: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}/g },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  // user:password@host in any URL (postgres://, redis://, https://, amqp://…); the user stays and
  // may be empty (redis://:password@host). The password runs to the @ before the host (the last
  // @ before a `/`), and may hold `/` itself: generated and base64 passwords often do
  // (redis://:Zq8/Xw7+…@cache). A port and a path (host:8443/path@v2) are not a password.
  // A password holding both `@` and `/` (p@ss/w0rd@db:5432) runs to the first @ followed by
  // something host-shaped (dotted, with a port, localhost, a list of hosts): the rule after it
  // stops at the first @ and would leave the rest in clear. An @ already followed by a host ends
  // the password as before (u:pw@cdn.com/pkg@1.2.3 keeps its host).
  { kind: 'password', pattern: new RegExp(String.raw`\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"\`[\]]*:(?!\d{1,5}(?:[/?#]|$))((?:(?!@${URL_HOST})[^\s'"\`])*?(?!@${URL_HOST})[@/](?:(?!@${URL_HOST})[^\s'"\`])*?)@(?=${URL_HOST})`, 'gi'), group: 1 },
  { kind: 'password', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@'"`[\]]*:(?!\d{1,5}(?:[/?#]|$))([^\s'"`]+?)@(?![^\s/@'"`]*@)/gi, group: 1 },
  // An opaque token as a URL's only user (https://<token>@github.com/…): git's way to push with a
  // token. A user name (deploy@, git@, john.doe%40example.com@) is not token-shaped.
  { kind: 'token', pattern: /\b[a-z][a-z0-9+.-]*:\/\/([A-Za-z0-9_-]{20,})@/gi, group: 1, guard: looksRandom },
  // Azure connection strings: a storage account's AccountKey=, Service Bus's SharedAccessKey=, and
  // the signature of a shared access signature (…&sig=…, in a SAS URL or SharedAccessSignature=).
  { kind: 'azure-key', pattern: /\b(?:Account|SharedAccess)Key\s*=\s*(?!\[REDACTED:)([^;'"`\s]+)/gi, group: 1, guard: looksLikeValue },
  { kind: 'azure-sas', pattern: /(?<![A-Za-z0-9_-])sig=(?!\[REDACTED:)([^&;'"`\s]{16,})/g, group: 1, guard: looksLikeValue },
  // Password=…; in ADO/JDBC-style connection strings.
  { kind: 'password', pattern: /\b(?:password|pwd)\s*=\s*(?!\[REDACTED:)([^;'"\s]+)/gi, group: 1 },
  // Passwords on a command line, each where its program takes one. Case matters: `-P` is a port
  // for mysql, `-W` a prompt for ldapsearch; `-p` is a port for ssh, docker and redis-cli, so it
  // is only read after the programs where it is the password.
  { kind: 'password', pattern: new RegExp(String.raw`\bcurl\b${SAME_COMMAND}(?:-[uU]\s*|--(?:proxy-)?user(?:\s+|=))["']?[^\s:'"]*:([^\s'"]+)`, 'g'), group: 1, guard: literal },
  // (The flag may come first: `mysql -pX`, `mysqldump -pX db`.)
  { kind: 'password', pattern: new RegExp(String.raw`\b(?:mysql|mariadb)[a-z-]*\s(?:${SAME_COMMAND})?-p["']?([^\s'"]+)`, 'g'), group: 1, guard: literal },
  { kind: 'password', pattern: new RegExp(String.raw`\bmongo(?:sh|dump|restore|export|import|stat|top|files)?\s(?:${SAME_COMMAND})?-p\s*["']?([^\s'"-][^\s'"]*)`, 'g'), group: 1, guard: literal },
  { kind: 'password', pattern: new RegExp(String.raw`\b(?:docker|podman|oc|az)\s+login\b${SAME_COMMAND}-p\s*["']?([^\s'"-][^\s'"]*)`, 'g'), group: 1, guard: literal },
  { kind: 'password', pattern: new RegExp(String.raw`\bredis-cli\b${SAME_COMMAND}(?:-a|--pass)\s+["']?([^\s'"]+)`, 'g'), group: 1, guard: literal },
  { kind: 'password', pattern: new RegExp(String.raw`\bldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop)\b${SAME_COMMAND}-w\s*["']?([^\s'"]+)`, 'g'), group: 1, guard: literal },
  { kind: 'password', pattern: /\bsshpass\s+(?:-[vVhe]\s+)*-p\s*["']?([^\s'"]+)/g, group: 1, guard: literal },
  { kind: 'password', pattern: /\b(?:SSHPASS|REDISCLI_AUTH)=["']?([^\s'"]+)/g, group: 1, guard: literal },
  // openssl's -passin/-passout/-pass and apksigner's --ks-pass/--key-pass take pass:<password>
  // (env: and file: name where it is).
  { kind: 'password', pattern: /\s(?:-pass(?:in|out)?|--(?:ks|key)-pass)\s+["']?pass:([^\s'"]+)/g, group: 1, guard: literal },
  // htpasswd -b (and mosquitto_passwd -b) take the password after the file and the user, or after
  // the user alone with -n (print, no file). Without -b they prompt, and the last word is the user.
  { kind: 'password', pattern: new RegExp(String.raw`\b(?:htpasswd|mosquitto_passwd)\s+(?=${HT_FLAG}*?-[A-Za-z0-9]*b)(?!${HT_FLAG}*?-[A-Za-z0-9]*n)${HT_FLAG}+${ARGUMENT}\s+${ARGUMENT}\s+["']?([^\s'"]+)`, 'g'), group: 1, guard: literal },
  { kind: 'password', pattern: new RegExp(String.raw`\bhtpasswd\s+(?=${HT_FLAG}*?-[A-Za-z0-9]*b)(?=${HT_FLAG}*?-[A-Za-z0-9]*n)${HT_FLAG}+${ARGUMENT}\s+["']?([^\s'"]+)`, 'g'), group: 1, guard: literal },
  // keytool and jarsigner: -storepass/-keypass (and their src/dest forms) take the password itself;
  // -storepass:env and :file name where it is.
  { kind: 'password', pattern: /\s-(?:src|dest)?(?:storepass|keypass)\s+["']?([^\s'"]+)/g, group: 1, guard: literal },
  // sqlcmd and bcp: -P is the password (-U the user).
  { kind: 'password', pattern: new RegExp(String.raw`\b(?:sqlcmd|bcp)\b${SAME_COMMAND}-P\s*["']?([^\s'"]+)`, 'g'), group: 1, guard: literal },
  // Samba's tools take user%password.
  { kind: 'password', pattern: new RegExp(String.raw`\b(?:smbclient|rpcclient|smbcacls|smbget|smbmap)\b${SAME_COMMAND}(?:-U\s*|--user(?:=|\s+))["']?[^\s%'"]+%([^\s'"]+)`, 'g'), group: 1, guard: literal },
  // zip and unzip: -P password; 7-Zip: -p<password>, no space.
  { kind: 'password', pattern: new RegExp(String.raw`(?<![\w./-])(?:zip|unzip)\b${SAME_COMMAND}-P\s+["']?([^\s'"]+)`, 'g'), group: 1, guard: literal },
  { kind: 'password', pattern: new RegExp(String.raw`(?<![\w./-])7z[ar]?\b${SAME_COMMAND}-p["']?([^\s'"]+)`, 'g'), group: 1, guard: literal },
  // rabbitmqctl add_user <user> <password>, change_password <user> <password>.
  { kind: 'password', pattern: new RegExp(String.raw`\brabbitmqctl\s+(?:-\S+\s+)*(?:add_user|change_password)\s+${ARGUMENT}\s+["']?([^\s'"]+)`, 'g'), group: 1, guard: literal },
  // echo 'user:password' | chpasswd.
  { kind: 'password', pattern: /\becho\s+(?:-[neE]+\s+)?["']?[^\s:'"]+:([^\s'"]+?)["']?\s*\|\s*(?:sudo\s+)?chpasswd\b/g, group: 1, guard: literal },
  { kind: 'authorization', pattern: /\bauthorization\s*[:=]\s*["']?(?:bearer|basic|token|bot)\s+([A-Za-z0-9._~+/=-]{8,})/gi, group: 1 },
  { kind: 'bearer-token', pattern: /\bbearer\s+([A-Za-z0-9._~+/-]{20,}=*)/gi, group: 1 },
  // KEY='a quoted value with spaces': all of it, where the key names a credential.
  { kind: 'secret', pattern: new RegExp(String.raw`${CREDENTIAL_KEY}\s*(?:=|:=|:)\s*(["'])(?!\[REDACTED:)([^"'\n]*\s[^"'\n]*)\1`, 'gi'), group: 2, guard: (value) => value.trim().length >= 6 && looksLikeValue(value.trim()), when: /[=:]\s*["'][^"'\n]*\s/ },
  // KEY=value, KEY: value, "key": "value", --password value, where the key names a credential.
  {
    kind: 'secret',
    pattern: new RegExp(String.raw`${CREDENTIAL_KEY}["']?\s*(?:=|:=|:|\s+=>)\s*["']?(?!\[REDACTED:)([^\s"'\`,;)}\]]{6,})`, 'gi'),
    group: 1,
    guard: looksLikeValue,
  },
  // …but --password-stdin, --token-file and their like name where the secret is, not the secret.
  { kind: 'secret', pattern: new RegExp(String.raw`--${CREDENTIAL_WORD}(?<!-(?:stdin|file|path|env|cmd|command))[= ]["']?(?!\[REDACTED:)([^\s"']{6,})`, 'gi'), group: 1, guard: looksLikeValue },
  // A credential word, then within a few characters a long random-looking token.
  // The token starts where a word does, never inside a URL (Bearer <jwt> https://api.example.com/me
  // once lost the URL after https:).
  // Nor does it run into a placeholder: `--from-literal=password=[REDACTED:password]` is a flag and
  // a key whose value is already gone, not a token.
  { kind: 'secret', pattern: new RegExp(String.raw`${CREDENTIAL_KEY}[^\n]{0,24}?(?<![A-Za-z0-9+/_=.:-])([A-Za-z0-9+/_=.-]{20,})(?![A-Za-z0-9+/_=.-]|\[REDACTED:)`, 'gi'), group: 1, guard: looksRandom },
  // Credentials stated in prose (see PROSE_PASS_WORD): the value must look like a secret.
  { kind: 'password', pattern: stated(PROSE_PASS_WORD), group: 1, guard: (value) => secretShaped(value) },
  // …and a passphrase of several words, in quotes: `the passphrase is "correct horse battery staple"`.
  { kind: 'password', pattern: new RegExp(String.raw`(?<![A-Za-z0-9_.-]|\[REDACTED:)${PROSE_PASS_WORD}(?![A-Za-z0-9_])${WHOSE}${STATED_AS}(["'\`])((?:(?!\1)[^\n]){3,80}?\s(?:(?!\1)[^\n]){3,80}?)\1`, 'gi'), group: 2, guard: looksLikeValue },
  { kind: 'secret', pattern: stated(PROSE_KEY_WORD), group: 1, guard: (value) => secretShaped(value) },
  // A PIN is digits: "the PIN is 4821", not "the pin is 4 digits".
  { kind: 'pin', pattern: /(?<![A-Za-z0-9_.-])(?:pin|pin[ _-]?code|passcode)\s+(?:is|was|:|=)\s*["']?(\d{4,10})(?![\d.,]?\d|\s*(?:digits?|char(?:acter)?s?|long|numbers?|times|attempts|tries|%))/gi, group: 1 },
  // A user and a password after a word saying they are a login: "admin login: admin / P@ssw0rd2024!",
  // "creds: deploy/Zq8!vR2#". The password must look like one with three kinds of character: a
  // path (user: alice/notes2024) or a pair of roles (read / write) is no login.
  {
    kind: 'password',
    pattern: /(?<![A-Za-z0-9_./-])(?:user(?:name)?\s*\/\s*pass(?:word)?|log-?in|sign-?in|username|user|creds|credentials|account)(?![A-Za-z0-9_])\s*(?:is|are|:|=)?\s*["'`]?[\w.@+-]{1,64}["'`]?\s*\/\s*["'`]?(?!\[REDACTED:)([^\s"'`/]*[^\s"'`/.,;:?)\]}])(?![^\s"'`]*\/)/gi,
    group: 1,
    guard: (value) => secretShaped(value, 3),
  },
]);

/**
 * The `d` flag gives each group's position, so only the secret is replaced, never the same text
 * elsewhere in the match (the user of postgres://admin:admin@db).
 */
function withIndices(rules: Rule[]): Rule[] {
  return rules.map((rule) => ({ ...rule, pattern: new RegExp(rule.pattern.source, `${rule.pattern.flags}d`) }));
}

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
  if (/^(?:~|\.{1,2})?(?:\/[a-z0-9._-]+)+\/?$/.test(value)) return false; // /etc/nginx/.htpasswd
  if (/^--?[a-z][\w-]*=/i.test(value)) return false; // a flag (--from-literal=user=admin): its value is judged as a key's
  if (/^(?:[a-z0-9-]+\.)+[a-z]{2,6}$/.test(value)) return false; // host names (registry.example.com)
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
  return classes >= 2 && entropy(value) >= 3.2;
}

/**
 * Parts of a value that make it a description or a standard's name, not a secret: encodings,
 * hashes, algorithms and sizes ("base64-encoded", "HS256", "AES-256-GCM", "32-byte", "read-only").
 */
const TERM = /^(?:\d+|base(?:16|32|36|58|62|64|85)(?:url)?|hex|md[245]|sha\d*|sha3|hmac|aes\d*|gcm|cbc|ctr|rsa\d*|ecdsa|[ehpr]s(?:256|384|512)|ed25519|x25519|jwt|jws|jwe|utf\d*|ascii|latin\d?|oauth\d?|pbkdf2|argon2(?:id|i|d)?|bcrypt|scrypt|x509|pkcs\d*|tls\d*|ssl\d*|v\d+)$/i;
const DESCRIBING = /^(?:[a-z]{3,}(?:ed|ing)|only|based|style|like|wide|safe|aware|compatible|compliant|friendly|proof|free|less|able|bits?|bytes?|chars?|characters?|digits?|hours?|days?|min(?:ute)?s?|sec(?:ond)?s?|weeks?|long|length|level)$/i;

/**
 * A value stated in prose that looks like a secret, not like an English word, a description or a
 * name: at least six characters, with letters and with a digit or a symbol (kebab passphrases with
 * a number count, "tangerine-otter-42"), `minClasses` kinds of character among lower case, upper
 * case, digits and symbols. A variable, a path, a version, an environment variable's or a
 * property's name, or a run of algorithm and encoding names is not.
 */
function secretShaped(raw: string, minClasses = 2): boolean {
  if (raw.length < 6 || !looksLikeValue(raw)) return false;
  if (looksRandom(raw)) return true;
  // A "!" at the end may be the sentence's ("the token is refreshed!") or the password's: it counts
  // for the length and the kinds of character, not as the one symbol that makes a word a secret.
  const value = raw.replace(/!+$/, '');
  if (!/[A-Za-z]/.test(value) || !/[\d]|[^A-Za-z0-9_.-]/.test(value)) return false;
  if (/:\/\/|^[~.]{0,2}\/|\.[a-z]{1,4}$|^v?\d+(?:\.\d+)+/i.test(value)) return false; // URLs, paths, file names, versions
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return false; // an environment variable's name
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false; // a property (config.secret_v2)
  const parts = value.split(/[-_.]/).filter(Boolean);
  if (parts.every((part) => TERM.test(part)) || DESCRIBING.test(parts[parts.length - 1] ?? '')) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9_.-]/].filter((re) => re.test(raw)).length;
  return classes >= minClasses;
}

export interface Redacted {
  text: string;
  /** How many different secrets were removed. */
  count: number;
}

/**
 * Every rule needs one of these markers somewhere in the text; most text (file paths, prose)
 * has none, and skips the rules (and their compilation) entirely.
 */
const MAYBE_SECRET = /AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA|gh[pousr]_|github_pat_|glpat-|sk-|_live_|_test_|whsec_|xox|hooks\.slack|AIza|APA91b|npm_|rubygems_|SG\.|SK[0-9a-f]{8}|hf_|eyJ|PRIVATE KEY|:\/\/|sig=|pass|pwd|secret|token|key|credential|auth|bearer|curl|mysql|mariadb|mongo|log-?in|sign-?in|\b(?:user(?:name)?|creds|account)\s*(?:is\b|are\b|[:=/])|\bpin\b|\bpw\b|redis-cli|ldap|sqlcmd|\bbcp\b|smb|rpcclient|zip|7z|rabbitmqctl/i;

/** Replaces each secret with its placeholder and adds it to `found`, so a secret seen twice counts once. */
function redactInto(input: string, found: Set<string>): string {
  if (!MAYBE_SECRET.test(input)) return input;
  let text = input;
  for (const rule of RULES) {
    if (rule.when && !rule.when.test(text)) continue;
    let out = '';
    let last = 0;
    for (const match of text.matchAll(rule.pattern)) {
      const span = match.indices?.[rule.group ?? 0];
      const secret = match[rule.group ?? 0];
      if (!span || !secret || PLACEHOLDER.test(secret) || (rule.guard && !rule.guard(secret))) continue;
      found.add(secret);
      out += `${text.slice(last, span[0])}[REDACTED:${rule.kind}]`;
      last = span[1];
    }
    text = out + text.slice(last);
  }
  return text;
}

export function redactText(input: string): Redacted {
  const found = new Set<string>();
  const text = redactInto(input, found);
  return { text, count: found.size };
}

/** A literal password on a command line: not a variable or placeholder, not a port mapping (8080:80). */
function literal(value: string): boolean {
  return looksLikeValue(value) && !/^\d+(?::\d+)+(?:\/[a-z]+)?$/.test(value);
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

/**
 * Redact every string inside a JSON-like value; returns the copy and how many different secrets
 * it held. A secret repeated across fields counts once: a Bash command is both the content
 * ("Ran …") and meta.command of its event, and a plan's steps are both its content and meta.steps.
 */
export function redactDeep<T>(value: T): { value: T; count: number } {
  const found = new Set<string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactInto(v, found);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const copy = walk(value) as T;
  return { value: copy, count: found.size };
}

/**
 * A memory's text and meta, redacted together (a secret said in both counts once), with the
 * count kept in `meta.redactions` when there was anything to redact: what every way into the
 * journal does first (capture, remember, import); only merges and syncs of journals copy events
 * as they are.
 */
export function redactMemory(memory: { content: string; meta: Meta }): { content: string; meta: Meta } {
  const { value, count } = redactDeep(memory);
  return count === 0 ? memory : { content: value.content, meta: { ...value.meta, redactions: count } };
}
