import type { Config } from '../../config';
import type { Logger } from '../../logging/logger';
import type { Clock } from '../../util/clock';
import type { Infrastructure } from '../infrastructure';
import type { ServiceMetrics } from '../../metrics/service-metrics';

/** What every feature is built from: the configuration, the infrastructure, a logger and a clock. */
export interface FeatureDeps {
  config: Config;
  infra: Pick<Infrastructure, 'store' | 'lake' | 'temporal' | 'notices'>;
  logger: Logger;
  clock: Clock;
  metrics: ServiceMetrics;
}
