import type { AnyConnector } from '../connectors/connector';
import { destinationOf } from '../connectors/source-address';
import { maskedSecret, secretPaths } from '../connectors/spec-values';
import { addressesOf } from './source-sessions';

type SpecObject = Record<string, unknown>;

/** A changed spec, once its secrets are bound to where it now points. */
export interface BoundSpec {
  spec: SpecObject;
  /** The spec points somewhere else than before: another host, port, database, origin, endpoint or bucket. */
  repointed: boolean;
}

/**
 * A connection's secrets are bound to where it points: a change of destination drops every stored
 * secret the same change does not set anew, so a password or an auth header never follows a
 * connection to a server its owner did not choose for it. `patch` is the spec as the request sent it
 * (a secret sent back as `********` is kept only while the destination stays).
 */
export function bindSecrets(connector: AnyConnector, before: SpecObject, after: SpecObject, patch: SpecObject): BoundSpec {
  if (sameDestinations(destinations(connector, before), destinations(connector, after))) return { spec: after, repointed: false };
  const spec = structuredClone(after);
  for (const path of secretPaths(connector.spec)) {
    const sent = valueAt(patch, path);
    if (typeof sent === 'string' && sent !== maskedSecret) continue;
    const parent = valueAt(spec, path.slice(0, -1));
    if (parent !== null && typeof parent === 'object') delete (parent as SpecObject)[path.at(-1)!];
  }
  return { spec, repointed: true };
}

/** Whether the spec holds a secret with a value (an empty password protects nothing). */
export function carriesSecrets(connector: AnyConnector, spec: SpecObject): boolean {
  return secretPaths(connector.spec).some((path) => {
    const value = valueAt(spec, path);
    return typeof value === 'string' && value !== '';
  });
}

/** Where a spec sends its secrets; a stored spec its connector cannot read any more points nowhere known. */
function destinations(connector: AnyConnector, spec: SpecObject): Set<string> | undefined {
  try {
    return new Set(addressesOf(connector, spec).map(destinationOf));
  } catch {
    return undefined;
  }
}

function sameDestinations(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  return a !== undefined && b !== undefined && a.size === b.size && [...a].every((destination) => b.has(destination));
}

function valueAt(spec: unknown, path: string[]): unknown {
  let node = spec;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as SpecObject)[key];
  }
  return node;
}
