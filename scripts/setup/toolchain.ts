import { join, resolve } from 'node:path';

/** Exact versions of every external tool, read from the one file that pins them. */
export interface Toolchain {
  bun: string;
  temporalCli: string;
  duckdb: string;
  duckdbExtensions: string[];
  minio: string;
  /** A local server that speaks Stripe's API (tests only), built from the Go module proxy. */
  stripeMock: string;
  postgresMajor: number;
  /** The API fuzzer behind `npm run fuzz`, from PyPI. */
  schemathesis: string;
  /** Prometheus' promtool (Go module version: v0.316.0 is Prometheus 3.16.0), for the alert-rule tests. */
  promtool: string;
  /** Debian's `chromium` package version, for the browser tests (driven by playwright-core). */
  chromium: string;
}

export const projectRoot = resolve(import.meta.dir, '..', '..');

export async function readToolchain(): Promise<Toolchain> {
  return (await Bun.file(join(projectRoot, 'toolchain.json')).json()) as Toolchain;
}

/** Where the setup puts things; everything lives under the git-ignored `.tools` folder. */
export function toolPaths(toolsDir: string) {
  return {
    toolsDir,
    binDir: join(toolsDir, 'bin'),
    temporalDir: join(toolsDir, 'temporal'),
    duckdbWheelsDir: join(toolsDir, 'duckdb-wheels'),
    duckdbExtensionDir: join(toolsDir, 'duckdb-extensions'),
    minioDir: join(toolsDir, 'minio'),
    stripeMockDir: join(toolsDir, 'stripe-mock'),
    schemathesisDir: join(toolsDir, 'schemathesis'),
    openapiTypescriptDir: join(toolsDir, 'openapi-typescript'),
    promtoolDir: join(toolsDir, 'promtool'),
  };
}

export type ToolPaths = ReturnType<typeof toolPaths>;

/** DuckDB's name for this platform inside the extension directory. */
export function duckdbPlatform(): string {
  const arch = process.arch === 'arm64' ? 'arm64' : 'amd64';
  return `linux_${arch}`;
}
