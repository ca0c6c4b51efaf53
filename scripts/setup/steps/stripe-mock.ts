import type { Toolchain, ToolPaths } from '../toolchain';
import { installGoTool } from './go-tool';

/**
 * stripe-mock, Stripe's own server that answers its real API (paths, parameters, errors) from the
 * published OpenAPI description: the billing tests talk to it, never to a fake of our own code.
 * Built from the Go module proxy like MinIO.
 */
export function installStripeMock(toolchain: Toolchain, paths: ToolPaths): void {
  installGoTool(
    {
      binary: 'stripe-mock',
      module: 'github.com/stripe/stripe-mock',
      version: toolchain.stripeMock,
      dir: paths.stripeMockDir,
      building: `building stripe-mock ${toolchain.stripeMock} with go install…`,
    },
    paths,
  );
}
