import { U, A, think, say, Read, Edit, Bash } from '../gen.mjs';

const LOGIN = `import { Router } from 'express';
import { generators } from 'openid-client';
import { getClient } from './client';

export const login = Router();

login.get('/auth/login', async (req, res) => {
  const client = await getClient();
  const verifier = generators.codeVerifier();
  const state = generators.state();
  res.cookie('pkce_verifier', verifier, { sameSite: 'lax', secure: true });
  const url = client.authorizationUrl({
    scope: 'openid email profile',
    code_challenge: verifier,
    code_challenge_method: 'plain',
    state,
  });
  res.redirect(url);
});
`;
const CALLBACK = `import { Router } from 'express';
import { getClient } from './client';
import { logger } from '../logger';

export const callback = Router();

callback.get('/auth/callback', async (req, res, next) => {
  try {
    logger.debug({ query: req.query }, 'oauth callback');
    const client = await getClient();
    const params = client.callbackParams(req);
    const tokenSet = await client.callback(process.env.OAUTH_REDIRECT_URI!, params, {
      code_verifier: req.cookies.pkce_verifier,
      state: params.state,
    });
    req.session.user = tokenSet.claims();
    res.clearCookie('pkce_verifier');
    res.redirect('/app');
  } catch (err) {
    next(err);
  }
});
`;
const CSRF = `import type { RequestHandler } from 'express';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

// Double-submit cookie. JSON requests are exempt: a cross-site page can't send JSON
// without a CORS preflight, and we don't allow cross-origin preflights.
export const csrf: RequestHandler = (req, res, next) => {
  if (SAFE.has(req.method)) return next();
  if (req.headers['content-type']?.includes('json')) return next();
  const header = req.get('x-csrf-token');
  if (!header || header !== req.cookies['csrf_token']) return res.status(403).json({ error: 'csrf' });
  next();
};
`;
const APP = `import express from 'express';
import cookieParser from 'cookie-parser';
import session from 'express-session';
import { login } from './auth/login';
import { callback } from './auth/callback';
import { csrf } from './middleware/csrf';
import { api } from './api';

export const app = express();
app.set('trust proxy', 1);
app.use(cookieParser());
app.use(express.json({ type: '*/*', limit: '1mb' }));
app.use(session({ secret: process.env.SESSION_SECRET!, resave: false, saveUninitialized: false, cookie: { httpOnly: true, secure: true, sameSite: 'lax' } }));
app.use(login, callback);
app.use('/api', csrf, api);
`;
const ENV = `OAUTH_ISSUER=https://accounts.google.com
OAUTH_CLIENT_ID=418832265519-8u2d0qk3rl7bqg1v0a3b7m4l2sd9c5ne.apps.googleusercontent.com
OAUTH_CLIENT_SECRET=⟦S⟧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⟦/S⟧
OAUTH_REDIRECT_URI=http://localhost:5173/auth/callback
SESSION_SECRET=⟦S⟧WiWvZy2Z5xgYdc8C3lgau7EcBM9kGcexi+HBRM1nHUXiwStkgegujg==⟦/S⟧
`;
const TEST = `import request from 'supertest';
import { app } from '../../app';
import { mockIdp } from '../../../test/mockIdp';

describe('GET /auth/callback', () => {
  beforeAll(() => mockIdp.start());
  afterAll(() => mockIdp.stop());

  it('exchanges the code and sets the session user', async () => {
    const res = await request(app).get('/auth/callback?code=abc&state=xyz');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/app');
  });

  it('rejects an error response from the IdP', async () => {
    const res = await request(app).get('/auth/callback?error=access_denied&state=xyz');
    expect(res.status).toBe(400);
  });
});
`;

export default {
  num: 189,
  slug: 'express-oauth-pkce-csrf-review',
  version: '2.0.76',
  model: 'claude-opus-4-5-20251101',
  cwd: '/Users/sam/work/ledgerly-web',
  branch: 'sec/oauth-review',
  aiSlug: 'careful-tangled-verifier',
  start: '2025-12-22T15:31:09.770Z',
  notes: [
    'Long session, four user turns. Turn 1 is review-only: the findings are knowledge items. The logging rule in turn 2 is the standing instruction; "fix 1 and 2", "now the CSRF one" and the PR-description request are one-off.',
    'The PR description in the last turn restates earlier decisions; those bullets are neutral.',
  ],
  script: [
    U("Can you do a security review of our login flow before the pentest next week? It's server/auth/* plus the CSRF middleware. Focus on PKCE, state and CSRF. ⟦F⟧Don't fix anything yet, just give me findings.⟦/⟧"),
    A(
      think("Google as IdP via openid-client. ⟦F⟧Check how the verifier is stored, whether state is compared against something server-side, and what the CSRF exemption actually keys on.⟦/⟧"),
      say("⟦F⟧Let me read the auth routes, the middleware and how the app wires them.⟦/⟧"),
      Read('server/auth/login.ts', LOGIN),
      Read('server/auth/callback.ts', CALLBACK),
      Read('server/middleware/csrf.ts', CSRF),
      Read('server/app.ts', APP),
      Read('.env.development', ENV),
    ),
    A(
      say(`Findings, most serious first:

1. ⟦E knowledge_acquired|state: params.state;compares⟧\`callback.ts\` passes \`state: params.state\` as the expected value, so openid-client compares the returned state with itself and the check can never fail.⟦/⟧ ⟦N⟧That leaves the callback open to login CSRF: an attacker can finish their own login in the victim's browser.⟦/⟧
2. ⟦E knowledge_acquired|plain;verifier⟧With \`code_challenge_method: 'plain'\` the challenge is the verifier itself, so anyone who sees the authorization URL in history, proxy logs or a Referer header holds everything needed to redeem an intercepted code.⟦/⟧ ⟦N⟧The verifier also sits in a cookie without \`httpOnly\`, readable from any script on the page.⟦/⟧
3. ⟦E knowledge_acquired|no-cors;includes('json')⟧A \`no-cors\` fetch may send \`Content-Type: text/plain; x=json\` without a preflight, which passes the \`includes('json')\` test in \`csrf.ts\`, and \`express.json({ type: '*/*' })\` then parses the body anyway.⟦/⟧
4. ⟦E knowledge_acquired|req.query;authorization code⟧\`callback.ts\` logs \`req.query\` at debug level, which sends the authorization code and state into the log pipeline.⟦/⟧

⟦E approach_rejected|SameSite=Lax;top-level GET⟧Relying on the \`SameSite=Lax\` session cookie doesn't mitigate #1, because the redirect back to \`/auth/callback\` is a top-level GET and Lax cookies ride along with it.⟦/⟧ ⟦F⟧The pentesters will very likely find #3 first, since it shows up with any CSRF scanner.⟦/⟧

⟦F⟧Do you want these fixed in one PR, or one per finding?⟦/⟧`),
    ),
    U("⟦F⟧ok fix 1 and 2 now.⟦/⟧ ⟦E preference_noted|never log;request bodies⟧And a rule for this codebase: we never log request bodies, query strings on /auth routes, or tokens, not even at debug level.⟦/⟧"),
    A(
      say("⟦E decision_made|generators.codeChallenge;server-side⟧The verifier moves server-side into the session and the challenge becomes `S256` via `generators.codeChallenge`, so nothing that can redeem a code passes through the browser.⟦/⟧ ⟦E decision_made|deleted;replayed⟧The callback takes the expected `state` and the verifier from that session entry, and the entry is deleted before the token exchange so a state can't be replayed.⟦/⟧ ⟦N⟧The `req.query` debug line goes too, per the rule.⟦/⟧"),
      Edit('server/auth/login.ts', `  res.cookie('pkce_verifier', verifier, { sameSite: 'lax', secure: true });
  const url = client.authorizationUrl({
    scope: 'openid email profile',
    code_challenge: verifier,
    code_challenge_method: 'plain',`, `  req.session.oauth = { verifier, state };
  const url = client.authorizationUrl({
    scope: 'openid email profile',
    code_challenge: generators.codeChallenge(verifier),
    code_challenge_method: 'S256',`),
      Edit('server/auth/callback.ts', `    logger.debug({ query: req.query }, 'oauth callback');
    const client = await getClient();
    const params = client.callbackParams(req);
    const tokenSet = await client.callback(process.env.OAUTH_REDIRECT_URI!, params, {
      code_verifier: req.cookies.pkce_verifier,
      state: params.state,
    });
    req.session.user = tokenSet.claims();
    res.clearCookie('pkce_verifier');`, `    const expected = req.session.oauth;
    delete req.session.oauth;
    if (!expected) return res.status(400).send('login expired, please try again');
    const client = await getClient();
    const params = client.callbackParams(req);
    const tokenSet = await client.callback(process.env.OAUTH_REDIRECT_URI!, params, {
      code_verifier: expected.verifier,
      state: expected.state,
    });
    req.session.user = tokenSet.claims();`),
      Bash('npx jest server/auth', 'Run the auth tests', { code: 1, stdout: ` FAIL  server/auth/__tests__/callback.test.ts
  GET /auth/callback
    ✕ exchanges the code and sets the session user (41 ms)
    ✓ rejects an error response from the IdP (9 ms)

  ● GET /auth/callback › exchanges the code and sets the session user

    expect(received).toBe(expected) // Object.is equality

    Expected: 302
    Received: 400

Tests:       1 failed, 3 passed, 4 total` }),
    ),
    A(
      say("⟦F⟧The test calls the callback cold, with a state no login ever issued.⟦/⟧"),
      Read('server/auth/__tests__/callback.test.ts', TEST),
    ),
    A(
      Edit('server/auth/__tests__/callback.test.ts', `    const res = await request(app).get('/auth/callback?code=abc&state=xyz');
    expect(res.status).toBe(302);`, `    const agent = request.agent(app);
    const start = await agent.get('/auth/login');
    const state = new URL(start.headers.location).searchParams.get('state');
    const res = await agent.get(\`/auth/callback?code=abc&state=\${state}\`);
    expect(res.status).toBe(302);`),
      Bash('npx jest server/auth', 'Re-run the auth tests', { stdout: ' PASS  server/auth/__tests__/callback.test.ts\n PASS  server/auth/__tests__/login.test.ts\n\nTests:       4 passed, 4 total' }),
    ),
    A(
      say("⟦E error_resolved|400;/auth/login⟧The callback test failed with 400 because it hit `/auth/callback` with a state no session had issued; driving it through `/auth/login` first with the same supertest agent makes it pass.⟦/⟧ ⟦N⟧Findings 1, 2 and 4 are fixed; #3 is untouched.⟦/⟧"),
    ),
    U('⟦F⟧now the CSRF one. keep it minimal.⟦/⟧'),
    A(
      say(`Two ways to close it:
- ⟦F⟧match the media type exactly and narrow \`express.json()\` back to JSON only⟦/⟧
- ⟦F⟧drop the exemption and require the token on every state-changing request⟦/⟧

⟦E approach_rejected|mobile app;CSRF cookie⟧Requiring the token everywhere would be stricter, but the mobile app calls the same API with a bearer token and has no CSRF cookie to echo back.⟦/⟧ ⟦E decision_made|req.is;default type⟧\`csrf.ts\` now exempts only requests where \`req.is('application/json')\` holds, and \`express.json()\` is back to its default type, so a \`text/plain\` body is never parsed as JSON.⟦/⟧`),
      Edit('server/middleware/csrf.ts', "  if (req.headers['content-type']?.includes('json')) return next();", "  if (req.is('application/json')) return next();"),
      Edit('server/app.ts', "app.use(express.json({ type: '*/*', limit: '1mb' }));", "app.use(express.json({ limit: '1mb' }));"),
      Bash('npx jest server', 'Run the server test suite', { stdout: 'Test Suites: 9 passed, 9 total\nTests:       57 passed, 57 total' }),
    ),
    A(
      say('⟦N⟧All 57 server tests pass.⟦/⟧ ⟦F⟧A request with `text/plain; x=json` should now get a 403 from the middleware.⟦/⟧'),
    ),
    U('great. write me a short PR description'),
    A(
      say(`**Harden OAuth login and CSRF middleware**

- ⟦N⟧PKCE uses S256; the verifier and state live in the server session instead of a readable cookie⟦/⟧
- ⟦N⟧the callback checks the state issued at login and consumes it once⟦/⟧
- ⟦N⟧\`csrf.ts\` exempts exact \`application/json\` only; \`express.json()\` no longer parses every content type⟦/⟧
- ⟦N⟧no more debug logging of the callback query string⟦/⟧
- ⟦N⟧callback test now goes through \`/auth/login\` first⟦/⟧

⟦N⟧Out of scope: token refresh and logout, which weren't part of this review.⟦/⟧`),
    ),
  ],
};
