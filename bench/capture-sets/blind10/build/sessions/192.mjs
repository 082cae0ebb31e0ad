import { U, A, think, say, Read, Edit, Bash, Todo } from '../gen.mjs';

const T1 = 'Measure row counts per account_id for one day of events';
const T2 = 'Key anonymous events by device_id before the repartition';
const T3 = 'Update SessionizeJobSpec fixtures and run sbt test';
const T4 = 'Re-run the job on a one-day sample on the staging cluster';
const af = { [T1]: 'Measuring row counts per account_id', [T2]: 'Keying anonymous events by device_id', [T3]: 'Updating fixtures and running sbt test', [T4]: 'Re-running on staging' };
const todos = (...st) => [T1, T2, T3, T4].map((c, i) => ({ content: c, status: st[i], activeForm: af[c] }));

const AK = '⟦S⟧AKIAWLMWNDFJJVU7328V⟦/S⟧';
const SK = '⟦S⟧B5GVJilKR2nLm9CLO6hHGLfw/GZO8GiTJ/erFGNY⟦/S⟧';
const JOB = `package com.acme.sessions

import org.apache.spark.sql.functions._
import org.apache.spark.sql.{DataFrame, SparkSession}

object SessionizeJob {
  val SessionGapSeconds: Long = 30 * 60

  def sessionize(events: DataFrame)(implicit spark: SparkSession): DataFrame = {
    import spark.implicits._
    events
      .repartition(col("account_id"))
      .sortWithinPartitions(col("account_id"), col("ts"))
      .as[Event]
      .mapPartitions(SessionBuilder.build(_, SessionGapSeconds)(_.account_id.toString))
      .toDF()
  }

  def main(args: Array[String]): Unit = {
    implicit val spark: SparkSession = SparkSession.builder().appName("sessionize").getOrCreate()
    val day = args(0)
    val events = spark.read.parquet(s"s3a://acme-lake/events/dt=$day")
    sessionize(events).write.mode("overwrite").parquet(s"s3a://acme-lake/sessions/dt=$day")
  }
}
`;
const EVENT = `package com.acme.sessions

final case class Event(account_id: Long, ts: Long, event_type: String, url: String)
`;
const FIXTURES = `package com.acme.sessions

import org.apache.spark.sql.types._

object TestEvents {
  val schema: StructType = StructType(Seq(
    StructField("account_id", LongType, nullable = false),
    StructField("ts", LongType, nullable = false),
    StructField("event_type", StringType),
    StructField("url", StringType)
  ))

  val rows: Seq[(Long, Long, String, String)] = Seq(
    (42L, 1000L, "view", "/pricing"),
    (42L, 1300L, "click", "/signup"),
    (42L, 9000L, "view", "/docs"),
    (0L, 1000L, "view", "/"),
    (0L, 1100L, "view", "/blog")
  )
}
`;

export default {
  num: 192,
  slug: 'spark-sessionize-anonymous-skew',
  version: '2.0.14',
  model: 'claude-sonnet-4-5-20250929',
  cwd: '/home/rafael/work/lake-jobs',
  branch: 'perf/sessionize-skew',
  start: '2025-10-28T11:20:05.630Z',
  todoKeywords: {
    [T1]: ['row counts', 'account_id'],
    [T2]: ['anonymous', 'device_id'],
    [T3]: ['SessionizeJobSpec', 'sbt test'],
    [T4]: ['staging', 'one-day'],
  },
  notes: [
    'AWS keys appear in the user text and in the spark-sql command line. The first sbt test run fails and counts as a command. The staging re-run todo stays pending.',
  ],
  script: [
    U(`The sessionize job went from 25 min to over 2 hours. In the Spark UI stage 14 has one task that reads ~38 GiB of shuffle while the rest finish in seconds. AQE is on. For local spark-sql against the lake use access key ${AK} / secret ${SK}.`),
    A(
      think("One straggler task with 38 GiB means one hot key. ⟦F⟧AQE skew join would only help if the skewed shuffle fed a join.⟦/⟧ Measure per-key counts first."),
      say('⟦F⟧One task with almost all the shuffle data points at a single hot key, so I want numbers before touching the code.⟦/⟧'),
      Todo(todos('in_progress', 'pending', 'pending', 'pending')),
    ),
    A(
      Bash(`spark-sql --master 'local[8]' --conf spark.hadoop.fs.s3a.access.key=${AK} --conf spark.hadoop.fs.s3a.secret.key=${SK} -e "SELECT account_id, count(*) AS n, round(count(*) / sum(count(*)) OVER (), 3) AS share FROM parquet.\\\`s3a://acme-lake/events/dt=2025-10-27\\\` GROUP BY account_id ORDER BY n DESC LIMIT 5"`, 'Top account_ids by event count for one day', { stdout: `0	612483920	0.312
88123	4120344	0.002
120977	3988102	0.002
5531	3210877	0.002
90412	2999054	0.002
Time taken: 214.337 seconds, Fetched 5 row(s)` }),
    ),
    A(
      say("⟦E knowledge_acquired|account_id = 0;31%⟧`account_id = 0` is the bucket for logged-out traffic and holds 31% of yesterday's events, so the whole anonymous stream hashes into one shuffle partition.⟦/⟧ ⟦N⟧The next biggest account has 0.2%, so nothing else is close.⟦/⟧"),
      Todo(todos('completed', 'in_progress', 'pending', 'pending')),
      Read('src/main/scala/com/acme/sessions/SessionizeJob.scala', JOB),
      Read('src/main/scala/com/acme/sessions/Event.scala', EVENT),
    ),
    A(
      say(`⟦E knowledge_acquired|AQE;repartition⟧AQE only splits skewed partitions on the sides of a sort-merge or shuffled hash join, and the \`repartition(col("account_id"))\` in front of \`mapPartitions\` is an explicit shuffle that AQE leaves as it is.⟦/⟧

⟦E approach_rejected|salting;ordered partition⟧Salting the key with a random suffix would spread the rows, but sessionization needs all of a user's events in one ordered partition, and a salt cuts sessions at arbitrary points.⟦/⟧ ⟦E approach_rejected|shuffle.partitions;hot key⟧Raising \`spark.sql.shuffle.partitions\` doesn't help either, since the hot key still hashes to a single partition however many there are.⟦/⟧

⟦E decision_made|device_id;logged-out⟧Anonymous events get \`anon:<device_id>\` as their session key, because for logged-out traffic the device is the closest thing to a user.⟦/⟧ ⟦N⟧Logged-in events keep their account id as the key.⟦/⟧`),
      Edit('src/main/scala/com/acme/sessions/Event.scala', 'final case class Event(account_id: Long, ts: Long, event_type: String, url: String)', `final case class Event(account_id: Long, device_id: String, ts: Long, event_type: String, url: String) {
  def sessionKey: String = if (account_id == 0L) s"anon:$device_id" else account_id.toString
}`),
      Edit('src/main/scala/com/acme/sessions/SessionizeJob.scala', `    events
      .repartition(col("account_id"))
      .sortWithinPartitions(col("account_id"), col("ts"))
      .as[Event]
      .mapPartitions(SessionBuilder.build(_, SessionGapSeconds)(_.account_id.toString))
      .toDF()`, `    // Must match Event.sessionKey: logged-out traffic (account 0) is keyed by device.
    val sessionKey = when(col("account_id") === 0L, concat(lit("anon:"), col("device_id")))
      .otherwise(col("account_id").cast("string"))
    events
      .withColumn("session_key", sessionKey)
      .repartition(col("session_key"))
      .sortWithinPartitions(col("session_key"), col("ts"))
      .as[Event]
      .mapPartitions(SessionBuilder.build(_, SessionGapSeconds)(_.sessionKey))
      .toDF()`),
    ),
    A(
      Todo(todos('completed', 'completed', 'in_progress', 'pending')),
      Bash('sbt "testOnly com.acme.sessions.SessionizeJobSpec"', 'Run the sessionize spec', { code: 1, stdout: `[info] SessionizeJobSpec:
[info] - splits a user's events on a 30 minute gap *** FAILED ***
[info]   org.apache.spark.sql.AnalysisException: [UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function parameter with name \`device_id\` cannot be resolved. Did you mean one of the following? [\`account_id\`, \`event_type\`, \`ts\`, \`url\`].;
[info]   at org.apache.spark.sql.errors.QueryCompilationErrors$.unresolvedAttributeError(QueryCompilationErrors.scala:307)
[info] Run completed in 9 seconds, 412 milliseconds.
[info] Tests: succeeded 1, failed 1, canceled 0, ignored 0, pending 0
[error] Failed tests:
[error] 	com.acme.sessions.SessionizeJobSpec
[error] (Test / testOnly) sbt.TestsFailedException: Tests unsuccessful` }),
    ),
    A(
      say('⟦F⟧The spec builds its DataFrame from `TestEvents`, so let me look at that schema.⟦/⟧'),
      Read('src/test/scala/com/acme/sessions/TestEvents.scala', FIXTURES),
    ),
    A(
      Edit('src/test/scala/com/acme/sessions/TestEvents.scala', `    StructField("account_id", LongType, nullable = false),
    StructField("ts", LongType, nullable = false),
    StructField("event_type", StringType),
    StructField("url", StringType)
  ))

  val rows: Seq[(Long, Long, String, String)] = Seq(
    (42L, 1000L, "view", "/pricing"),
    (42L, 1300L, "click", "/signup"),
    (42L, 9000L, "view", "/docs"),
    (0L, 1000L, "view", "/"),
    (0L, 1100L, "view", "/blog")
  )`, `    StructField("account_id", LongType, nullable = false),
    StructField("device_id", StringType),
    StructField("ts", LongType, nullable = false),
    StructField("event_type", StringType),
    StructField("url", StringType)
  ))

  val rows: Seq[(Long, String, Long, String, String)] = Seq(
    (42L, "d-1", 1000L, "view", "/pricing"),
    (42L, "d-1", 1300L, "click", "/signup"),
    (42L, "d-1", 9000L, "view", "/docs"),
    (0L, "d-7", 1000L, "view", "/"),
    (0L, "d-9", 1100L, "view", "/blog")
  )`),
      Bash('sbt "testOnly com.acme.sessions.SessionizeJobSpec"', 'Re-run the spec', { stdout: `[info] SessionizeJobSpec:
[info] - splits a user's events on a 30 minute gap
[info] - keeps two anonymous devices in separate sessions
[info] Tests: succeeded 2, failed 0, canceled 0, ignored 0, pending 0
[success] Total time: 21 s` }),
    ),
    A(
      say("⟦E error_resolved|UNRESOLVED_COLUMN;TestEvents⟧The `UNRESOLVED_COLUMN` failure in `SessionizeJobSpec` came from the `TestEvents` schema having no `device_id`, and adding the column to the fixture rows makes both cases pass.⟦/⟧"),
      Todo(todos('completed', 'completed', 'completed', 'pending')),
    ),
    A(
      say(`Code side is done:

- ⟦N⟧\`Event\` has \`device_id\` and a \`sessionKey\`⟦/⟧
- ⟦N⟧\`SessionizeJob\` repartitions and sorts on the derived \`session_key\`⟦/⟧
- ⟦N⟧\`TestEvents\` includes devices, and the spec covers two anonymous devices⟦/⟧

⟦F⟧The biggest partition should now be the busiest real account at about 0.2% of the day, so stage 14 ought to finish close to the old 25 minutes.⟦/⟧ ⟦F⟧Can I run the one-day sample on the staging cluster to confirm?⟦/⟧`),
    ),
    U("⟦F⟧staging is busy until tomorrow, leave the rerun for now.⟦/⟧ thanks"),
    A(
      say("⟦F⟧Okay, I'll leave it there.⟦/⟧ ⟦N⟧The staging run is the only open item on the list.⟦/⟧"),
    ),
  ],
};
