import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/api/app';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logging/logger';
import { openInfrastructure } from '../../src/runtime/infrastructure';
import { buildServices } from '../../src/runtime/services';
import { systemClock } from '../../src/util/clock';

/**
 * The service's own `/openapi.json`, from the real app built on a throwaway data folder. The Temporal
 * client connects lazily and is never dialled here, so nothing but the metadata file is touched.
 */
export async function serviceOpenapiDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'oxbow-openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, TEMPORAL_ADDRESS: '127.0.0.1:7233', LOG_LEVEL: 'error' });
    const logger = createLogger({ level: 'error', sink: () => undefined });
    const infra = await openInfrastructure(config, logger, { superviseTemporal: false });
    const services = buildServices(config, infra, logger, systemClock);
    try {
      const response = await createApp(services).handle(new Request('http://localhost/openapi.json'));
      return await response.json();
    } finally {
      await services.close();
      await infra.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
