import { DefaultLogger, Runtime, type LogLevel as TemporalLogLevel } from '@temporalio/worker';
import type { LogLevel } from '../config';
import type { Logger } from '../logging/logger';

const temporalLevel: Record<LogLevel, TemporalLogLevel> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR' };

let installed = false;

/**
 * Routes the Temporal SDK's own logs (worker state, core) into the service's JSON logs. The SDK allows
 * one runtime per process, installed before the first worker; later calls are no-ops.
 */
export function installTemporalRuntimeLogging(logger: Logger, level: LogLevel, metricsAddress?: string): void {
  if (installed) return;
  installed = true;
  const sdkLogger = logger.child({ component: 'temporal-sdk' });
  // The SDK is chatty at INFO about every worker state change; keep it at WARN unless debugging.
  const threshold = level === 'debug' ? 'DEBUG' : temporalLevel[level === 'info' ? 'warn' : level];
  Runtime.install({
    // The SDK's own metrics (task slots, polls, latencies) on a loopback listener that /metrics reads.
    ...(metricsAddress ? { telemetryOptions: { metrics: { prometheus: { bindAddress: metricsAddress } } } } : {}),
    logger: new DefaultLogger(threshold, (entry) => {
      const fields = { ...entry.meta };
      switch (entry.level) {
        case 'TRACE':
        case 'DEBUG':
          return sdkLogger.debug(entry.message, fields);
        case 'INFO':
          return sdkLogger.info(entry.message, fields);
        case 'WARN':
          return sdkLogger.warn(entry.message, fields);
        default:
          return sdkLogger.error(entry.message, fields);
      }
    }),
  });
}
