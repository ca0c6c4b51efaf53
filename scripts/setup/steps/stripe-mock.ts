import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Toolchain, ToolPaths } from '../toolchain';
import { runOrFail } from '../shell';
import { readStamp, writeStamp } from '../stamp';

/**
 * stripe-mock, Stripe's own server that answers its real API (paths, parameters, errors) from the
 * published OpenAPI description: the billing tests talk to it, never to a fake of our own code.
 * Built from the Go module proxy like MinIO.
 */
export function installStripeMock(toolchain: Toolchain, paths: ToolPaths): void {
  const version = toolchain.stripeMock;
  const link = join(paths.binDir, 'stripe-mock');
  if (readStamp(paths.stripeMockDir) === version && existsSync(link)) return;

  console.log(`[setup] building stripe-mock ${version} with go install…`);
  rmSync(paths.stripeMockDir, { recursive: true, force: true });
  mkdirSync(paths.stripeMockDir, { recursive: true });
  runOrFail(['go', 'install', `github.com/stripe/stripe-mock@${version}`], `go install github.com/stripe/stripe-mock@${version}`, {
    env: { GOBIN: paths.stripeMockDir },
  });
  mkdirSync(paths.binDir, { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(join(paths.stripeMockDir, 'stripe-mock'), link);
  writeStamp(paths.stripeMockDir, version);
}
