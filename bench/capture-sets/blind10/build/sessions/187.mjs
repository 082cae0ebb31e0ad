import { U, A, think, say, Read, Edit, Write, Bash, Grep, Todo } from '../gen.mjs';

const T1 = 'Read the profiler export and list the allocation hot spots';
const T2 = 'Replace FindObjectsOfType in EnemySpawner with a registered enemy list';
const T3 = 'Stop rebuilding the score string every frame';
const T4 = 'Pool projectile GameObjects in ProjectileLauncher';
const T5 = 'Skip telemetry serialization when the buffer is empty';
const af = { [T1]: 'Reading the profiler export', [T2]: 'Replacing FindObjectsOfType in EnemySpawner', [T3]: 'Fixing the score string allocation', [T4]: 'Pooling projectiles', [T5]: 'Skipping empty telemetry flushes' };
const todos = (...st) => [T1, T2, T3, T4, T5].map((c, i) => ({ content: c, status: st[i], activeForm: af[c] }));

const BASELINE = `Unity Profiler export: StarHarbor dev build 0.9.3 (IL2CPP, ARM64), Pixel 6, Android 14
Capture: 600 frames, wave 3, 42 enemies alive

Frame time: median 14.2 ms, p99 47.8 ms
GC.Collect spikes: 12 in 600 frames (every ~50 frames), 31-46 ms each

GC.Alloc per frame (top):
  EnemySpawner.Update        21.4 KB   FindObjectsOfType<Enemy>() 9.8 KB, Enumerable.Where/ToList 11.6 KB
  TelemetryClient.Update      6.1 KB   JsonUtility.ToJson
  ProjectileLauncher.Fire     3.2 KB   Object.Instantiate (per shot)
  ScoreHud.Update             1.9 KB   String.Concat
Total: ~32.6 KB/frame
`;
const SPAWNER = `using System.Linq;
using UnityEngine;

namespace StarHarbor.Gameplay
{
    public class EnemySpawner : MonoBehaviour
    {
        [SerializeField] private Enemy enemyPrefab;
        [SerializeField] private int maxAlive = 60;
        [SerializeField] private float spawnInterval = 0.8f;
        private float _nextSpawn;

        private void Update()
        {
            var alive = FindObjectsOfType<Enemy>().Where(e => !e.IsDying).ToList();
            if (alive.Count < maxAlive && Time.time >= _nextSpawn)
            {
                Spawn();
                _nextSpawn = Time.time + spawnInterval;
            }
            foreach (var enemy in alive)
                enemy.Tick(Time.deltaTime);
        }

        private void Spawn()
        {
            var p = transform.position + (Vector3)(Random.insideUnitCircle * 6f);
            Instantiate(enemyPrefab, p, Quaternion.identity);
        }
    }
}
`;
const ENEMY = `using UnityEngine;

namespace StarHarbor.Gameplay
{
    public class Enemy : MonoBehaviour
    {
        [SerializeField] private float speed = 2.5f;
        public bool IsDying { get; private set; }

        public void Tick(float dt)
        {
            transform.position += Vector3.down * (speed * dt);
        }

        public void Kill()
        {
            IsDying = true;
            Destroy(gameObject, 0.4f);
        }
    }
}
`;
const REGISTRY = `using System.Collections.Generic;
using UnityEngine;

namespace StarHarbor.Core
{
    /// Live instances of T, kept up to date by the components themselves in OnEnable/OnDisable.
    public static class Registry<T> where T : Component
    {
        private static readonly List<T> _items = new List<T>(128);

        public static IReadOnlyList<T> Items => _items;
        public static void Add(T item) => _items.Add(item);
        public static void Remove(T item) => _items.Remove(item);

        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        private static void Reset() => _items.Clear();
    }
}
`;
const ASMDEF = `{
    "name": "StarHarbor.Gameplay",
    "rootNamespace": "StarHarbor.Gameplay",
    "references": [
        "Unity.TextMeshPro"
    ],
    "includePlatforms": [],
    "excludePlatforms": [],
    "allowUnsafeCode": false,
    "autoReferenced": true
}
`;
const HUD = `using StarHarbor.Core;
using TMPro;
using UnityEngine;

namespace StarHarbor.UI
{
    public class ScoreHud : MonoBehaviour
    {
        [SerializeField] private TMP_Text scoreText;

        private void Update()
        {
            scoreText.text = "Score: " + GameState.Score;
        }
    }
}
`;
const TELEMETRY = `using System.Collections.Generic;
using UnityEngine;
using UnityEngine.Networking;

namespace StarHarbor.Core.Telemetry
{
    public class TelemetryClient : MonoBehaviour
    {
        private const string Endpoint = "https://firebaselogging.googleapis.com/v0cc/log/batch?format=json_proto3";
        private const string ApiKey = "⟦S⟧AIza3K3y38s_tdii0uuQAFwoGHdb9OUttFc-VwQ⟦/S⟧";

        [System.Serializable] private class Batch { public List<TelemetryEvent> events = new(); }
        private readonly Batch _buffer = new();
        private string _pendingJson;

        public void Track(TelemetryEvent e) => _buffer.events.Add(e);

        private void Update()
        {
            _pendingJson = JsonUtility.ToJson(_buffer);
            if (Time.frameCount % 600 == 0) Flush();
        }

        private void Flush() { /* POST _pendingJson to Endpoint with x-goog-api-key: ApiKey */ }
    }
}
`;
const UNITY = 'set -o pipefail; "/Applications/Unity/Hub/Editor/2022.3.41f1/Unity.app/Contents/MacOS/Unity" -batchmode -nographics -quit -projectPath . -logFile - | grep -E "error CS|batchmode"';

export default {
  num: 187,
  slug: 'unity-gc-spikes-spawner',
  version: '2.1.17',
  model: 'claude-opus-4-5-20251101',
  cwd: '/Users/mei/Projects/StarHarbor',
  branch: 'perf/gc-spikes',
  aiSlug: 'fluttering-garbage-heron',
  start: '2026-01-19T10:02:44.000Z',
  startHook: '~/.claude/hooks/unity-context.sh',
  todoKeywords: {
    [T1]: ['profiler export', 'hot spots'],
    [T2]: ['FindObjectsOfType', 'registered'],
    [T3]: ['score string', 'every frame'],
    [T4]: ['pool', 'projectile'],
    [T5]: ['telemetry', 'empty'],
  },
  notes: [
    'The first batchmode compile fails with CS0234 (counted in commands); a bash_progress line hangs off it. Two todos stay pending.',
    'The user\'s own measurement in the second turn is neutral; "leave the pooling and telemetry for next sprint" is a one-off request.',
  ],
  script: [
    U("We get frame spikes every couple of seconds on Android once wave 3 starts. I exported a profiler capture from the Pixel 6 dev build to Profiling/baseline_pixel6.txt. Can you go through it and fix the worst allocations?"),
    A(
      say("⟦F⟧Let me read the capture first.⟦/⟧"),
      Read('Profiling/baseline_pixel6.txt', BASELINE),
    ),
    A(
      say("⟦N⟧The capture shows 12 collections in 600 frames, 31–46 ms each, and about 33 KB of garbage per frame, two thirds of it from `EnemySpawner.Update`.⟦/⟧ ⟦F⟧I'll start with the spawner, then the HUD.⟦/⟧"),
      Todo(todos('completed', 'in_progress', 'pending', 'pending', 'pending')),
    ),
    A(
      Grep('FindObjectsOfType', { path: 'Assets/Scripts', output_mode: 'content', n: true, result: 'Assets/Scripts/Gameplay/EnemySpawner.cs:15:            var alive = FindObjectsOfType<Enemy>().Where(e => !e.IsDying).ToList();' }),
      Read('Assets/Scripts/Gameplay/EnemySpawner.cs', SPAWNER),
      Read('Assets/Scripts/Gameplay/Enemy.cs', ENEMY),
    ),
    A(
      think("Only one call site. FindObjectsOfType every frame plus LINQ. Registry pattern: enemies register themselves. ⟦F⟧Could also cache in Start, but spawns happen continuously.⟦/⟧"),
      say("⟦E knowledge_acquired|FindObjectsOfType;allocates⟧`FindObjectsOfType<T>()` allocates a fresh array on every call and walks every loaded object, so calling it from `Update` costs GC and CPU every frame.⟦/⟧ ⟦E approach_rejected|Start;spawned later⟧Caching its result once in `Start` would miss every enemy spawned later, so that doesn't work here.⟦/⟧\n\n⟦E decision_made|Registry<Enemy>;remove themselves⟧Enemies add themselves to a static `Registry<Enemy>` in `OnEnable` and remove themselves in `OnDisable`, and the spawner walks that list with a plain `for` loop.⟦/⟧ ⟦F⟧This should take roughly 21 KB a frame off the spawner on its own.⟦/⟧"),
      Write('Assets/Scripts/Core/Registry.cs', REGISTRY),
      Edit('Assets/Scripts/Gameplay/Enemy.cs', `        public bool IsDying { get; private set; }
`, `        public bool IsDying { get; private set; }

        private void OnEnable() => Registry<Enemy>.Add(this);
        private void OnDisable() => Registry<Enemy>.Remove(this);
`),
      Edit('Assets/Scripts/Gameplay/EnemySpawner.cs', `            var alive = FindObjectsOfType<Enemy>().Where(e => !e.IsDying).ToList();
            if (alive.Count < maxAlive && Time.time >= _nextSpawn)
            {
                Spawn();
                _nextSpawn = Time.time + spawnInterval;
            }
            foreach (var enemy in alive)
                enemy.Tick(Time.deltaTime);`, `            var enemies = Registry<Enemy>.Items;
            if (enemies.Count < maxAlive && Time.time >= _nextSpawn)
            {
                Spawn();
                _nextSpawn = Time.time + spawnInterval;
            }
            var dt = Time.deltaTime;
            for (var i = enemies.Count - 1; i >= 0; i--)
                if (!enemies[i].IsDying) enemies[i].Tick(dt);`),
    ),
    A(
      say("⟦F⟧Compiling in batchmode to check the scripts.⟦/⟧"),
      { ...Bash(UNITY, 'Compile scripts with Unity in batchmode', { code: 1, stdout: `Assets/Scripts/Gameplay/Enemy.cs(1,18): error CS0234: The type or namespace name 'Core' does not exist in the namespace 'StarHarbor' (are you missing an assembly reference?)
Assets/Scripts/Gameplay/EnemySpawner.cs(1,18): error CS0234: The type or namespace name 'Core' does not exist in the namespace 'StarHarbor' (are you missing an assembly reference?)
Aborting batchmode due to failure:
Scripts have compiler errors.` }), hook: '~/.claude/hooks/guard-bash.sh', progress: 'Loading project...\nCompiling scripts...' },
    ),
    A(
      say("⟦F⟧Gameplay has its own assembly definition, so let me check what it references.⟦/⟧"),
      Read('Assets/Scripts/Gameplay/StarHarbor.Gameplay.asmdef', ASMDEF),
    ),
    A(
      Edit('Assets/Scripts/Gameplay/StarHarbor.Gameplay.asmdef', `    "references": [
        "Unity.TextMeshPro"
    ],`, `    "references": [
        "StarHarbor.Core",
        "Unity.TextMeshPro"
    ],`),
      { ...Bash(UNITY, 'Compile again', { stdout: 'Exiting batchmode successfully now!' }), progress: 'Loading project...\nCompiling scripts...\nReloading assemblies...' },
    ),
    A(
      say("⟦E error_resolved|CS0234;StarHarbor.Gameplay.asmdef⟧The `CS0234` on `StarHarbor.Core` came from `StarHarbor.Gameplay.asmdef` not referencing the Core assembly; with the reference added, the project compiles again.⟦/⟧"),
      Todo(todos('completed', 'completed', 'in_progress', 'pending', 'pending')),
    ),
    A(
      Read('Assets/Scripts/UI/ScoreHud.cs', HUD),
      Read('Assets/Scripts/Core/Telemetry/TelemetryClient.cs', TELEMETRY),
      Bash('grep -n "gcIncremental" ProjectSettings/ProjectSettings.asset', 'Check whether incremental GC is enabled', { stdout: '587:  gcIncremental: 0' }),
    ),
    A(
      say("⟦E decision_made|SetText;changes⟧`ScoreHud` now keeps the last value it showed and calls TextMeshPro's `SetText(\"Score: {0}\", score)` only when the score changes, which formats into the existing buffer.⟦/⟧\n\n⟦E knowledge_acquired|gcIncremental;stop-the-world⟧`gcIncremental: 0` in `ProjectSettings.asset` means every collection runs as one stop-the-world pass, which is why each GC shows up as a single 30–45 ms frame.⟦/⟧ ⟦N⟧Turning it on is a one-line settings change, but it's worth trying in a separate build so the effect of the allocation fixes can be measured on its own.⟦/⟧ ⟦E approach_rejected|GCMode;3 GB⟧Setting `GarbageCollector.GCMode` to `Disabled` during waves would hide the spikes until the heap runs out, which is worse on the 3 GB devices in the test matrix.⟦/⟧"),
      Edit('Assets/Scripts/UI/ScoreHud.cs', `        private void Update()
        {
            scoreText.text = "Score: " + GameState.Score;
        }`, `        private int _shown = -1;

        private void Update()
        {
            var score = GameState.Score;
            if (score == _shown) return;
            _shown = score;
            scoreText.SetText("Score: {0}", score);
        }`),
    ),
    A(
      Todo(todos('completed', 'completed', 'completed', 'pending', 'pending')),
    ),
    A(
      say("Spawner and HUD are done:\n\n- ⟦N⟧`Registry<T>` in Core, enemies register in `OnEnable`/`OnDisable`, spawner iterates it without LINQ⟦/⟧\n- ⟦N⟧`StarHarbor.Gameplay.asmdef` now references `StarHarbor.Core`⟦/⟧\n- ⟦N⟧`ScoreHud` only formats when the score changes⟦/⟧\n\n⟦N⟧`TelemetryClient.Update` serializes the whole buffer every frame even when nothing was tracked, which is the 6 KB line in the capture.⟦/⟧ ⟦N⟧It also has a Firebase key hard-coded at the top; that doesn't affect the spikes, but it shouldn't live in source.⟦/⟧ ⟦N⟧Projectile pooling and the telemetry change are still on the list.⟦/⟧ ⟦F⟧Can you take a new capture on the Pixel with the same wave so we can compare?⟦/⟧"),
    ),
    { kind: 'system', subtype: 'turn_duration', fields: { durationMs: 214380 } },
    U("⟦N⟧nice, p99 on the Pixel is 18 ms now with the same wave.⟦/⟧ ⟦F⟧leave the pooling and telemetry for next sprint, I'll make tickets.⟦/⟧"),
    A(
      say("Sounds good. ⟦N⟧The branch has the spawner, asmdef and HUD changes only;⟦/⟧ ⟦F⟧the two open todos can go straight into those tickets.⟦/⟧ ⟦F⟧If the next capture still shows spikes during boss waves, `ProjectileLauncher.Fire` would be the next thing to look at.⟦/⟧"),
    ),
  ],
};
