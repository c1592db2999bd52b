// RESULTS_STORE=s3: any S3-compatible object store (AWS S3, Cloudflare R2, MinIO, Google Cloud
// Storage's interoperability) through the AWS SDK. A copy streams in as a multipart upload
// (lib-storage's Upload: parts of 8 MB, at most 2 in flight, so memory stays flat whatever the
// size); an object appears under its key only when the upload completes. Credentials come from the
// SDK's standard chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role).
// Loaded only when configured: the SDK is never imported by a console that stores on disk.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { assertKey, type ResultStore } from './store';

interface S3StoreOptions {
  bucket: string;
  endpoint?: string;
  region?: string;
  forcePathStyle?: boolean;
  /** Key prefix inside the bucket, e.g. `results/`. */
  prefix?: string;
  /** Tests pass fixed ones; otherwise the SDK's default chain. */
  credentials?: S3ClientConfig['credentials'];
  /** Files larger than this many bytes redirect to a presigned URL; 0 or absent = never. */
  presignAboveBytes?: number;
  /** How long a presigned URL works; default 5 minutes. */
  presignSeconds?: number;
}

const PART_SIZE = 8 * 1024 * 1024;
const PRESIGN_SECONDS = 300;

export function createS3Store(options: S3StoreOptions): ResultStore {
  const client = new S3Client({
    region: options.region ?? 'us-east-1',
    ...(options.endpoint && { endpoint: options.endpoint }),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.credentials && { credentials: options.credentials }),
  });
  const Bucket = options.bucket;
  const objectKey = (key: string) => {
    assertKey(key);
    return `${options.prefix ?? ''}${key}`;
  };
  return {
    kind: 's3',
    async put(key, body, contentType) {
      const upload = new Upload({
        client,
        params: { Bucket, Key: objectKey(key), Body: body, ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      });
      // A source that fails mid-way fails the upload (which then aborts its parts).
      const failed = new Promise<never>((_, reject) => body.on('error', reject));
      failed.catch(() => undefined);
      await Promise.race([upload.done(), failed]).catch(async (error: unknown) => {
        await upload.abort().catch(() => undefined);
        throw error;
      });
    },
    async get(key, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            ...(range && { Range: `bytes=${range.start}-${range.end}` }),
          }),
        );
        if (!answer.Body) return undefined;
        return { body: answer.Body as Readable, length: Number(answer.ContentLength ?? 0) };
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
        throw error;
      }
    },
    // A large download goes straight from the bucket (the console checked the sign-in first): the
    // URL is signed for one key, GET only, a few minutes, and makes S3 answer with the type and
    // disposition the console would send (response-content-type, response-content-disposition).
    async redirectFor(key, size, answer) {
      if (!options.presignAboveBytes || size <= options.presignAboveBytes) return undefined;
      const expiresIn = options.presignSeconds ?? PRESIGN_SECONDS;
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: objectKey(key),
          ResponseContentType: answer.contentType,
          ...(answer.contentDisposition && { ResponseContentDisposition: answer.contentDisposition }),
          ResponseCacheControl: `private, max-age=${expiresIn}`,
        }),
        { expiresIn },
      );
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    close() {
      client.destroy();
    },
  };
}
