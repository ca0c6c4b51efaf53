import type { Logger } from '../logging/logger';

/**
 * Runs the shutdown steps once, in order, on SIGINT or SIGTERM; a second signal exits at once.
 * Each step is awaited so that in-flight requests and activities finish before connections close.
 */
export function onShutdownSignal(logger: Logger, steps: { name: string; run: () => Promise<void> }[]): Promise<void> {
  let shuttingDown = false;
  return new Promise((resolve) => {
    const handler = async (signal: NodeJS.Signals) => {
      if (shuttingDown) {
        logger.warn('second signal: exiting without waiting', { signal });
        process.exit(130);
      }
      shuttingDown = true;
      logger.info('shutting down', { signal });
      for (const step of steps) {
        try {
          await step.run();
        } catch (error) {
          logger.error('shutdown step failed', { step: step.name, error });
        }
      }
      logger.info('stopped');
      resolve();
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}
