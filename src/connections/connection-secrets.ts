import type { SealedBox } from '../crypto/sealed-box';
import { maskedSpec, secretPaths, splitSecrets, withSecrets } from '../connectors/spec-values';
import type { AnyConnector } from '../connectors/connector';
import type { ConnectionRow } from './queries';

type SpecObject = Record<string, unknown>;

/**
 * A connection's secrets (its type's `writeOnly` fields) live sealed apart from the rest of its spec,
 * bound to the connection's id: a ciphertext copied to another row does not open.
 */
export class ConnectionSecrets {
  constructor(private readonly box: SealedBox) {}

  /** The stored columns of a validated spec. */
  seal(connectionId: string, connector: AnyConnector, spec: SpecObject): { spec: string; secrets_sealed: string | null } {
    const { plain, secrets } = splitSecrets(spec, secretPaths(connector.spec));
    const sealed = Object.keys(secrets).length ? this.box.seal(JSON.stringify(secrets), context(connectionId)) : null;
    return { spec: JSON.stringify(plain), secrets_sealed: sealed };
  }

  /** The whole spec, secrets included: for the connector only, never for an answer or a log. */
  open(row: Pick<ConnectionRow, 'id' | 'spec' | 'secrets_sealed'>): SpecObject {
    return withSecrets(JSON.parse(row.spec) as SpecObject, this.secretsOf(row));
  }

  /** The spec as answers show it: secrets that are set read `********`. */
  masked(row: Pick<ConnectionRow, 'id' | 'spec' | 'secrets_sealed'>): SpecObject {
    return maskedSpec(JSON.parse(row.spec) as SpecObject, this.secretsOf(row));
  }

  private secretsOf(row: Pick<ConnectionRow, 'id' | 'secrets_sealed'>): Record<string, string> {
    return row.secrets_sealed ? (JSON.parse(this.box.open(row.secrets_sealed, context(row.id))) as Record<string, string>) : {};
  }
}

function context(connectionId: string): string {
  return `connection-spec:${connectionId}`;
}
