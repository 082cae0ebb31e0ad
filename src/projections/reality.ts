import type { MemoryItem, MemoryState } from './fold.js';
import { ECOSYSTEM_OF, MANIFEST_FILES, type Ecosystem } from './manifests.js';
import { synonymsOf } from '../search/thesaurus.js';

/**
 * Reality checks: what memory says against what the repository shows now. The shell gathers
 * the facts (which referenced files exist, the dependency manifests, recent commits); these
 * functions only compare. A warning says what differs; none fire when memory and repo agree.
 */
export interface Manifest {
  /** Repository-relative path: package.json, pyproject.toml, requirements.txt, Cargo.toml, go.mod. */
  path: string;
  text: string;
}

export interface RepoFacts {
  branch: string | null;
  detached: boolean;
  /** Referenced paths (from `referencedFiles`) that do not exist in the work tree. */
  missingFiles: ReadonlySet<string>;
  manifests: readonly Manifest[];
  /** Commits on HEAD by other authors since the last assistant session ended. */
  commitsByOthers: ReadonlyArray<{ author: string; subject: string }>;
}

export interface Warning {
  kind: 'branch' | 'missing-file' | 'dependency' | 'commits';
  text: string;
}


/**
 * Technologies people name in decisions, and the packages that show a project uses them. The
 * names are matched as words; a technology is only checked in ecosystems whose manifest exists.
 */
interface Technology {
  name: string;
  pattern: RegExp;
  packages: Partial<Record<Ecosystem, readonly string[]>>;
}

const T = (name: string, pattern: RegExp, packages: Technology['packages']): Technology => ({ name, pattern, packages });

export const TECHNOLOGIES: readonly Technology[] = [
  T('Redis', /\bredis\b/i, { npm: ['redis', 'ioredis', '@redis/client', '@upstash/redis'], pypi: ['redis', 'aioredis'], cargo: ['redis'], go: ['github.com/redis/go-redis', 'github.com/go-redis/redis', 'github.com/gomodule/redigo'] }),
  T('Memcached', /\bmemcached?\b/i, { npm: ['memcached', 'memjs'], pypi: ['pymemcache', 'python-memcached'], go: ['github.com/bradfitz/gomemcache'] }),
  T('PostgreSQL', /\bpostgres(?:ql)?\b/i, { npm: ['pg', 'postgres', 'pg-promise', '@neondatabase/serverless', '@vercel/postgres'], pypi: ['psycopg', 'psycopg2', 'psycopg2-binary', 'asyncpg'], cargo: ['postgres', 'tokio-postgres', 'sqlx'], go: ['github.com/lib/pq', 'github.com/jackc/pgx'] }),
  T('MySQL', /\bmysql\b/i, { npm: ['mysql', 'mysql2'], pypi: ['mysqlclient', 'pymysql', 'mysql-connector-python'], cargo: ['mysql', 'sqlx'], go: ['github.com/go-sql-driver/mysql'] }),
  T('SQLite', /\bsqlite3?\b/i, { npm: ['sqlite3', 'better-sqlite3', 'sqlite', '@libsql/client'], cargo: ['rusqlite', 'sqlx'], go: ['github.com/mattn/go-sqlite3', 'modernc.org/sqlite'] }),
  T('MongoDB', /\bmongo(?:db)?\b/i, { npm: ['mongodb', 'mongoose'], pypi: ['pymongo', 'motor', 'mongoengine'], cargo: ['mongodb'], go: ['go.mongodb.org/mongo-driver'] }),
  T('Kafka', /\bkafka\b/i, { npm: ['kafkajs', 'node-rdkafka'], pypi: ['kafka-python', 'confluent-kafka', 'aiokafka'], cargo: ['rdkafka'], go: ['github.com/segmentio/kafka-go', 'github.com/confluentinc/confluent-kafka-go', 'github.com/ibm/sarama', 'github.com/shopify/sarama'] }),
  T('RabbitMQ', /\brabbitmq\b/i, { npm: ['amqplib', 'amqp-connection-manager'], pypi: ['pika', 'aio-pika', 'kombu'], cargo: ['lapin'], go: ['github.com/rabbitmq/amqp091-go', 'github.com/streadway/amqp'] }),
  T('Express', /\bExpress(?:\.?js)?\b|\bexpress\.?js\b/, { npm: ['express'] }),
  T('Fastify', /\bfastify\b/i, { npm: ['fastify'] }),
  T('Koa', /\bkoa\b/i, { npm: ['koa'] }),
  T('NestJS', /\bnest(?:js|\.js)\b/i, { npm: ['@nestjs/core'] }),
  T('React', /\bReact(?:\.?js)?\b|\breact\.?js\b/, { npm: ['react'] }),
  T('Vue', /\bvue(?:\.js|js)?\b/i, { npm: ['vue'] }),
  T('Svelte', /\bsvelte(?:kit)?\b/i, { npm: ['svelte', '@sveltejs/kit'] }),
  T('Angular', /\bangular\b/i, { npm: ['@angular/core'] }),
  T('Jest', /\bjest\b/i, { npm: ['jest', 'ts-jest', '@jest/globals'] }),
  T('Vitest', /\bvitest\b/i, { npm: ['vitest'] }),
  T('Mocha', /\bmocha\b/i, { npm: ['mocha'] }),
  T('webpack', /\bwebpack\b/i, { npm: ['webpack'] }),
  T('Vite', /\bvite\b/i, { npm: ['vite'] }),
  T('esbuild', /\besbuild\b/i, { npm: ['esbuild'] }),
  T('Rollup', /\brollup\b/i, { npm: ['rollup'] }),
  T('Axios', /\baxios\b/i, { npm: ['axios'] }),
  T('Moment.js', /\bmoment(?:\.js|js)\b|\bmoment library\b/i, { npm: ['moment'] }),
  T('date-fns', /\bdate-fns\b/i, { npm: ['date-fns'] }),
  T('Day.js', /\bday\.?js\b/i, { npm: ['dayjs'] }),
  T('Lodash', /\blodash\b/i, { npm: ['lodash', 'lodash-es'] }),
  T('Zod', /\bzod\b/i, { npm: ['zod'] }),
  T('Prisma', /\bprisma\b/i, { npm: ['prisma', '@prisma/client'] }),
  T('Drizzle', /\bdrizzle\b/i, { npm: ['drizzle-orm'] }),
  T('TypeORM', /\btypeorm\b/i, { npm: ['typeorm'] }),
  T('Sequelize', /\bsequelize\b/i, { npm: ['sequelize'] }),
  T('GraphQL', /\bgraphql\b/i, { npm: ['graphql'], pypi: ['graphene', 'strawberry-graphql', 'ariadne'], cargo: ['async-graphql', 'juniper'], go: ['github.com/99designs/gqlgen', 'github.com/graphql-go/graphql'] }),
  T('tRPC', /\btrpc\b/i, { npm: ['@trpc/server'] }),
  T('Socket.IO', /\bsocket\.io\b/i, { npm: ['socket.io', 'socket.io-client'] }),
  T('Django', /\bdjango\b/i, { pypi: ['django'] }),
  T('Flask', /\bflask\b/i, { pypi: ['flask'] }),
  T('FastAPI', /\bfastapi\b/i, { pypi: ['fastapi'] }),
  T('SQLAlchemy', /\bsqlalchemy\b/i, { pypi: ['sqlalchemy'] }),
  T('Celery', /\bcelery\b/i, { pypi: ['celery'] }),
  T('pytest', /\bpytest\b/i, { pypi: ['pytest'] }),
  T('Pydantic', /\bpydantic\b/i, { pypi: ['pydantic'] }),
  T('pandas', /\bpandas\b/i, { pypi: ['pandas'] }),
  T('Requests', /\bpython requests\b|\brequests library\b/i, { pypi: ['requests'] }),
  T('httpx', /\bhttpx\b/i, { pypi: ['httpx'] }),
  T('Tokio', /\btokio\b/i, { cargo: ['tokio'] }),
  T('async-std', /\basync-std\b/i, { cargo: ['async-std'] }),
  T('Serde', /\bserde\b/i, { cargo: ['serde'] }),
  T('Actix', /\bactix\b/i, { cargo: ['actix-web'] }),
  T('Axum', /\baxum\b/i, { cargo: ['axum'] }),
  T('Diesel', /\bdiesel\b/i, { cargo: ['diesel'] }),
  T('Gin', /\bgin\b(?= (?:framework|router|server|handlers?|middleware))/i, { go: ['github.com/gin-gonic/gin'] }),
  T('Echo', /\becho framework\b|\blabstack\/echo\b/i, { go: ['github.com/labstack/echo'] }),
  T('GORM', /\bgorm\b/i, { go: ['gorm.io/gorm', 'github.com/jinzhu/gorm'] }),
  T('Cobra', /\bcobra\b/i, { go: ['github.com/spf13/cobra'] }),
];

/** Database layers that can sit on any database: with one present, a missing driver proves nothing. */
const GENERIC_DB = new Set(['prisma', '@prisma/client', 'typeorm', 'sequelize', 'knex', 'drizzle-orm', 'sqlalchemy', 'sqlx', 'diesel', 'sea-orm', 'gorm.io/gorm', 'django', 'peewee', 'mikro-orm', '@mikro-orm/core']);
const DATABASES = new Set(['PostgreSQL', 'MySQL', 'SQLite', 'MongoDB']);

export { MANIFEST_FILES };

/** Dependency names per ecosystem, lower case. Tolerant: a manifest that does not parse gives nothing. */
export function parseDependencies(manifests: readonly Manifest[]): Map<Ecosystem, Set<string>> {
  const deps = new Map<Ecosystem, Set<string>>();
  for (const m of manifests) {
    const ecosystem = ECOSYSTEM_OF[m.path.split('/').pop() ?? ''];
    if (!ecosystem) continue;
    const names = deps.get(ecosystem) ?? new Set<string>();
    deps.set(ecosystem, names);
    for (const name of dependencyNames(m.path, m.text)) names.add(name.toLowerCase());
  }
  return deps;
}

function dependencyNames(path: string, text: string): string[] {
  if (path.endsWith('package.json')) {
    try {
      const pkg = JSON.parse(text) as Record<string, unknown>;
      return ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((k) => (pkg[k] && typeof pkg[k] === 'object' ? Object.keys(pkg[k] as object) : []));
    } catch {
      return [];
    }
  }
  if (path.endsWith('requirements.txt')) {
    return text.split('\n').map((l) => /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(l.replace(/#.*/, ''))?.[1]).filter((n): n is string => !!n);
  }
  if (path.endsWith('pyproject.toml')) {
    // PEP 621 `dependencies = [ "x>=1" ]` and Poetry `[tool.poetry.dependencies]` tables.
    const quoted = [...text.matchAll(/^\s*"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*(?:[<>=!~;, ]|")/gm)].map((m) => m[1] as string);
    const poetry = [...text.matchAll(/\[tool\.poetry\.(?:dev-)?dependencies\]([^[]*)/g)].flatMap((m) => [...(m[1] as string).matchAll(/^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*=/gm)].map((n) => n[1] as string));
    return [...quoted, ...poetry];
  }
  if (path.endsWith('Cargo.toml')) {
    return [...text.matchAll(/\[(?:dev-|build-)?dependencies\]([^[]*)/g)].flatMap((m) => [...(m[1] as string).matchAll(/^\s*([A-Za-z0-9_-]+)\s*=/gm)].map((n) => n[1] as string));
  }
  if (path.endsWith('go.mod')) {
    return [...text.matchAll(/^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]{2,}\/[^\s]+)\s+v[0-9]/gm)].map((m) => (m[1] as string).replace(/\/v\d+$/, ''));
  }
  return [];
}

/** Files named by the items a briefing will show: their meta, and paths written in their text. */
export function referencedFiles(items: readonly MemoryItem[]): Map<string, MemoryItem> {
  const files = new Map<string, MemoryItem>();
  for (const item of items) {
    for (const path of [...item.files, ...pathsIn(item.content)]) if (!files.has(path)) files.set(path, item);
  }
  return files;
}

const PATH_IN_TEXT = /(?:^|[\s`'"(])((?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+\.[a-z][a-z0-9]{0,5})(?=$|[\s`'"),:;!?]|\.(?:\s|$))/gi;

export function pathsIn(text: string): string[] {
  return [...text.matchAll(PATH_IN_TEXT)].map((m) => (m[1] as string).replace(/^\.\//, '')).filter((p) => !/^https?:/i.test(p) && !p.includes('://') && !/^\d/.test(p));
}

export function realityChecks(state: MemoryState, facts: RepoFacts, shown: readonly MemoryItem[]): Warning[] {
  const warnings: Warning[] = [];
  const last = state.sessions[state.sessions.length - 1];
  if (facts.detached) warnings.push({ kind: 'branch', text: 'HEAD is detached: memory shown is the history of this commit; new memories will not follow a branch.' });
  else if (last && last.branch && facts.branch && last.branch !== facts.branch) {
    warnings.push({ kind: 'branch', text: `You are on branch ${facts.branch}; the last session worked on ${last.branch}.` });
  }

  for (const [path, item] of referencedFiles(shown)) {
    if (facts.missingFiles.has(path)) warnings.push({ kind: 'missing-file', text: `${path} no longer exists (named in: "${clip(item.content)}").` });
  }

  const deps = parseDependencies(facts.manifests);
  const present = (tech: Technology): { checked: Ecosystem[]; found: boolean } => {
    const checked = (Object.keys(tech.packages) as Ecosystem[]).filter((eco) => deps.has(eco));
    return { checked, found: checked.some((eco) => (tech.packages[eco] ?? []).some((p) => hasPackage(deps.get(eco) as Set<string>, p))) };
  };
  const genericDb = [...deps.values()].some((names) => [...names].some((n) => GENERIC_DB.has(n)));
  const manifestNames = (ecos: Ecosystem[]) => facts.manifests.filter((m) => ecos.includes(ECOSYSTEM_OF[m.path.split('/').pop() ?? ''] as Ecosystem)).map((m) => m.path).join(', ');
  const seen = new Set<string>();
  for (const item of shown) {
    if (item.type !== 'decision_made' || item.tier !== 'active') continue;
    const chosen = chosenPart(item.content);
    for (const tech of TECHNOLOGIES) {
      if (seen.has(tech.name) || !reliedOn(chosen, tech.pattern)) continue;
      const { checked, found } = present(tech);
      if (checked.length === 0 || found || (genericDb && DATABASES.has(tech.name))) continue;
      seen.add(tech.name);
      // "Does not", not "no longer": the manifest's history was not read, and it may never have.
      warnings.push({ kind: 'dependency', text: `A decision relies on ${tech.name}, but ${manifestNames(checked)} does not list it ("${clip(item.content)}").` });
    }
  }
  for (const item of shown) {
    if (item.type !== 'approach_rejected') continue;
    const subject = chosenPart(item.content); // "Rejected MySQL; we use Postgres" rejected MySQL
    for (const tech of TECHNOLOGIES) {
      if (seen.has(tech.name) || !tech.pattern.test(subject)) continue;
      const { checked, found } = present(tech);
      if (checked.length === 0 || !found) continue;
      // Only when the rejection is about this technology, not a decision that merely mentions it.
      if (state.decisions.some((d) => d.tier === 'active' && tech.pattern.test(d.content))) continue;
      seen.add(tech.name);
      warnings.push({ kind: 'dependency', text: `${tech.name} was rejected, yet ${manifestNames(checked)} depends on it ("${clip(item.content)}").` });
    }
    // A package the list of technologies does not know, named as the thing rejected ("Joi: …").
    const named = rejectedPackage(subject);
    if (!named || [...seen].some((name) => name.toLowerCase() === named) || TECHNOLOGIES.some((tech) => tech.pattern.test(named))) continue;
    const ecos = [...deps].filter(([, names]) => names.has(named)).map(([eco]) => eco);
    if (ecos.length === 0) continue;
    // An English word ("debug", "async") names a package only when written as code.
    if (synonymsOf(named).length > 0 && !item.content.includes(`\`${named}`)) continue;
    // As above: a decision in force that mentions it is what the rejection is about, not the package.
    const word = new RegExp(`(?<![\\w@/.-])${named.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\w/-])`, 'i');
    if (state.decisions.some((d) => d.tier === 'active' && word.test(d.content))) continue;
    seen.add(named);
    warnings.push({ kind: 'dependency', text: `${named} was rejected, yet ${manifestNames(ecos)} depends on it ("${clip(item.content)}").` });
  }

  if (facts.commitsByOthers.length > 0) {
    const authors = [...new Set(facts.commitsByOthers.map((c) => c.author))];
    const subjects = facts.commitsByOthers.slice(0, 3).map((c) => `"${clip(c.subject, 60)}"`).join(', ');
    const n = facts.commitsByOthers.length;
    warnings.push({ kind: 'commits', text: `${n} commit${n === 1 ? '' : 's'} by ${authors.slice(0, 3).join(', ')}${authors.length > 3 ? ' and others' : ''} since the last session: ${subjects}${n > 3 ? ', …' : ''}.` });
  }
  return warnings;
}

/**
 * What a decision chose: its words before what it weighed the choice against or why ("Use
 * Postgres rather than Redis since …" chose Postgres; "Use express-rate-limit; it supports Redis
 * stores later" chose express-rate-limit).
 */
export function chosenPart(decision: string): string {
  const cut = /\s(?:rather than|instead of|in place of|over|versus|vs\.?|not|because|since|as|so|but|unless|though|although|until|which|that|for now)\s|[;:(—–]|,\s|\.\s/i.exec(decision);
  return cut ? decision.slice(0, cut.index) : decision;
}

/**
 * The package a rejection names first, as the thing it turned down ("Joi", "Rejected lodash:",
 * "Using axios here"), lower-cased; not a word further in, which may be anything, nor one that
 * only describes what follows ("a debug endpoint").
 */
function rejectedPackage(subject: string): string | null {
  const rest = subject.replace(/^\s*(?:(?:rejected|ruled out|dropped|considered|tried|not|no|using|use|adding|add|adopting|adopt|switching to|moving to|pulling in|the|a|an)\s+)*/i, '').replace(/^`([^`\s]+)`/, '$1');
  // The name alone, or followed by what it was for: "debug endpoint" names an endpoint, not debug.
  const first = /^(@?[a-z0-9][\w.-]*(?:\/[\w.-]+)?)(?=\s*$|[,;:.!?)—–]|\s+(?:for|as|in|on|to|here|there|because|since|with|at|instead|over|was|is|would|wouldn't|doesn't|isn't)\b)/i.exec(rest)?.[1]?.replace(/\.$/, '');
  return first && first.length >= 2 ? first.toLowerCase() : null;
}

/** Named in the chosen words, and not as what is dropped ("Don't use Redis", "Replace Redis with …", "Move off Redis"). */
function reliedOn(chosen: string, pattern: RegExp): boolean {
  const at = chosen.search(pattern);
  if (at < 0) return false;
  return !/\b(?:no|not|never|don'?t|do not|without|avoid(?:ing)?|drop(?:ping)?|remov(?:e|ing)|replac(?:e|ing)|stop using|get rid of|move (?:off|away from)|migrate (?:off|away from)|from|ditch(?:ing)?|retire)\b/i.test(chosen.slice(0, at));
}

function hasPackage(names: ReadonlySet<string>, pkg: string): boolean {
  if (names.has(pkg)) return true;
  // go modules: a dependency on a module path below the package's
  for (const n of names) if (n.startsWith(`${pkg}/`)) return true;
  return false;
}

const clip = (s: string, max = 80): string => (s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`);
