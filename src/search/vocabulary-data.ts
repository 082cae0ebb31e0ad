/**
 * The software vocabulary query expansion draws on (see query-plan.ts). Generated data; edit
 * the groups, not the code.
 */
export interface Vocabulary {
  equivalents: string[][];
  broader: Record<string, string[]>;
  intents: Record<string, string[]>;
}

export const VOCABULARY: Vocabulary = {
  equivalents: [['auth', 'authentication', 'authn'], ['db', 'database'], ['k8s', 'kubernetes'], ['sign in', 'log in', 'login']],
  broader: { database: ['postgres', 'postgresql', 'mysql', 'sqlite', 'mongodb'], cache: ['redis', 'memcached'] },
  intents: { decision: ['pick', 'picked', 'choose', 'chose', 'decide', 'decided'], rejected: ['why not', 'ruled out', 'reject', 'rejected', 'avoid'], learned: ['learn', 'learned'], error: ['fix', 'fixed', 'broke'], preference: ['prefer'], plan: ['plan'], done: ['done', 'finished'] },
};
