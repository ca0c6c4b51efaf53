import type { AnyConnector } from './connector';
import { httpJsonConnector } from './http-json';
import { hubspotConnector } from './hubspot';
import { postgresConnector } from './postgres';
import { s3FilesConnector } from './s3-files';
import { salesforceConnector } from './salesforce';

/**
 * Every connector type the service offers: adding one is its module and a line here. Each takes the
 * spec its own schema validated (see AnyConnector), which the type system cannot follow through a list.
 */
const connectors = [postgresConnector, httpJsonConnector, s3FilesConnector, hubspotConnector, salesforceConnector] as unknown as readonly AnyConnector[];

export function connectorTypes(): readonly AnyConnector[] {
  return connectors;
}

export function connectorOf(type: string): AnyConnector | undefined {
  return connectors.find((connector) => connector.type === type);
}
