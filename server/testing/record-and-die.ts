// A child process for server/tasks/recorder-writes.test.ts: records status answers into the
// PGlite in DATA_DIR as fast as it can and prints `acked <id>` for each one its recorder has
// acknowledged (the moment the console would answer the browser). The test kills it with SIGKILL
// mid-write and looks for every acknowledged answer in the folder.
import { openDatabase } from '../db/database';
import { createTaskRecorder } from '../tasks/recorder';

const database = await openDatabase({ dataDir: process.env.DATA_DIR! });
const recorder = createTaskRecorder(Promise.resolve(database));
process.stdout.write('open\n');
for (let i = 0; ; i++) {
  const id = `crash-${i}`;
  // A new task, a changed answer, and an unchanged one (no write: its check time is batched).
  await recorder.status('image_generate', id, { task_id: id, status: 'RUNNING' });
  await recorder.status('image_generate', id, {
    task_id: id,
    status: 'SUCCEEDED',
    image_url: `https://x/${i}`,
  });
  await recorder.status('image_generate', id, {
    task_id: id,
    status: 'SUCCEEDED',
    image_url: `https://x/${i}`,
  });
  process.stdout.write(`acked ${id}\n`);
}
