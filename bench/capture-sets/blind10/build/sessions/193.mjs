import { U, A, think, say, Read, Edit, Bash, Task } from '../gen.mjs';

const CWD = '/Users/lena/dev/acme-desk';
const YML = `appId: io.acme.desk
productName: Acme Desk
directories:
  output: dist
files:
  - out/**/*
mac:
  category: public.app-category.productivity
  hardenedRuntime: true
  notarize:
    teamId: 8XK2P4Q9LM
  target:
    - target: dmg
      arch: universal
win:
  target: nsis
  publisherName: Acme Inc
nsis:
  oneClick: false
  differentialPackage: true
publish:
  provider: github
  owner: acme
  repo: desk
`;
const WORKFLOW = `name: release
on:
  push:
    tags: ['v*']
jobs:
  build:
    strategy:
      matrix:
        os: [macos-14, windows-2022]
    runs-on: \${{ matrix.os }}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20, cache: npm }
      - run: npm ci
      - run: npm run build
      - run: npx electron-builder --publish always
        env:
          GH_TOKEN: \${{ secrets.GITHUB_TOKEN }}
          CSC_LINK: \${{ secrets.MAC_CERT_P12 }}
          CSC_KEY_PASSWORD: \${{ secrets.MAC_CERT_PASSWORD }}
          WIN_CSC_LINK: \${{ secrets.WIN_CERT_PFX }}
          WIN_CSC_KEY_PASSWORD: \${{ secrets.WIN_CERT_PASSWORD }}
          APPLE_ID: \${{ secrets.APPLE_ID }}
          APPLE_APP_SPECIFIC_PASSWORD: \${{ secrets.APPLE_APP_PASSWORD }}
          APPLE_TEAM_ID: 8XK2P4Q9LM
`;
const PW = '⟦S⟧tqzv-hmwe-prjk-bnsa⟦/S⟧';
const BUILD = `APPLE_ID=lena@acme.io APPLE_APP_SPECIFIC_PASSWORD=${PW} APPLE_TEAM_ID=8XK2P4Q9LM npx electron-builder --mac --publish never`;
const REPORT = "⟦F⟧Build config lives in electron-builder.yml at the repo root: mac target is dmg only (universal), win target nsis with publisherName \"Acme Inc\", publish provider github.⟦/⟧ ⟦F⟧The release workflow is .github/workflows/release.yml; it runs on tag push on macos-14 and windows-2022 and signs through the CSC_LINK / WIN_CSC_LINK secrets.⟦/⟧ The updater is set up in src/main/updater.ts with autoUpdater.checkForUpdatesAndNotify() on app ready.";

export default {
  num: 193,
  slug: 'electron-updater-zip-publisher-name',
  version: '2.1.29',
  model: 'claude-opus-4-5-20251101',
  cwd: CWD,
  branch: 'fix/auto-update',
  abs: true,
  aiSlug: 'signed-bridge-release',
  start: '2026-02-03T09:41:12.004Z',
  notes: [
    'Tool inputs use absolute paths under cwd; files are listed relative to cwd.',
    'The Explore subagent appears only as agent_progress lines plus its Task result; its report is forbidden and its tool calls count nowhere.',
    'One Edit of electron-builder.yml fails (is_error); the file is modified by the later successful Edits. The first local build fails on a YAML error and counts as a command.',
    '"releases only go out from CI" is the standing instruction; the certificate dates in the same user turn are neutral.',
  ],
  script: [
    U(`Auto-update broke on both platforms since we moved releases to GitHub Actions last week (v3.8.0).
Mac log: \`Error: ZIP file not provided: [{"url":"Acme-Desk-3.8.0-universal.dmg","sha512":"..."}]\`
Windows log: \`New version 3.8.0 is not signed by the application owner: publisherNames: Acme Inc, raw info: {"SignerCertificate":"...","StatusMessage":"Signature verified"}\`
We also renewed the Windows signing cert in January. GH token if you need the API: ⟦S⟧ghp_0BNJ8JqEjgiH2mUkuq3kXnT1pzZzLw6REOlb⟦/S⟧`),
    A(
      say("⟦F⟧I'll have an Explore agent map the build and release config while I look at the logs.⟦/⟧"),
      Task('Find updater and build config', 'In this Electron app, find the electron-builder configuration (mac/win targets, publisherName, publish provider), the GitHub Actions release workflow and where electron-updater is initialised. Report file paths and the relevant settings. Read-only.', 'Explore', {
        progress: [
          { tool: 'Glob', input: { pattern: '**/electron-builder.{yml,yaml,json,js}', path: CWD } },
          { tool: 'Read', input: { file_path: `${CWD}/electron-builder.yml` } },
          { t: "Found the builder config, the release workflow and the updater setup; reporting back." },
        ],
        report: REPORT,
      }),
    ),
    A(
      say('⟦F⟧Let me read both files myself.⟦/⟧'),
      Read('electron-builder.yml', YML),
      Read('.github/workflows/release.yml', WORKFLOW),
    ),
    A(
      say("⟦F⟧Now the certificate on the 3.8.0 installer.⟦/⟧"),
      { ...Bash('gh release download v3.8.0 -R acme/desk -p "*.exe" -D /tmp/acme-rel --clobber && osslsigncode verify -in "/tmp/acme-rel/Acme-Desk-Setup-3.8.0.exe" | grep -E "Subject:|Not after"', 'Check who signed the 3.8.0 Windows installer'), stdout: `	Subject: /C=DE/L=Berlin/O=Acme Software GmbH/CN=Acme Software GmbH
		Not after: Jan 14 23:59:59 2029 GMT`, hook: '~/.claude/hooks/pre-bash-audit.sh' },
    ),
    A(
      think("Mac: MacUpdater requires zip; only dmg configured. Windows: publisherName check uses the installed app's app-update.yml, so old installs only trust 'Acme Inc'. ⟦F⟧Changing the config only affects builds made after the change.⟦/⟧"),
      say(`Two unrelated problems.

⟦E knowledge_acquired|zip;Squirrel.Mac⟧On macOS, electron-updater applies updates from the \`zip\` artifact through Squirrel.Mac, and with only the \`dmg\` target the published \`latest-mac.yml\` has no zip entry to download.⟦/⟧

⟦E knowledge_acquired|app-update.yml;renewed certificate⟧On Windows the updater compares the new installer's signer with the \`publisherName\` baked into the installed app's \`app-update.yml\`, and the renewed certificate says \`Acme Software GmbH\` while every existing install expects \`Acme Inc\`.⟦/⟧ ⟦N⟧That check runs in the old app, so no config change in a new build can make current installs trust the new certificate.⟦/⟧ ⟦E approach_rejected|verifyUpdateCodeSignature;update URL⟧Setting \`verifyUpdateCodeSignature: false\` would silence the error, but then the app installs whatever the update URL serves.⟦/⟧

⟦F⟧Is the old "Acme Inc" certificate still valid, and do you still have the .pfx?⟦/⟧`),
    ),
    { kind: 'system', subtype: 'turn_duration', fields: { durationMs: 97220 } },
    U(`⟦N⟧Old cert is valid until 2026-03-31 and the pfx is in 1Password.⟦/⟧ ⟦E preference_noted|from CI;--publish⟧Releases only ever go out from CI, so never run electron-builder with --publish from a laptop.⟦/⟧ ⟦N⟧Local test builds are fine.⟦/⟧`),
    A(
      say(`⟦E decision_made|bridge;both CNs⟧Then 3.8.1 becomes a bridge release: signed with the old certificate one last time and carrying a \`publisherName\` list with both CNs, so installs that update to it will accept the new certificate from 3.8.2 on.⟦/⟧ ⟦E decision_made|zip;DMG stays⟧On the Mac side the target list gets a \`zip\` next to the \`dmg\`, so the DMG stays the download on the website and the zip feeds the updater.⟦/⟧`),
      Edit('electron-builder.yml', `  target:
    - dmg
`, `  target:
    - target: dmg
      arch: universal
    - target: zip
      arch: universal
`, { error: 'String to replace not found in file.' }),
    ),
    A(
      say('⟦F⟧The target is already in object form; re-reading the exact block.⟦/⟧'),
      Read('electron-builder.yml', YML),
    ),
    A(
      Edit('electron-builder.yml', `    - target: dmg
      arch: universal
win:
  target: nsis
  publisherName: Acme Inc`, `    - target: dmg
      arch: universal
    - target: zip
        arch: universal
win:
  target: nsis
  # 3.8.1 is signed with the old cert; from 3.8.2 on releases use the renewed one.
  publisherName:
    - Acme Inc
    - Acme Software GmbH`),
    ),
    A(
      { ...Bash(BUILD, 'Local signed mac build without publishing', { code: 1, stdout: `  • electron-builder  version=24.13.3 os=23.5.0
  ⨯ Cannot parse configuration file electron-builder.yml: YAMLException: bad indentation of a mapping entry (17:13)

 14 |     - target: dmg
 15 |       arch: universal
 16 |     - target: zip
 17 |         arch: universal
-----------------^` }), progress: '  • electron-builder  version=24.13.3 os=23.5.0' },
    ),
    A(
      say("⟦E error_resolved|bad indentation;arch⟧The `bad indentation of a mapping entry` error points at `arch` sitting deeper than `target` in the new zip entry, and lining the two keys up lets electron-builder parse the file.⟦/⟧"),
      Edit('electron-builder.yml', `    - target: zip
        arch: universal`, `    - target: zip
      arch: universal`),
      { ...Bash(BUILD, 'Re-run the local mac build', { stdout: `  • electron-builder  version=24.13.3 os=23.5.0
  • packaging       platform=darwin arch=universal electron=29.4.6 appOutDir=dist/mac-universal
  • signing         file=dist/mac-universal/Acme Desk.app platform=darwin type=distribution identity=Developer ID Application: Acme Software GmbH (8XK2P4Q9LM)
  • notarization successful
  • building        target=DMG arch=universal file=dist/Acme-Desk-3.8.1-universal.dmg
  • building        target=macOS zip arch=universal file=dist/Acme-Desk-3.8.1-universal-mac.zip
  • building block map  blockMapFile=dist/Acme-Desk-3.8.1-universal-mac.zip.blockmap` }), progress: '  • packaging       platform=darwin arch=universal electron=29.4.6\n  • signing ...\n  • notarizing ...', timeout: 900000 },
    ),
    A(
      Bash("grep -A8 '^files:' dist/latest-mac.yml", 'Check that latest-mac.yml lists the zip', { stdout: `files:
  - url: Acme-Desk-3.8.1-universal-mac.zip
    sha512: 8kNf0m0Jx7q2oH1l8d2a2Y3rQyq1mB9Rb0x8C4mVwGxk6eV0mD2q9pB1z3c4d5e6f7g8h9i0j1k2l3m4n5o6p7==
    size: 118734221
  - url: Acme-Desk-3.8.1-universal.dmg
    sha512: Q2w3e4r5t6y7u8i9o0pA1s2d3f4g5h6j7k8l9z0x1c2v3b4n5m6Q7w8e9r0t1y2u3i4o5p6a7s8d9f0g1h2j3k4l5==
    size: 121009954
path: Acme-Desk-3.8.1-universal-mac.zip` }),
    ),
    A(
      say(`⟦N⟧The local build now produces both artifacts, and \`latest-mac.yml\` lists the zip first, which is what the updater reads.⟦/⟧ ⟦N⟧Nothing was published.⟦/⟧

What's left for the 3.8.1 tag, all on the CI side:
- ⟦F⟧put the old "Acme Inc" pfx into \`WIN_CERT_PFX\`/\`WIN_CERT_PASSWORD\` for this one release⟦/⟧
- ⟦F⟧after 3.8.1 is out, switch the secrets back to the renewed certificate⟦/⟧

⟦N⟧Mac installs on 3.8.0 don't need a manual step: the updater reads the feed on every check, so once 3.8.1's \`latest-mac.yml\` has a zip they pick it up.⟦/⟧`),
    ),
  ],
};
