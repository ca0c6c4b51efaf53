import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { backends, createTestBackend, type TestBackend } from '../support/backends';
import { openLakeStorage } from '../../src/lake-storage/open-lake-storage';
import type { LakeStorage } from '../../src/lake-storage/lake-storage';
import type { LakeConfig } from '../../src/config';

/** Writes an object behind the storage's back, the way DuckDB does. */
async function putObject(lake: LakeConfig, key: string, body: string): Promise<void> {
  if (lake.kind === 'local') {
    mkdirSync(dirname(join(lake.root, key)), { recursive: true });
    writeFileSync(join(lake.root, key), body);
    return;
  }
  const s3 = new S3Client({ region: lake.region, endpoint: lake.endpoint, forcePathStyle: true, credentials: lake });
  await s3.send(new PutObjectCommand({ Bucket: lake.bucket, Key: `${lake.prefix}/${key}`, Body: body }));
  s3.destroy();
}

for (const backend of backends) {
  describe(`lake storage on ${backend}`, () => {
    let env: TestBackend;
    let storage: LakeStorage;

    beforeAll(async () => {
      env = await createTestBackend(backend);
      storage = openLakeStorage(env.config.lake);
    });
    afterAll(async () => {
      storage.close();
      await env.cleanup();
    });

    test('answers a ping', async () => {
      await storage.ping();
    });

    test('lists and purges exactly one prefix, leaving its neighbours', async () => {
      await putObject(env.config.lake, 'ws-a/main/t/1.parquet', 'a1');
      await putObject(env.config.lake, 'ws-a/results/job.parquet', 'a2');
      await putObject(env.config.lake, 'ws-ab/main/t/1.parquet', 'b');
      expect((await storage.list('ws-a/')).sort()).toEqual(['ws-a/main/t/1.parquet', 'ws-a/results/job.parquet']);
      expect(await storage.deletePrefix('ws-a/')).toBe(2);
      expect(await storage.list('ws-a/')).toEqual([]);
      expect(await storage.list('ws-ab/')).toEqual(['ws-ab/main/t/1.parquet']);
    });

    test('refuses prefixes that could escape their folder', async () => {
      for (const prefix of ['../x', '/etc', 'a//b', './a']) expect(storage.deletePrefix(prefix)).rejects.toThrow('unsafe lake storage prefix');
    });
  });
}
