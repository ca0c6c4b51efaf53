import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManagedProcess, waitUntilReady } from '../../../src/process/managed-process';
import { freePort, onFreePorts } from '../../../src/process/ports';

export interface StripeMockServer {
  /** What STRIPE_API_BASE points at. */
  apiBase: string;
  stop(): Promise<void>;
}

/**
 * stripe-mock on free ports: Stripe's API as its OpenAPI description defines it (the same paths,
 * parameters, validation and error bodies), answered from fixtures. It keeps no state: every create
 * returns the same fixture object, whatever was sent.
 */
export async function startStripeMock(binary: string): Promise<StripeMockServer> {
  const dir = mkdtempSync(join(tmpdir(), 'oxbow-stripe-mock-'));
  // Started again on other ports when one was taken before stripe-mock bound it (it exits saying so).
  const { server, apiBase } = await onFreePorts(async (attempt) => {
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    // Both listeners get a port of their own: left out, HTTPS takes the fixed default 12112, which two runs on one machine would share.
    const server = ManagedProcess.spawn({
      name: 'stripe-mock',
      argv: [binary, '-http-addr', `127.0.0.1:${httpPort}`, '-https-addr', `127.0.0.1:${httpsPort}`],
      logFile: join(dir, `stripe-mock-${attempt}.log`),
    });
    const apiBase = `http://127.0.0.1:${httpPort}`;
    try {
      // Any answer from the API (a 401 without a key) means it is listening.
      await waitUntilReady(server, async () => (await fetch(`${apiBase}/v1/customers`)).status > 0, 30_000);
      return { server, apiBase };
    } catch (error) {
      await server.stop({ graceMs: 1_000 });
      throw error;
    }
  });
  return {
    apiBase,
    async stop() {
      await server.stop({ graceMs: 5_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
