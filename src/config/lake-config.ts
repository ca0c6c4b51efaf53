import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EnvReader } from './env-reader';

/** Where table data lives: a local directory or an S3 bucket (with an optional key prefix). */
export type LakeConfig =
  | { kind: 'local'; root: string }
  | {
      kind: 's3';
      bucket: string;
      prefix: string;
      region: string;
      /** Custom endpoint for S3-compatible servers (MinIO and the like); path-style addressing is used with it. */
      endpoint: string | undefined;
      accessKeyId: string;
      secretAccessKey: string;
    };

export function parseLakeUrl(env: EnvReader, dataDir: string): LakeConfig {
  const url = env.url('LAKE_URL', pathToFileURL(join(dataDir, 'lake')).href, ['file:', 's3:']);
  if (url.protocol === 'file:') return { kind: 'local', root: resolve(fileURLToPath(url)) };

  const accessKeyId = env.optionalString('AWS_ACCESS_KEY_ID') ?? env.reject('AWS_ACCESS_KEY_ID', 'is required when LAKE_URL is s3://…', '');
  const secretAccessKey = env.optionalString('AWS_SECRET_ACCESS_KEY') ?? env.reject('AWS_SECRET_ACCESS_KEY', 'is required when LAKE_URL is s3://…', '');
  const endpoint = env.optionalUrl('AWS_ENDPOINT_URL_S3', ['http:', 'https:']);
  if (!url.hostname) env.reject('LAKE_URL', 'must name a bucket, as in s3://bucket/prefix', undefined);
  return {
    kind: 's3',
    bucket: url.hostname,
    prefix: url.pathname.replace(/^\/+|\/+$/g, ''),
    region: env.string('AWS_REGION', 'us-east-1'),
    endpoint: endpoint?.origin,
    accessKeyId,
    secretAccessKey,
  };
}
