// The services compose.yaml runs beside the console, made here on the host for
// scripts/check-container.sh (no image registry is reachable to pull postgres and minio): a throwaway
// PostgreSQL cluster and an S3-compatible store (s3rver) with the console's bucket. Prints the
// console's variables for them, one `NAME=value` a line, then `ready`; stops both when its standard
// input closes or it is sent SIGTERM.
//
//   npx tsx scripts/container-services.ts <postgres port> <s3 port>
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { startTestPostgres } from '../server/testing/postgres';

const [postgresPort, s3Port] = process.argv.slice(2).map(Number);
if (!postgresPort || !s3Port) throw new Error('usage: container-services.ts <postgres port> <s3 port>');

const BUCKET = 'media-console';
const postgres = await startTestPostgres(postgresPort);
const databaseUrl = postgres.createDatabase('console');
const folder = mkdtempSync(join(tmpdir(), 'container-services-'));
const s3 = new S3rver({
  port: s3Port,
  address: '127.0.0.1',
  silent: true,
  directory: join(folder, 's3'),
  configureBuckets: [{ name: BUCKET }],
});
await s3.run();

// The variables compose.yaml gives the console, pointing at these.
const variables = {
  DATABASE_URL: databaseUrl,
  RESULTS_STORE: 's3',
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
  S3_REGION: 'us-east-1',
  S3_FORCE_PATH_STYLE: '1',
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
};
for (const [name, value] of Object.entries(variables)) console.log(`${name}=${value}`);
console.log(`S3_FOLDER=${join(folder, 's3', BUCKET)}`);
console.log('ready');

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await s3.close().catch(() => undefined);
  postgres.stop();
  rmSync(folder, { recursive: true, force: true });
  process.exit(0);
}
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
