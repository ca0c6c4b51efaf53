import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { ManagedProcess, waitUntilReady } from '../../../src/process/managed-process';
import { freePort, onFreePorts } from '../../../src/process/ports';

export interface MinioServer {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  bucket: string;
  stop(): Promise<void>;
}

/** A real S3 server (MinIO) over a temp dir on a free port, with one bucket for the tests. */
export async function startMinio(binary: string): Promise<MinioServer> {
  const dir = mkdtempSync(join(tmpdir(), 'oxbow-minio-'));
  const credentials = { accessKeyId: 'oxbow-test', secretAccessKey: randomBytes(18).toString('hex') };
  const { server, endpoint } = await startOnFreePorts(binary, dir, credentials);
  const region = 'us-east-1';
  const bucket = 'oxbow-test';
  const s3 = new S3Client({ region, endpoint, forcePathStyle: true, credentials });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  s3.destroy();

  return {
    endpoint,
    ...credentials,
    region,
    bucket,
    async stop() {
      await server.stop({ graceMs: 10_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startOnFreePorts(
  binary: string,
  dir: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
): Promise<{ server: ManagedProcess; endpoint: string }> {
  // Started again on other ports when one was taken before MinIO bound it (it exits saying so).
  return onFreePorts(async (attempt) => {
    const [port, consolePort] = [await freePort(), await freePort()];
    const server = ManagedProcess.spawn({
      name: 'minio',
      argv: [binary, 'server', join(dir, 'data'), '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`, '--quiet'],
      env: { MINIO_ROOT_USER: credentials.accessKeyId, MINIO_ROOT_PASSWORD: credentials.secretAccessKey, MINIO_BROWSER: 'off', MINIO_UPDATE: 'off' },
      logFile: join(dir, `minio-${attempt}.log`),
    });
    const endpoint = `http://127.0.0.1:${port}`;
    try {
      await waitUntilReady(server, async () => (await fetch(`${endpoint}/minio/health/live`)).ok, 60_000);
      return { server, endpoint };
    } catch (error) {
      await server.stop({ graceMs: 1_000 });
      throw error;
    }
  });
}
