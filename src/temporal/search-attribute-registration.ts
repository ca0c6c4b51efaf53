import type { Logger } from '../logging/logger';
import type { TemporalClient } from './client';
import { searchAttributeTypes } from './search-attributes';

// temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD: every attribute of the service is a keyword.
const keywordType = 2;

/**
 * Registers the service's search attributes on the namespace when they are missing. The supervised
 * dev server is started with them; a cluster may refuse a worker the right to add them (Temporal
 * Cloud, a locked-down operator API), in which case the log says what to run by hand.
 */
export async function ensureSearchAttributes(temporal: TemporalClient, namespace: string, logger: Logger): Promise<void> {
  const operator = temporal.connection.operatorService;
  const existing = await temporal.call(() => operator.listSearchAttributes({ namespace }));
  const missing = Object.keys(searchAttributeTypes).filter((name) => !Object.hasOwn(existing.customAttributes ?? {}, name));
  if (missing.length === 0) return;
  try {
    await temporal.call(() => operator.addSearchAttributes({ namespace, searchAttributes: Object.fromEntries(missing.map((name) => [name, keywordType])) }));
    logger.info('search attributes registered', { namespace, attributes: missing });
  } catch (error) {
    logger.error('search attributes are missing and could not be registered; workflows cannot start until they are', {
      namespace,
      attributes: missing,
      hint: `temporal operator search-attribute create --namespace ${namespace} ${missing.map((name) => `--name ${name} --type Keyword`).join(' ')}`,
      error,
    });
    throw error;
  }
}
