import { DeleteObjectCommand, DeleteObjectsCommand, HeadBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { LakeConfig } from '../config';
import { assertSafePrefix, type LakeStorage } from './lake-storage';

type S3LakeConfig = Extract<LakeConfig, { kind: 's3' }>;

export class S3LakeStorage implements LakeStorage {
  readonly rootUrl: string;
  private readonly client: S3Client;
  private readonly keyPrefix: string;

  constructor(private readonly config: S3LakeConfig) {
    this.keyPrefix = config.prefix ? `${config.prefix}/` : '';
    this.rootUrl = `s3://${config.bucket}/${this.keyPrefix}`;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.endpoint !== undefined,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    });
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
  }

  async list(prefix: string): Promise<string[]> {
    assertSafePrefix(prefix);
    const keys: string[] = [];
    for await (const page of this.pages(prefix)) keys.push(...page.map((key) => key.slice(this.keyPrefix.length)));
    return keys;
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertSafePrefix(prefix);
    let deleted = 0;
    for await (const page of this.pages(prefix)) {
      if (page.length === 0) continue;
      const result = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.config.bucket, Delete: { Objects: page.map((Key) => ({ Key })), Quiet: true } }),
      );
      if (result.Errors?.length) throw new Error(`could not delete ${result.Errors.length} objects under ${prefix}: ${result.Errors[0]?.Message}`);
      deleted += page.length;
    }
    return deleted;
  }

  async delete(key: string): Promise<void> {
    assertSafePrefix(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: `${this.keyPrefix}${key}` }));
  }

  locationOf(key: string): string {
    assertSafePrefix(key);
    return `${this.rootUrl}${key}`;
  }

  async prepareFor(): Promise<void> {}

  close(): void {
    this.client.destroy();
  }

  /** Pages of at most 1,000 full keys (the DeleteObjects batch limit). */
  private async *pages(prefix: string): AsyncGenerator<string[]> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: `${this.keyPrefix}${prefix.replace(/\/?$/, '/')}`, ContinuationToken: token }),
      );
      yield (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
