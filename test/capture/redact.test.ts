import { describe, expect, it } from 'vitest';
import { redactDeep, redactText } from '../../src/capture/redact.js';

// Fake credentials in the shapes providers issue; none is real.
const SECRETS: Array<[string, string]> = [
  ['aws access key id', 'AKIAZ7QW3ERT5YUI8OPL'],
  ['aws secret in an export', 'export AWS_SECRET_ACCESS_KEY=Zx9fK2mQ7rT4vB8nL1pW6sD3hJ5gC0aE2yU7iO4q'],
  ['github classic token', 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ0123456789'],
  ['github fine-grained token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH'],
  ['openai key', 'sk-proj-Q2w3E4r5T6y7U8i9O0pAsDfGhJkLzXcVbNm1'],
  ['anthropic key', 'sk-ant-api03-Zq8Wx7Ec6Rv5Tb4Yn3Um2Ik1Ol0PzXcVbNmAsDfGhJkL'],
  ['stripe live key', 'sk_live_51MzQ8rLkP4vW2xT9nB7cY3dF6gH1jK5'],
  ['slack bot token', 'xoxb-284751936402-5839201746382-Gk7Lm2Nq9Rt4Vx6Zb8Cd1Ef3'],
  ['google api key', 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY'],
  ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  ['private key block', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----'],
  ['password in a url', 'postgres://app:Wq8!zR2p@db.internal:5432/orders'],
  ['password in a connection string', 'Server=db;Database=app;User Id=sa;Password=Pl4nt3d-S3cret;'],
  ['password assignment', 'DB_PASSWORD="correct-horse-battery-9"'],
  ['json password', '{"password": "Tr0ub4dor&3x"}'],
  ['bearer header', 'curl -H "Authorization: Bearer 8f14e45fceea167a5a36dedd4bea2543abcd"'],
  ['high-entropy api key near its name', 'the api key is 9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee'],
];

describe('redaction', () => {
  it.each(SECRETS)('removes a %s and counts it', (_kind, secret) => {
    const { text, count } = redactText(`before ${secret} after`);
    const sensitive = secret.includes('://') ? 'Wq8!zR2p' : secret.includes('Password=') ? 'Pl4nt3d-S3cret' : secret.replace(/^.*?[=:]\s*"?/, '').replace(/"?}?$/, '');
    expect(text).not.toContain(sensitive.slice(0, 20));
    expect(text).toMatch(/\[REDACTED:[a-z-]+\]/);
    expect(count).toBeGreaterThanOrEqual(1);
  });

  it.each([
    'I decided to use Postgres rather than Mongo since we need transactions',
    'the password is read from process.env.DB_PASSWORD',
    'secret_key = os.environ["SECRET_KEY"]',
    'token = getToken(refreshToken)',
    'set API_KEY=${API_KEY} in the workflow',
    'src/auth/token-refresh.ts handles expiry',
    'commit 4f1d2c3b9a8e7f6d5c4b3a29181716151413 fixed it',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(redactText(text)).toEqual({ text, count: 0 });
  });

  it('keeps the user of a URL and the shape of the text', () => {
    expect(redactText('redis://cache:hunter2hunter2@10.0.0.5:6379').text).toBe('redis://cache:[REDACTED:password]@10.0.0.5:6379');
  });

  it('reaches every string inside nested meta', () => {
    const { value, count } = redactDeep({ command: 'export GITHUB_TOKEN=ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ0123456789', nested: ['AKIAZ7QW3ERT5YUI8OPL'] });
    expect(JSON.stringify(value)).not.toMatch(/ghp_R4nd|AKIAZ7/);
    expect(count).toBe(2);
  });
});
