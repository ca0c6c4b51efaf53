import type { StreamInfo, StreamSelection, SyncMode } from '../connectors/connector';

/** A stream as the connection configures it (absent: every stream, with the defaults). */
export interface ConfiguredStream {
  name: string;
  sync_mode?: SyncMode;
  cursor_field?: string;
  primary_key?: string[];
}

/** What a trigger may ask of one sync: some streams only, other modes, or a full refresh of everything. */
export interface SyncRequest {
  streams?: string[];
  sync_mode?: Record<string, SyncMode>;
  full_refresh?: boolean;
}

/** A stream the job cannot sync as asked, and why: it ends failed with that message. */
export interface RefusedStream {
  name: string;
  syncMode: SyncMode;
  error: string;
}

/** A stream the credentials cannot read (see StreamInfo.unavailable): skipped, with the reason. */
export interface SkippedStream {
  name: string;
  syncMode: SyncMode;
  reason: string;
}

export const defaultSyncMode: SyncMode = 'full_refresh_overwrite';

/**
 * The streams of one job: the ones the trigger names, else the configured ones, else every stream the
 * source has; each with the trigger's mode, else the configured one, else a full refresh that
 * overwrites (`full_refresh: true` makes every stream that). Keys default to the source's own.
 */
export function planStreams(
  discovered: StreamInfo[],
  configured: ConfiguredStream[] | null,
  request: SyncRequest,
): { plans: StreamSelection[]; refused: RefusedStream[]; skipped: SkippedStream[] } {
  const names = namedStreams(configured, request) ?? discovered.map((stream) => stream.name);
  const plans: StreamSelection[] = [];
  const refused: RefusedStream[] = [];
  const skipped: SkippedStream[] = [];
  for (const name of [...new Set(names)]) {
    const settings = configured?.find((stream) => stream.name === name);
    const syncMode = request.full_refresh ? 'full_refresh_overwrite' : (request.sync_mode?.[name] ?? settings?.sync_mode ?? defaultSyncMode);
    const info = discovered.find((stream) => stream.name === name);
    if (!info) {
      refused.push({ name, syncMode, error: `The source has no stream ${name}` });
      continue;
    }
    if (info.unavailable !== undefined) {
      skipped.push({ name, syncMode, reason: info.unavailable });
      continue;
    }
    const primaryKey = settings?.primary_key ?? info.primary_key;
    if (syncMode === 'incremental_append_deduped' && primaryKey.length === 0) {
      refused.push({ name, syncMode, error: `Stream ${name} has no primary key, which ${syncMode} needs: configure one` });
      continue;
    }
    if (!info.supported_sync_modes.includes(syncMode) && !(settings?.cursor_field && syncMode.startsWith('incremental'))) {
      refused.push({ name, syncMode, error: `Stream ${name} supports ${info.supported_sync_modes.join(', ')}, not ${syncMode}` });
      continue;
    }
    const cursor = cursorOf(info, syncMode, settings?.cursor_field);
    if ('problem' in cursor) {
      refused.push({ name, syncMode, error: cursor.problem });
      continue;
    }
    const cursorField = cursor.field;
    plans.push({ name, syncMode, cursorField, primaryKey });
  }
  return { plans, refused, skipped };
}

/** The streams a job syncs when the trigger or the connection names them; undefined: every stream the source has. */
export function namedStreams(configured: ConfiguredStream[] | null, request: SyncRequest): string[] | undefined {
  return request.streams ?? configured?.map((stream) => stream.name);
}

/**
 * The cursor of a stream in a mode: none outside the incremental modes; the source's own where it
 * tracks changes itself (a modification stamp, which no other field may replace, or a change log);
 * else the one configured, which a stream without one must name among its candidates.
 */
export function cursorOf(info: StreamInfo, syncMode: SyncMode, configured: string | undefined): { field: string | undefined } | { problem: string } {
  if (!syncMode.startsWith('incremental')) return { field: configured };
  if (info.source_defined_cursor && info.default_cursor_field !== undefined) {
    if (configured !== undefined && configured !== info.default_cursor_field)
      return { problem: `Stream ${info.name} uses the source's own cursor ${info.default_cursor_field}; its cursor_field cannot be ${configured}` };
    return { field: info.default_cursor_field };
  }
  if (configured !== undefined || info.source_defined_cursor) return { field: configured ?? info.default_cursor_field };
  if (info.default_cursor_field !== undefined) return { field: info.default_cursor_field };
  const choice = info.cursor_candidates.length
    ? `choose its cursor_field among ${info.cursor_candidates.join(', ')}`
    : 'it has no column that could be a cursor: sync it with a full refresh';
  return { problem: `Stream ${info.name} needs a cursor_field for ${syncMode}: ${choice}` };
}
