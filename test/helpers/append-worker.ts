/**
 * A separate writer process for the concurrency and crash tests: appends `count` events one at
 * a time (forever when count is 0) and prints each event's id only after its append returned.
 */
import { append } from '../../src/journal/journal.js';
import { makeEvent } from './events.js';
import { journalAt } from './journal.js';

const [dir, session, countText] = process.argv.slice(2);
const count = Number(countText);
const journal = await journalAt(dir as string);
for (let i = 0; count === 0 || i < count; i++) {
  const event = makeEvent({ content: `${session} event ${i}`, session });
  await append(journal, [event]);
  process.stdout.write(`${event.id}\n`);
}
