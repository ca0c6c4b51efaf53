import type { TestApp } from './test-app';

/** The environment that makes a separate service process (a worker, say) share a test app's deployment. */
export function serviceEnvOf(t: TestApp): Record<string, string> {
  const { config } = t.backend;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    DATA_DIR: config.dataDir,
    OXBOW_TOOLS_DIR: process.env.OXBOW_TOOLS_DIR!,
    JWT_SECRET: config.secrets.jwtSecret,
    ENCRYPTION_KEY: config.secrets.encryptionKey.toString('hex'),
    TEMPORAL_ADDRESS: t.infra.temporalAddress,
    TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
  };
  if (config.temporal.workflowBundle) env.TEMPORAL_WORKFLOW_BUNDLE = config.temporal.workflowBundle;
  if (config.metadata.kind === 'postgres') env.DATABASE_URL = config.metadata.url;
  if (config.lake.kind === 's3') {
    Object.assign(env, {
      LAKE_URL: `s3://${config.lake.bucket}/${config.lake.prefix}`,
      AWS_ACCESS_KEY_ID: config.lake.accessKeyId,
      AWS_SECRET_ACCESS_KEY: config.lake.secretAccessKey,
      AWS_REGION: config.lake.region,
      AWS_ENDPOINT_URL_S3: config.lake.endpoint!,
    });
  }
  return env;
}
