// Where the services started by `npm test` (scripts/test/run.ts) listen.
function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run the tests with \`npm test\` (append bun test arguments after --), which starts the services they need`);
  }
  return value;
}

export const testEnv = {
  postgresUrl: () => required('OXBOW_TEST_POSTGRES_URL'),
  /** Another cluster, for the databases connections read (never the metadata's server). */
  sourcePostgresUrl: () => required('OXBOW_TEST_SOURCE_POSTGRES_URL'),
  s3: () => ({
    endpoint: required('OXBOW_TEST_S3_ENDPOINT'),
    accessKeyId: required('OXBOW_TEST_S3_ACCESS_KEY_ID'),
    secretAccessKey: required('OXBOW_TEST_S3_SECRET_ACCESS_KEY'),
    region: required('OXBOW_TEST_S3_REGION'),
    bucket: required('OXBOW_TEST_S3_BUCKET'),
  }),
  temporalAddress: () => required('OXBOW_TEST_TEMPORAL_ADDRESS'),
  temporalUiUrl: () => required('OXBOW_TEST_TEMPORAL_UI_URL'),
  stripeApiBase: () => required('OXBOW_TEST_STRIPE_API_BASE'),
  toolsDir: () => required('OXBOW_TOOLS_DIR'),
  /** The workflow bundle `npm test` builds once for every test process; absent, each worker builds its own. */
  workflowBundle: (): string | undefined => process.env.OXBOW_TEST_WORKFLOW_BUNDLE || undefined,
};
