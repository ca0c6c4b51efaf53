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

export const defaultSyncMode: SyncMode = 'full_refresh_overwrite';

/**
 * The streams of one job: the ones the trigger names, else the configured ones, else every stream the
 * source has; each with the trigger's mode, else the configured one, else a full refresh that
 * overwrites (`full_refresh: true` makes every stream that). Keys default to the source's own.
 */
export function planStreams(discovered: StreamInfo[], configured: ConfiguredStream[] | null, request: SyncRequest): { plans: StreamSelection[]; refused: RefusedStream[] } {
  const names = namedStreams(configured, request) ?? discovered.map((stream) => stream.name);
  const plans: StreamSelection[] = [];
  const refused: RefusedStream[] = [];
  for (const name of [...new Set(names)]) {
    const settings = configured?.find((stream) => stream.name === name);
    const syncMode = request.full_refresh ? 'full_refresh_overwrite' : (request.sync_mode?.[name] ?? settings?.sync_mode ?? defaultSyncMode);
    const info = discovered.find((stream) => stream.name === name);
    if (!info) {
      refused.push({ name, syncMode, error: `The source has no stream ${name}` });
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
    plans.push({ name, syncMode, cursorField: settings?.cursor_field, primaryKey });
  }
  return { plans, refused };
}

/** The streams a job syncs when the trigger or the connection names them; undefined: every stream the source has. */
export function namedStreams(configured: ConfiguredStream[] | null, request: SyncRequest): string[] | undefined {
  return request.streams ?? configured?.map((stream) => stream.name);
}
