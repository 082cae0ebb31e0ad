import { describe, expect, it } from 'vitest';
import { extractCandidates } from '../../src/capture/extract.js';
import { redactDeep, redactText } from '../../src/capture/redact.js';
import { assistant, session, toolResult, toolUse, user } from '../helpers/transcript.js';

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
  ['firebase cloud messaging server key', 'AAAA5kT3xQz:APA91bHq2Lr8mVw3Nc0pXs7Yd4Ke9JfTg6Ub1Ro5Mi2Za8Vn3Wc7Qx0Ly4Hs9Pe6Dj1Tk5Gf8Bu2Aw7Nm3Rq0Zv4Xc9Ey6Li1Os5Kb8Fh2Jp7Tg3Md0Wn4Qs9Vu6Ya1Rc5Xe8Hi2Lo7Pk3Nb0Sf4Gt9Du6Wm1Zq5Jv8Ca2Ex7Ky3Ir0Ol4Uh9Mp6Bs1Tn5Fw8Qd2Gy7Vj3Xk0'],
  ['rubygems api key', 'rubygems_4f0c9d2e7a1b8c3d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b'],
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

  it('names a RubyGems API key (rubygems_ and 48 hex digits) as one, and leaves identifiers that merely start the same', () => {
    const key = 'rubygems_4f0c9d2e7a1b8c3d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b';
    expect(redactText(`GEM_HOST_API_KEY=${key}`).text).not.toContain('4f0c9d2e');
    expect(redactText(`gem push with ${key} in ~/.gem/credentials`).text).toBe('gem push with [REDACTED:rubygems-key] in ~/.gem/credentials');
    expect(redactText('rubygems_version is read from the gemspec')).toEqual({ text: 'rubygems_version is read from the gemspec', count: 0 });
  });

  it('keeps the user of a URL and the shape of the text', () => {
    expect(redactText('redis://cache:hunter2hunter2@10.0.0.5:6379').text).toBe('redis://cache:[REDACTED:password]@10.0.0.5:6379');
  });

  // Only the password goes; the program, its flags, the user and the host stay readable.
  it.each([
    ['redis://:p4ssw0rdXYZ@cache:6379', 'redis://:[REDACTED:password]@cache:6379'],
    ['mongodb+srv://admin:pw@cluster0.abc.mongodb.net/db', 'mongodb+srv://admin:[REDACTED:password]@cluster0.abc.mongodb.net/db'],
    ['postgres://admin:admin@db/app', 'postgres://admin:[REDACTED:password]@db/app'],
    ['postgres://app:p@ss@db/app', 'postgres://app:[REDACTED:password]@db/app'],
    ['git clone https://deploy:Gh0stT0ken99@git.example.com/o/r.git', 'git clone https://deploy:[REDACTED:password]@git.example.com/o/r.git'],
    ['curl -u admin:Sup3rS3cret! https://x.example.com', 'curl -u admin:[REDACTED:password] https://x.example.com'],
    ['curl -sS --user "ci:Tr4v1s-pw" https://x.example.com', 'curl -sS --user "ci:[REDACTED:password]" https://x.example.com'],
    ['curl -uadmin:Sup3rS3cret https://x.example.com', 'curl -uadmin:[REDACTED:password] https://x.example.com'],
    ['curl --proxy-user proxy:Pr0xyPw https://x.example.com', 'curl --proxy-user proxy:[REDACTED:password] https://x.example.com'],
    ['mysql -u root -pMyS3cretPass db', 'mysql -u root -p[REDACTED:password] db'],
    ['mysql -uroot -p123456 app < dump.sql', 'mysql -uroot -p[REDACTED:password] app < dump.sql'],
    ['mysqldump -h db -P 3306 -u backup -p"Dump3rPw" shop', 'mysqldump -h db -P 3306 -u backup -p"[REDACTED:password]" shop'],
    ['mariadb-dump -u root -pM4r1aPw --all-databases', 'mariadb-dump -u root -p[REDACTED:password] --all-databases'],
    ['mysql --password=MyS3cretPass db', 'mysql --password=[REDACTED:password] db'],
    ['wget --password=W9etPass https://x.example.com/f', 'wget --password=[REDACTED:password] https://x.example.com/f'],
    ['sshpass -p hunter22 ssh -p 2222 deploy@host', 'sshpass -p [REDACTED:password] ssh -p 2222 deploy@host'],
    ["export SSHPASS='hunter22' && sshpass -e ssh host", "export SSHPASS='[REDACTED:password]' && sshpass -e ssh host"],
    ['PGPASSWORD=pgS3cret psql -h db -U app', 'PGPASSWORD=[REDACTED:secret] psql -h db -U app'],
    ['docker login -u me -p Dock3rPw registry.example.com', 'docker login -u me -p [REDACTED:password] registry.example.com'],
    ['redis-cli -h cache -p 6379 -a R3disPw ping', 'redis-cli -h cache -p 6379 -a [REDACTED:password] ping'],
    ['mongosh -u admin -p M0ngoPw --authenticationDatabase admin', 'mongosh -u admin -p [REDACTED:password] --authenticationDatabase admin'],
    ['ldapsearch -x -D cn=admin,dc=ex -w Ld4pPw -b dc=ex', 'ldapsearch -x -D cn=admin,dc=ex -w [REDACTED:password] -b dc=ex'],
    ['openssl pkcs12 -in a.p12 -passin pass:P12pass -out a.pem', 'openssl pkcs12 -in a.p12 -passin pass:[REDACTED:password] -out a.pem'],
    // Generated and base64 passwords hold `/`; the host after them stays.
    ['redis-cli -u redis://:Zq8/Xw7+Cv6BnRedis@cache.internal:6379 ping', 'redis-cli -u redis://:[REDACTED:password]@cache.internal:6379 ping'],
    ['psql postgres://app:Pg/Sl4sh+Pass9word@db.internal/app', 'psql postgres://app:[REDACTED:password]@db.internal/app'],
    ['https://ci:pw/x9Tq@git.example.com/o/r.git@v2', 'https://ci:[REDACTED:password]@git.example.com/o/r.git@v2'],
    // Both `@` and `/` in the password: it runs to the @ before something host-shaped.
    ['postgres://app:p@ss/w0rd@db:5432/app', 'postgres://app:[REDACTED:password]@db:5432/app'],
    ['psql postgres://u:Pa@ss/Wd9@localhost/db', 'psql postgres://u:[REDACTED:password]@localhost/db'],
    ['mongodb://u:s3cr@t/x9@h1:27017,h2:27017/db', 'mongodb://u:[REDACTED:password]@h1:27017,h2:27017/db'],
    ['https://u:pw9Xq@cdn.example.com/pkg@1.2.3', 'https://u:[REDACTED:password]@cdn.example.com/pkg@1.2.3'],
    // An opaque token as the URL's only user.
    ['git push https://4f2a9c81d7e3b5064a1f8c2e9d7b3a5f6c1e8d20@github.com/acme/app.git', 'git push https://[REDACTED:token]@github.com/acme/app.git'],
    ['git push https://ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ0123456789@github.com/acme/app.git', 'git push https://[REDACTED:github-token]@github.com/acme/app.git'],
    // htpasswd -b and its like take the password after the file and the user (after the user with -n).
    ['htpasswd -b .htpasswd admin Sup3rS3cret', 'htpasswd -b .htpasswd admin [REDACTED:password]'],
    ["htpasswd -bc /etc/nginx/.htpasswd admin 'Sup3rS3cret'", "htpasswd -bc /etc/nginx/.htpasswd admin '[REDACTED:password]'"],
    ['htpasswd -B -C 12 -b .htpasswd admin Sup3rS3cret && nginx -s reload', 'htpasswd -B -C 12 -b .htpasswd admin [REDACTED:password] && nginx -s reload'],
    ['htpasswd -nbB admin Sup3rS3cret', 'htpasswd -nbB admin [REDACTED:password]'],
    ['mosquitto_passwd -b passwd sensor M0squ1tto', 'mosquitto_passwd -b passwd sensor [REDACTED:password]'],
    ['keytool -list -keystore app.jks -storepass S3cretStore', 'keytool -list -keystore app.jks -storepass [REDACTED:password]'],
    ['apksigner sign --ks app.jks --ks-pass pass:Ks1Pass app.apk', 'apksigner sign --ks app.jks --ks-pass pass:[REDACTED:password] app.apk'],
    ["sqlcmd -S db -U sa -P 'Sq1Pass!' -Q \"select 1\"", "sqlcmd -S db -U sa -P '[REDACTED:password]' -Q \"select 1\""],
    ['smbclient //fs/share -U alice%Smb1Pass', 'smbclient //fs/share -U alice%[REDACTED:password]'],
    ['zip -P Z1pPass out.zip notes.txt', 'zip -P [REDACTED:password] out.zip notes.txt'],
    ['7z a -pS3venZip out.7z dir', '7z a -p[REDACTED:password] out.7z dir'],
    ['rabbitmqctl add_user app Rabb1tPw', 'rabbitmqctl add_user app [REDACTED:password]'],
    ["echo 'deploy:Chp4sswd' | sudo chpasswd", "echo 'deploy:[REDACTED:password]' | sudo chpasswd"],
    // The flag and the key stay around a value that is gone; the flag itself is not a token.
    ['kubectl create secret generic db --from-literal=password=K8sPassw0rd', 'kubectl create secret generic db --from-literal=password=[REDACTED:password]'],
    ['kubectl create secret generic db --from-literal=username=admin --from-literal=password=K8sPassw0rd', 'kubectl create secret generic db --from-literal=username=admin --from-literal=password=[REDACTED:password]'],
    // Azure connection strings and shared access signatures.
    [
      'az storage blob list --connection-string "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Zq8/Xw7+Cv6Bn5Mm4Ll3Kk2Jj1Hh0Gg9Ff8Dd7Ss6Aa5Qq4Ww3Ee2Rr1Tt0Yy9Uu8Ii7Oo6Pp5==;EndpointSuffix=core.windows.net"',
      'az storage blob list --connection-string "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=[REDACTED:azure-key];EndpointSuffix=core.windows.net"',
    ],
    ['Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=Qw9Er8Ty7Ui6Op5As4Df3Gh2Jk1Lz0Xc9Vb8Nm7Aa6=', 'Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=[REDACTED:azure-key]'],
    [
      'BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-01-01T00:00:00Z&sig=Xy7%2BAb9Cd8Ef7Gh6Ij5Kl4Mn3Op2Qr1St0Uv%3D',
      'BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-01-01T00:00:00Z&sig=[REDACTED:azure-sas]',
    ],
    ['curl "https://acme.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&sig=Xy7%2BAb9Cd8Ef7Gh6Ij5Kl4Mn3Op2%3D"', 'curl "https://acme.blob.core.windows.net/c/b.txt?sv=2022-11-02&sp=r&sig=[REDACTED:azure-sas]"'],
    ['mysql -pHunter2Secret -u root', 'mysql -p[REDACTED:password] -u root'],
    ['mysqldump -pX9secret shop > dump.sql', 'mysqldump -p[REDACTED:password] shop > dump.sql'],
    ['mongosh -p S3cretpw --host db', 'mongosh -p [REDACTED:password] --host db'],
    ['export DB_PASS=correcthorse', 'export DB_PASS=[REDACTED:secret]'],
    ["SECRET_KEY='Secret words here' ./manage.py runserver", "SECRET_KEY='[REDACTED:secret]' ./manage.py runserver"],
  ])('redacts only the secret in %s', (input, expected) => {
    expect(redactText(input)).toEqual({ text: expected, count: 1 });
  });

  // Flags that look like a password flag but are a port, a user, a prompt or a variable.
  it.each([
    'ssh -p 22 deploy@host',
    'docker run -p 8080:80 nginx',
    'docker run --name mysql -p3306:3306 -d mysql:8',
    'docker run --name mongo -p 27017:27017 mongo',
    'docker run -u 1000:1000 app',
    'git push -u origin main',
    'scp -P 2222 build.tgz host:/tmp',
    'mkdir -p src/capture && ssh -p 2222 host',
    'redis-cli -h cache -p 6379 ping',
    'mysql -u root -p app',
    'mysql -h db -P 3306 -u root -p',
    'mongosh -u admin -p --authenticationDatabase admin',
    'docker login -u me --password-stdin registry.example.com',
    'curl -u admin https://x.example.com',
    'curl -u "$API_USER:$API_PASS" https://x.example.com',
    'curl --user-agent "probe:1.0" https://x.example.com',
    'openssl pkcs12 -in a.p12 -passin env:P12_PASS -out a.pem',
    'https://user@host.example.com:8443/path@v2',
    'https://host.example.com:8443/path@v2',
    'curl http://localhost:3000/api/users/@me',
    'git clone https://deploy@git.example.com/o/r.git',
    'git clone https://john.doe%40example.com@git.example.com/o/r.git',
    'htpasswd -c .htpasswd admin',
    'htpasswd -D .htpasswd admin',
    'keytool -list -storepass:env STOREPASS -keystore app.jks',
    'tar -czf out.tgz -P dir',
    'ansible-vault encrypt vars.yml --vault-password-file ~/.config/ansible/vault_pass',
    'vitest --pass-with-no-tests src/foo.test.ts',
    'curl "https://x.example.com/?bypass_cache=always"',
  ])('leaves a command without a password alone: %s', (text) => {
    expect(redactText(text)).toEqual({ text, count: 0 });
  });

  it('keeps the URL after a bearer token', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    expect(redactText(`curl -H "Authorization: Bearer ${jwt}" https://api.example.com/me`)).toEqual({
      text: 'curl -H "Authorization: Bearer [REDACTED:jwt]" https://api.example.com/me',
      count: 1,
    });
    expect(redactText('curl -H "Authorization: Bearer 8f14e45fceea167a5a36dedd4bea2543abcd" https://api.example.com:8443/v1/users/me/settings')).toEqual({
      text: 'curl -H "Authorization: Bearer [REDACTED:authorization]" https://api.example.com:8443/v1/users/me/settings',
      count: 1,
    });
  });

  it('never reads the kind inside a placeholder as a credential word', () => {
    expect(redactText('[REDACTED:password]@cluster0.abc.mongodb.net and [REDACTED:github-token] cluster0.abc.mongodb.net')).toEqual({
      text: '[REDACTED:password]@cluster0.abc.mongodb.net and [REDACTED:github-token] cluster0.abc.mongodb.net',
      count: 0,
    });
  });

  it('counts a secret once however often it appears', () => {
    expect(redactText('AKIAZ7QW3ERT5YUI8OPL then AKIAZ7QW3ERT5YUI8OPL again')).toEqual({ text: '[REDACTED:aws-access-key] then [REDACTED:aws-access-key] again', count: 1 });
    // A Bash command is both an event's content and its meta.command.
    const command = 'mysql -u root -pMyS3cretPass app';
    const { value, count } = redactDeep({ content: `Ran ${command}`, meta: { command } });
    expect(value).toEqual({ content: 'Ran mysql -u root -p[REDACTED:password] app', meta: { command: 'mysql -u root -p[REDACTED:password] app' } });
    expect(count).toBe(1);
  });

  it('reaches every string inside nested meta', () => {
    const { value, count } = redactDeep({ command: 'export GITHUB_TOKEN=ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ0123456789', nested: ['AKIAZ7QW3ERT5YUI8OPL'] });
    expect(JSON.stringify(value)).not.toMatch(/ghp_R4nd|AKIAZ7/);
    expect(count).toBe(2);
  });
});

describe('redaction of credentials stated in prose', () => {
  // A credential word, then is/was/set to, a colon or a quote, then a value shaped like a secret.
  it.each([
    ['prod db password is Zq8!vR2#pLm9', 'prod db password is [REDACTED:password]'],
    ['the prod db password is Zq8!vR2#pLm9, keep that in mind', 'the prod db password is [REDACTED:password], keep that in mind'],
    ['the deploy key passphrase is tangerine-otter-42', 'the deploy key passphrase is [REDACTED:password]'],
    ['the redis password is "s3cr3t-redis-pw"', 'the redis password is "[REDACTED:password]"'],
    ['the password for the admin account is hunter22.', 'the password for the admin account is [REDACTED:password].'],
    ['the db password was changed to Tr0ub4dor&3 yesterday', 'the db password was changed to [REDACTED:password] yesterday'],
    ["password is set to 'Zq8!vR2#pLm9'", "password is set to '[REDACTED:password]'"],
    ['the password is `hunter2`', 'the password is `[REDACTED:password]`'],
    ['the password is P@ss1!', 'the password is [REDACTED:password]'],
    ['the passphrase is "correct horse battery staple"', 'the passphrase is "[REDACTED:password]"'],
    ['The API key is Ab3dE9fG2hK7 for staging.', 'The API key is [REDACTED:secret] for staging.'],
    ['the license key is ABCD-1234-EFGH-5678', 'the license key is [REDACTED:secret]'],
    ['the PIN is 4821', 'the PIN is [REDACTED:pin]'],
    ['admin login: admin / P@ssw0rd2024!', 'admin login: admin / [REDACTED:password]'],
    ['user/pass: deploy / Zq8!vR2#x', 'user/pass: deploy / [REDACTED:password]'],
  ])('redacts the value in %j', (input, expected) => {
    expect(redactText(input)).toEqual({ text: expected, count: 1 });
  });

  // What is said about a credential, not the credential: words, descriptions, names, sizes.
  it.each([
    'the password is stored hashed with bcrypt',
    'the token is refreshed every hour',
    'the token is refreshed!',
    'password is required',
    'the password should be at least 12 characters',
    'the token is base64-encoded',
    'the token is short-lived',
    'the token is valid for 24h',
    'the token is 32 bytes long',
    'the api key is 40 characters',
    'the secret is HMAC-SHA256',
    'the secret is AES-256-GCM encrypted',
    'the password is SHA-256 hashed',
    'the token is a JWT signed with HS256',
    'the secret is stored in Vault under secret/data/app',
    'the secret is config.secret_v2',
    'the password is SECRET_KEY_2',
    'the password is ${DB_PASSWORD}',
    'the token is process.env.TOKEN',
    'the token is v1.2.3',
    'the token bucket is refilled at 10/s',
    'the pin is 4 digits',
    'the LED pin is 13',
    'login: admin / admin',
    'user: alice/notes2024',
    'read / write access for the user / admin2024 role',
    '/Users/sam/projects/bookclub',
    'accounts/views.py:58 sends the mail',
  ])('leaves %j alone', (text) => {
    expect(redactText(text)).toEqual({ text, count: 0 });
  });

  it('reaches what a session stores: tags, prompts and a Bash command with its meta', () => {
    const text = session([
      user('the prod db password is Zq8!vR2#pLm9, keep that in mind'),
      assistant('[MEMORY: learned] prod db password is Zq8!vR2#pLm9'),
      assistant('[MEMORY: learned] admin login: admin / P@ssw0rd2024!'),
      assistant('[MEMORY: learned] the deploy key passphrase is tangerine-otter-42'),
      assistant('[MEMORY: learned] the redis password is "s3cr3t-redis-pw"'),
      toolUse('h1', 'Bash', { command: 'htpasswd -b .htpasswd admin Sup3rS3cret' }),
      toolResult('h1', 'Adding password for user admin'),
    ]);
    const { candidates } = extractCandidates(text);
    expect(JSON.stringify(candidates)).not.toMatch(/Zq8!vR2#pLm9|P@ssw0rd2024|tangerine-otter-42|s3cr3t-redis-pw|Sup3rS3cret/);
    const ran = candidates.find((c) => c.type === 'command_run');
    expect(ran).toMatchObject({ content: 'Ran htpasswd -b .htpasswd admin [REDACTED:password]', meta: { command: 'htpasswd -b .htpasswd admin [REDACTED:password]', redactions: 1 } });
    expect(candidates.filter((c) => c.provenance === 'layer3:memory-tag').map((c) => c.content)).toEqual([
      'prod db password is [REDACTED:password]',
      'admin login: admin / [REDACTED:password]',
      'the deploy key passphrase is [REDACTED:password]',
      'the redis password is "[REDACTED:password]"',
    ]);
  });
});
