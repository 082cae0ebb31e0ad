import { U, A, think, say, Read, Edit, Write, Bash, Grep, Todo } from '../gen.mjs';

const T1 = 'Add Tag and NoteTag entities and bump AppDatabase to version 7';
const T2 = 'Write MIGRATION_6_7 that copies the comma-separated tags into tags and note_tags';
const T3 = 'Add a MigrationTestHelper test for 6 → 7 with real-looking rows';
const T4 = 'Drop the legacy notes.tags column';
const af = { [T1]: 'Adding Tag and NoteTag entities', [T2]: 'Writing MIGRATION_6_7', [T3]: 'Adding the 6 → 7 migration test', [T4]: 'Dropping the legacy tags column' };
const todos = (...st) => [T1, T2, T3, T4].map((c, i) => ({ content: c, status: st[i], activeForm: af[c] }));

const DB = `package com.fieldnotes.data

import androidx.room.AutoMigration
import androidx.room.Database
import androidx.room.RoomDatabase

@Database(
    entities = [Note::class, Notebook::class],
    version = 6,
    exportSchema = true,
    autoMigrations = [
        AutoMigration(from = 4, to = 5),
        AutoMigration(from = 5, to = 6),
    ],
)
abstract class AppDatabase : RoomDatabase() {
    abstract fun noteDao(): NoteDao
    abstract fun notebookDao(): NotebookDao
}
`;
const NOTE = `package com.fieldnotes.data

import androidx.room.ColumnInfo
import androidx.room.Entity
import androidx.room.PrimaryKey

@Entity(tableName = "notes")
data class Note(
    @PrimaryKey(autoGenerate = true) val id: Long = 0,
    @ColumnInfo(name = "notebook_id") val notebookId: Long,
    val title: String,
    val body: String,
    val tags: String = "",
    @ColumnInfo(name = "updated_at") val updatedAt: Long,
)
`;
const MOD = `package com.fieldnotes.di

import android.content.Context
import androidx.room.Room
import com.fieldnotes.data.AppDatabase
import dagger.Module
import dagger.Provides
import dagger.hilt.InstallIn
import dagger.hilt.android.qualifiers.ApplicationContext
import dagger.hilt.components.SingletonComponent
import javax.inject.Singleton

@Module
@InstallIn(SingletonComponent::class)
object DatabaseModule {
    @Provides
    @Singleton
    fun provideDatabase(@ApplicationContext context: Context): AppDatabase =
        Room.databaseBuilder(context, AppDatabase::class.java, "fieldnotes.db")
            .build()
}
`;
const TAG = `package com.fieldnotes.data

import androidx.room.Entity
import androidx.room.Index
import androidx.room.PrimaryKey

@Entity(tableName = "tags", indices = [Index(value = ["name"], unique = true)])
data class Tag(
    @PrimaryKey(autoGenerate = true) val id: Long = 0,
    val name: String,
)
`;
const NOTETAG = `package com.fieldnotes.data

import androidx.room.ColumnInfo
import androidx.room.Entity
import androidx.room.ForeignKey
import androidx.room.Index

@Entity(
    tableName = "note_tags",
    primaryKeys = ["note_id", "tag_id"],
    foreignKeys = [
        ForeignKey(entity = Note::class, parentColumns = ["id"], childColumns = ["note_id"], onDelete = ForeignKey.CASCADE),
        ForeignKey(entity = Tag::class, parentColumns = ["id"], childColumns = ["tag_id"], onDelete = ForeignKey.CASCADE),
    ],
    indices = [Index("tag_id")],
)
data class NoteTag(
    @ColumnInfo(name = "note_id") val noteId: Long,
    @ColumnInfo(name = "tag_id") val tagId: Long,
)
`;
const MIG = `package com.fieldnotes.data

import androidx.room.migration.Migration
import androidx.sqlite.db.SupportSQLiteDatabase

// Splits notes.tags ("a, b,c") into one row per (note_id, tag). Names are trimmed and lower-cased.
private const val SPLIT = """
    WITH RECURSIVE split(note_id, tag, rest) AS (
      SELECT id, '', tags || ',' FROM notes WHERE tags != ''
      UNION ALL
      SELECT note_id, lower(trim(substr(rest, 1, instr(rest, ',') - 1))), substr(rest, instr(rest, ',') + 1)
      FROM split WHERE rest != ''
    )
"""

val MIGRATION_6_7 = object : Migration(6, 7) {
    override fun migrate(db: SupportSQLiteDatabase) {
        db.execSQL("CREATE TABLE IF NOT EXISTS \`tags\` (\`id\` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, \`name\` TEXT NOT NULL)")
        db.execSQL("CREATE UNIQUE INDEX IF NOT EXISTS \`index_tags_name\` ON \`tags\` (\`name\`)")
        db.execSQL(
            "CREATE TABLE IF NOT EXISTS \`note_tags\` (\`note_id\` INTEGER NOT NULL, \`tag_id\` INTEGER NOT NULL, " +
                "PRIMARY KEY(\`note_id\`, \`tag_id\`), " +
                "FOREIGN KEY(\`note_id\`) REFERENCES \`notes\`(\`id\`) ON UPDATE NO ACTION ON DELETE CASCADE, " +
                "FOREIGN KEY(\`tag_id\`) REFERENCES \`tags\`(\`id\`) ON UPDATE NO ACTION ON DELETE CASCADE)"
        )
        db.execSQL("$SPLIT INSERT OR IGNORE INTO tags(name) SELECT DISTINCT tag FROM split WHERE tag != ''")
        db.execSQL(
            "$SPLIT INSERT OR IGNORE INTO note_tags(note_id, tag_id) " +
                "SELECT s.note_id, t.id FROM split s JOIN tags t ON t.name = s.tag WHERE s.tag != ''"
        )
    }
}
`;
const TEST = `package com.fieldnotes.data

import androidx.room.testing.MigrationTestHelper
import androidx.test.ext.junit.runners.AndroidJUnit4
import androidx.test.platform.app.InstrumentationRegistry
import org.junit.Assert.assertEquals
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith

@RunWith(AndroidJUnit4::class)
class Migration6To7Test {
    @get:Rule
    val helper = MigrationTestHelper(InstrumentationRegistry.getInstrumentation(), AppDatabase::class.java)

    @Test
    fun splitsCommaSeparatedTags() {
        helper.createDatabase(DB, 6).apply {
            execSQL("INSERT INTO notebooks(id, name) VALUES (1, 'Field')")
            execSQL("INSERT INTO notes(id, notebook_id, title, body, tags, updated_at) VALUES (1, 1, 'Heron', '', 'birds, Wetland,birds', 0)")
            execSQL("INSERT INTO notes(id, notebook_id, title, body, tags, updated_at) VALUES (2, 1, 'Moss', '', '', 0)")
            close()
        }
        val db = helper.runMigrationsAndValidate(DB, 7, true, MIGRATION_6_7)
        db.query("SELECT t.name FROM note_tags nt JOIN tags t ON t.id = nt.tag_id WHERE nt.note_id = 1 ORDER BY t.name").use { c ->
            val names = generateSequence { if (c.moveToNext()) c.getString(0) else null }.toList()
            assertEquals(listOf("birds", "wetland"), names)
        }
        db.query("SELECT COUNT(*) FROM note_tags WHERE note_id = 2").use { c -> c.moveToFirst(); assertEquals(0, c.getInt(0)) }
    }

    private companion object { const val DB = "migration-test" }
}
`;
const VM = `package com.fieldnotes.ui.detail

import androidx.lifecycle.SavedStateHandle
import androidx.lifecycle.ViewModel
import androidx.lifecycle.viewModelScope
import com.fieldnotes.data.NoteRepository
import dagger.hilt.android.lifecycle.HiltViewModel
import javax.inject.Inject
import kotlinx.coroutines.flow.SharingStarted
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.flow.stateIn

@HiltViewModel
class NoteDetailViewModel @Inject constructor(
    notes: NoteRepository,
    savedState: SavedStateHandle,
) : ViewModel() {
    private val noteId: Long = checkNotNull(savedState["noteId"])

    val state: StateFlow<NoteDetailState> = notes.observeNoteWithTags(noteId)
        .map { (note, tags) -> NoteDetailState.Loaded(note = note, tags = tags) }
        .stateIn(viewModelScope, SharingStarted.WhileSubscribed(5_000), NoteDetailState.Loading)
}
`;
const TESTCMD = './gradlew :app:connectedDebugAndroidTest -Pandroid.testInstrumentationRunnerArguments.class=com.fieldnotes.data.Migration6To7Test';

export default {
  num: 185,
  slug: 'android-room-tags-migration',
  version: '2.0.31',
  model: 'claude-sonnet-4-5-20250929',
  cwd: '/Users/priya/dev/fieldnotes-android',
  branch: 'feat/tag-table',
  start: '2025-10-14T09:12:03.412Z',
  todoKeywords: {
    [T1]: ['NoteTag', 'version 7'],
    [T2]: ['MIGRATION_6_7', 'copies'],
    [T3]: ['MigrationTestHelper', 'real-looking'],
    [T4]: ['legacy', 'drop'],
  },
  notes: [
    'Long session, three user turns. The standing instruction about app/schemas is the only preference; the other user sentences are one-off requests.',
    'The first connectedDebugAndroidTest run fails (still counted in commands). The legacy-column todo stays pending.',
    'The assistant sentence about the legacy column echoes the user\'s one-off choice, so it is neutral.',
  ],
  script: [
    U("Notes keep their tags in one comma-separated string (`notes.tags`). I want a real `tags` table plus a `note_tags` join so we can filter by tag. ⟦N⟧DB is at version 6 and people have real data, so no fallbackToDestructiveMigration.⟦/⟧ If the build whines about the maps key it's ⟦S⟧AIzan1wztxyz8_Pw85y-X6VMXg9Qd_qzVQqMWBA⟦/S⟧, same as in local.properties."),
    A(
      think("Tags are a single TEXT column. ⟦F⟧An auto-migration only diffs two schemas, so moving data between tables needs hand-written SQL.⟦/⟧ Need the @Database declaration, the entity and where the builder is configured."),
      say('⟦F⟧Let me look at the database class, the entity and the Hilt module first.⟦/⟧'),
      Read('app/src/main/java/com/fieldnotes/data/AppDatabase.kt', DB),
      Read('app/src/main/java/com/fieldnotes/data/Note.kt', NOTE),
      Read('app/src/main/java/com/fieldnotes/di/DatabaseModule.kt', MOD),
    ),
    A(
      say("⟦F⟧`Note.tags` is a plain `String` with an empty default, and the database already registers two auto-migrations, 4 → 5 and 5 → 6.⟦/⟧\n\n⟦E knowledge_acquired|AutoMigration;rows⟧`AutoMigration` only covers schema changes Room can derive from the exported JSON files; it has no hook for turning one string column into rows in another table.⟦/⟧ ⟦E decision_made|manual;data copy⟧So 6 → 7 will be a manual `Migration` that creates both tables and does the data copy in SQL, registered in `DatabaseModule` on the builder.⟦/⟧\n\n⟦E approach_rejected|cursor;kotlin⟧Splitting the strings in Kotlin inside `migrate()` would mean a cursor loop and one insert per tag on the upgrade path, which is slow for anyone with a few thousand notes, so the split happens in a recursive CTE.⟦/⟧"),
      Todo(todos('in_progress', 'pending', 'pending', 'pending')),
    ),
    A(
      Write('app/src/main/java/com/fieldnotes/data/Tag.kt', TAG),
      Write('app/src/main/java/com/fieldnotes/data/NoteTag.kt', NOTETAG),
      Edit('app/src/main/java/com/fieldnotes/data/AppDatabase.kt', '    entities = [Note::class, Notebook::class],\n    version = 6,', '    entities = [Note::class, Notebook::class, Tag::class, NoteTag::class],\n    version = 7,'),
    ),
    A(
      Write('app/src/main/java/com/fieldnotes/data/Migrations.kt', MIG),
      Edit('app/src/main/java/com/fieldnotes/di/DatabaseModule.kt', '        Room.databaseBuilder(context, AppDatabase::class.java, "fieldnotes.db")\n            .build()', '        Room.databaseBuilder(context, AppDatabase::class.java, "fieldnotes.db")\n            .addMigrations(MIGRATION_6_7)\n            .build()'),
    ),
    A(
      Todo(todos('completed', 'completed', 'pending', 'pending')),
    ),
    A(
      say("Entities and the migration are in:\n\n- ⟦N⟧`Tag` and `NoteTag` entities registered in `AppDatabase`⟦/⟧\n- ⟦N⟧`MIGRATION_6_7` creates both tables and fills them from `notes.tags` in two statements⟦/⟧\n- ⟦N⟧hooked up through `.addMigrations()` in `DatabaseModule`⟦/⟧\n\n⟦F⟧Do you want the old `tags` column dropped in this PR, or kept around for a release?⟦/⟧ ⟦F⟧Next up is the migration test.⟦/⟧"),
    ),
    U("⟦F⟧Keep it for one release, we might need to roll back.⟦/⟧ ⟦E preference_noted|app/schemas;hand-edit⟧From here on, don't hand-edit anything under app/schemas, those JSON files are generated by Room and CI diffs them against the build output.⟦/⟧ ⟦F⟧Go ahead with the test.⟦/⟧"),
    A(
      say('⟦N⟧The legacy column stays for now; `MIGRATION_6_7` only reads from it.⟦/⟧ ⟦F⟧The test seeds a version 6 database with messy input (mixed case, a duplicate, a note without tags) and validates against `7.json`.⟦/⟧'),
      Write('app/src/androidTest/java/com/fieldnotes/data/Migration6To7Test.kt', TEST),
      Bash(TESTCMD, 'Run the 6 to 7 migration test on the emulator', { code: 1, stdout: `> Task :app:connectedDebugAndroidTest
Starting 1 tests on Pixel_7_API_34(AVD) - 14

com.fieldnotes.data.Migration6To7Test > splitsCommaSeparatedTags[Pixel_7_API_34(AVD) - 14] FAILED
	java.lang.IllegalStateException: ⟦F⟧Migration didn't properly handle: note_tags(com.fieldnotes.data.NoteTag).⟦/⟧
	 Expected:
	TableInfo{name='note_tags', columns={note_id=Column{name='note_id', type='INTEGER', affinity='3', notNull=true, primaryKeyPosition=1}, tag_id=Column{name='tag_id', type='INTEGER', affinity='3', notNull=true, primaryKeyPosition=2}}, foreignKeys=[...], indices=[Index{name='index_note_tags_tag_id', unique=false, columns=[tag_id], orders=[ASC]}]}
	 Found:
	TableInfo{name='note_tags', columns={...}, foreignKeys=[...], indices=[]}
Tests on Pixel_7_API_34(AVD) - 14 failed: There was 1 failure(s).

FAILURE: Build failed with an exception.
BUILD FAILED in 1m 12s` }),
    ),
    A(
      say("⟦E knowledge_acquired|MigrationTestHelper;foreign keys⟧`MigrationTestHelper` compares indices and foreign keys as well as columns, so a migration that produces the right columns can still fail validation when an index declared on the entity is missing.⟦/⟧ ⟦N⟧Here it is the `Index(\"tag_id\")` on `NoteTag`.⟦/⟧"),
      Edit('app/src/main/java/com/fieldnotes/data/Migrations.kt', '"FOREIGN KEY(`tag_id`) REFERENCES `tags`(`id`) ON UPDATE NO ACTION ON DELETE CASCADE)"\n        )', '"FOREIGN KEY(`tag_id`) REFERENCES `tags`(`id`) ON UPDATE NO ACTION ON DELETE CASCADE)"\n        )\n        db.execSQL("CREATE INDEX IF NOT EXISTS `index_note_tags_tag_id` ON `note_tags` (`tag_id`)")'),
      Bash(TESTCMD, 'Re-run the migration test', { stdout: '> Task :app:connectedDebugAndroidTest\nStarting 1 tests on Pixel_7_API_34(AVD) - 14\nFinished 1 tests on Pixel_7_API_34(AVD) - 14\n\nBUILD SUCCESSFUL in 58s\n61 actionable tasks: 9 executed, 52 up-to-date' }),
    ),
    A(
      Todo(todos('completed', 'completed', 'completed', 'pending')),
    ),
    A(
      say("⟦E error_resolved|index_note_tags_tag_id;CREATE INDEX⟧The `Migration didn't properly handle: note_tags` failure came from the missing `index_note_tags_tag_id`, and adding its `CREATE INDEX` to `MIGRATION_6_7` makes the test pass on the API 34 emulator.⟦/⟧\n\n⟦N⟧`7.json` under `app/schemas` is exactly what KSP generated; nothing in that folder was edited by hand.⟦/⟧"),
    ),
    U('⟦F⟧nice. can you make the tag chips on the detail screen sort alphabetically?⟦/⟧'),
    A(
      say('⟦F⟧Let me find where the chips get their list and who else reads that query.⟦/⟧'),
      Read('app/src/main/java/com/fieldnotes/ui/detail/NoteDetailViewModel.kt', VM),
      Grep('observeNoteWithTags', { path: 'app/src/main/java', output_mode: 'content', n: true, result: `app/src/main/java/com/fieldnotes/data/NoteRepository.kt:33:    fun observeNoteWithTags(id: Long): Flow<Pair<Note, List<Tag>>> =
app/src/main/java/com/fieldnotes/sync/SyncExporter.kt:41:        // ⟦F⟧tags must stay in insertion order, the server diffs them positionally⟦/⟧
app/src/main/java/com/fieldnotes/sync/SyncExporter.kt:42:        val (note, tags) = notes.observeNoteWithTags(id).first()
app/src/main/java/com/fieldnotes/ui/detail/NoteDetailViewModel.kt:21:    val state: StateFlow<NoteDetailState> = notes.observeNoteWithTags(noteId)` }),
    ),
    A(
      say("⟦E approach_rejected|COLLATE NOCASE;exporter⟧An `ORDER BY name COLLATE NOCASE` in the DAO would sort them too, but `observeNoteWithTags` also feeds `SyncExporter`, and the exporter depends on insertion order.⟦/⟧ ⟦E decision_made|sortedBy;ViewModel⟧The sort goes into the ViewModel as `sortedBy { it.name.lowercase() }`, so the shared query stays as it is.⟦/⟧"),
      Edit('app/src/main/java/com/fieldnotes/ui/detail/NoteDetailViewModel.kt', '        .map { (note, tags) -> NoteDetailState.Loaded(note = note, tags = tags) }', '        .map { (note, tags) -> NoteDetailState.Loaded(note = note, tags = tags.sortedBy { it.name.lowercase() }) }'),
    ),
    A(
      say("⟦N⟧Chips on the detail screen now come out in case-insensitive alphabetical order; the sync payload is unchanged.⟦/⟧\n\nWhere the branch stands:\n- ⟦N⟧6 → 7 migration plus `Migration6To7Test`, passing on the emulator⟦/⟧\n- ⟦N⟧alphabetical chips on the detail screen⟦/⟧\n- ⟦N⟧the column drop is still open on the list and waits a release, as you asked⟦/⟧\n\n⟦F⟧Once v7 has been out for a release, a follow-up migration can rebuild `notes` without the column.⟦/⟧ ⟦F⟧If you want, I can add a second test that starts from version 5 and runs the auto-migration and `MIGRATION_6_7` back to back.⟦/⟧"),
    ),
  ],
};
