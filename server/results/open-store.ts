// The store the configuration names: DATA_DIR/results by default, S3 with RESULTS_STORE=s3.
import type { ResultsConfig } from '../config/config';
import { createDiskStore } from './disk-store';
import type { ResultStore } from './store';

export async function openResultStore(
  config: ResultsConfig | undefined,
  dataDir: string,
): Promise<ResultStore> {
  if (config?.store !== 's3') return createDiskStore(dataDir);
  if (!config.s3) throw new Error('RESULTS_STORE=s3 needs S3_BUCKET');
  // The AWS SDK loads only for a console that stores on S3.
  const { createS3Store } = await import('./s3-store');
  return createS3Store(config.s3);
}
