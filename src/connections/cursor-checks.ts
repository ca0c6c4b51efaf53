import { RequestValidationError, type ValidationIssue } from '../errors/app-error';
import type { AnyConnector, StreamInfo, SyncMode } from '../connectors/connector';
import { SourceError } from '../connectors/source-error';
import { cursorOf, defaultSyncMode, type ConfiguredStream, type SyncRequest } from './stream-plan';

/** A stream as a configuration or a trigger asks for it, and where in the request that was said. */
export interface AskedStream {
  name: string;
  syncMode: SyncMode;
  cursorField?: string;
  primaryKey?: string[];
  loc: (string | number)[];
}

/**
 * Refuses (422) an incremental stream that has no cursor, naming the candidates the source offers:
 * when the connection is configured (create, PATCH) and when a sync is triggered, rather than in the
 * job. Streams the source tracks itself need none: a CRM's modification stamp, a change log. The
 * source is asked only when such a stream is there; when it cannot be asked, the stream still needs a
 * cursor_field, and the message says the candidates could not be listed.
 */
export async function assertCursors(
  connector: AnyConnector,
  spec: Record<string, unknown>,
  asked: AskedStream[],
  discover: () => Promise<StreamInfo[]>,
): Promise<void> {
  if (connector.ownCursors) return;
  const needing = asked.filter(
    (stream) =>
      stream.syncMode.startsWith('incremental') &&
      stream.cursorField === undefined &&
      !connector.changeLog?.reads(spec, { name: stream.name, syncMode: stream.syncMode, primaryKey: stream.primaryKey ?? [] }),
  );
  if (needing.length === 0) return;
  let discovered: StreamInfo[];
  try {
    discovered = await discover();
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    throw new RequestValidationError(
      needing.map((stream) => ({
        loc: stream.loc,
        msg: `Stream ${stream.name} needs a cursor_field for ${stream.syncMode} (the source could not be asked for its candidates: ${error.message})`,
        type: 'missing',
      })),
    );
  }
  const issues = needing.flatMap((stream): ValidationIssue[] => {
    const info = discovered.find((candidate) => candidate.name === stream.name);
    if (!info) return [];
    const cursor = cursorOf(info, stream.syncMode, undefined);
    return 'problem' in cursor ? [{ loc: stream.loc, msg: cursor.problem, type: 'missing' }] : [];
  });
  if (issues.length) throw new RequestValidationError(issues);
}

/** The configured streams as asked, each at its place in the body. */
export function configuredAsked(streams: ConfiguredStream[] | null): AskedStream[] {
  return (streams ?? []).map((stream, index) => ({
    name: stream.name,
    syncMode: stream.sync_mode ?? defaultSyncMode,
    cursorField: stream.cursor_field,
    primaryKey: stream.primary_key,
    loc: ['body', 'streams', index, 'cursor_field'],
  }));
}

/** The streams a trigger syncs, with the modes it asks for (a mode named in its body is refused at `sync_mode.<stream>`). */
export function triggeredAsked(streams: ConfiguredStream[] | null, request: SyncRequest): AskedStream[] {
  if (request.full_refresh) return [];
  const names = request.streams ?? streams?.map((stream) => stream.name) ?? Object.keys(request.sync_mode ?? {});
  return names.map((name) => {
    const configured = streams?.find((stream) => stream.name === name);
    const asked = request.sync_mode?.[name];
    return {
      name,
      syncMode: asked ?? configured?.sync_mode ?? defaultSyncMode,
      cursorField: configured?.cursor_field,
      primaryKey: configured?.primary_key,
      loc: asked ? ['body', 'sync_mode', name] : ['body', 'streams', name],
    };
  });
}
