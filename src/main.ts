// The single entry point: `bun src/main.ts [serve|api|worker|migrate|mail-outbox]` (serve is the default).
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logging/logger';
import { runMode, type Mode } from './runtime/modes';

const modes: readonly Mode[] = ['serve', 'api', 'worker', 'migrate', 'mail-outbox'];
const requested = process.argv[2] ?? 'serve';
if (!(modes as readonly string[]).includes(requested)) {
  console.error(`unknown mode "${requested}"; use one of: ${modes.join(', ')}`);
  process.exit(2);
}

try {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel });
  await runMode(requested as Mode, config, logger);
  process.exit(0);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(78);
  }
  console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'fatal error at start', error: String(error) }));
  process.exit(1);
}
