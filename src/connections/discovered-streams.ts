import type { StreamInfo } from '../connectors/connector';
import { setBounded } from '../util/bounded-map';
import type { ConnectionRow } from './queries';
import type { SourceSessions } from './source-sessions';

/** How long a discovery plans syncs that name only streams it found. */
const maxAgeMs = 10 * 60_000;
/** Connections whose last discovery is kept, at most (the least recently discovered is forgotten). */
const capacity = 1_000;

/**
 * What a connection's source said its streams were, kept a while per connection and version. A sync
 * that names only streams the last discovery found plans from it instead of asking the source again:
 * asking takes an instance, an attach and catalog queries (45 ms of every sync, and load on the
 * source each time a schedule fires). A changed connection (PATCH) is a new version, a stream the last
 * discovery did not find asks again, and a sync of every stream always asks: the source may have
 * more. What a plan takes from a discovery (a stream's key, the modes it supports) changes rarely, and
 * a stream whose table went away fails its read with the source's own answer.
 */
export class DiscoveredStreams {
  /** By connection id: the last discovery, of the connection as it was then (its `updated_at`). */
  private readonly recent = new Map<string, { version: string; streams: StreamInfo[]; discoveredAt: number }>();

  constructor(
    private readonly sessions: SourceSessions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Asks the source for its streams (within the deadline, when there is one), and remembers the answer. */
  async discover(row: ConnectionRow, deadlineMs?: number): Promise<StreamInfo[]> {
    const streams = await this.sessions.use(row, (session) => session.connector.discover(session.context), { deadlineMs });
    setBounded(this.recent, row.id, { version: row.updated_at, streams, discoveredAt: this.now() }, capacity);
    return streams;
  }

  /** The last discovery when it is recent and found every stream named, else a new one (`undefined`: every stream, always new). */
  async naming(row: ConnectionRow, names: readonly string[] | undefined): Promise<StreamInfo[]> {
    const recent = this.recent.get(row.id);
    const fresh = recent !== undefined && recent.version === row.updated_at && this.now() - recent.discoveredAt < maxAgeMs;
    if (fresh && names !== undefined && names.every((name) => recent.streams.some((stream) => stream.name === name))) return recent.streams;
    return this.discover(row);
  }
}
