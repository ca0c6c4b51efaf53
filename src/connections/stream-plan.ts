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
 * A stream of a job's plan. Checked: the plan was made from the source's discovery. Unchecked (a job
 * whose streams are named, of a connector that describes one stream at a time): the stream's own
 * activity checks it against the source's description of it, with the same refusals, and takes the
 * source's primary key when none is configured (`primaryKey` absent).
 */
export type PlannedStream = (StreamSelection & { unchecked?: undefined }) | (Omit<StreamSelection, 'primaryKey'> & { primaryKey?: string[]; unchecked: true });

/**
 * The streams of one job: the ones the trigger names, else the configured ones, else every stream the
 * source has; each with the trigger's mode, else the configured one, else a full refresh that
 * overwrites (`full_refresh: true` makes every stream that). Keys default to the source's own.
 * Without `discovered` (the source was not asked) the streams are named ones, each left unchecked.
 */
export function planStreams(discovered: StreamInfo[] | undefined, configured: ConfiguredStream[] | null, request: SyncRequest): { plans: PlannedStream[]; refused: RefusedStream[] } {
  const names = request.streams ?? configured?.map((stream) => stream.name) ?? discovered?.map((stream) => stream.name) ?? [];
  const plans: PlannedStream[] = [];
  const refused: RefusedStream[] = [];
  for (const name of [...new Set(names)]) {
    const settings = configured?.find((stream) => stream.name === name);
    const syncMode = request.full_refresh ? 'full_refresh_overwrite' : (request.sync_mode?.[name] ?? settings?.sync_mode ?? defaultSyncMode);
    const choice = { name, syncMode, cursorField: settings?.cursor_field, primaryKey: settings?.primary_key, unchecked: true as const };
    if (!discovered) {
      plans.push(choice);
      continue;
    }
    const checked = checkStream(choice, discovered.find((stream) => stream.name === name));
    if ('refused' in checked) refused.push(checked.refused);
    else plans.push(checked.plan);
  }
  return { plans, refused };
}

/** Whether the source can sync a stream as planned (`info`: its description, absent when it has no such stream), with its key. */
export function checkStream(stream: PlannedStream, info: StreamInfo | undefined): { plan: StreamSelection } | { refused: RefusedStream } {
  const { name, syncMode, cursorField } = stream;
  if (!info) return { refused: { name, syncMode, error: `The source has no stream ${name}` } };
  const primaryKey = stream.primaryKey ?? info.primary_key;
  if (syncMode === 'incremental_append_deduped' && primaryKey.length === 0) {
    return { refused: { name, syncMode, error: `Stream ${name} has no primary key, which ${syncMode} needs: configure one` } };
  }
  if (!info.supported_sync_modes.includes(syncMode) && !(cursorField && syncMode.startsWith('incremental'))) {
    return { refused: { name, syncMode, error: `Stream ${name} supports ${info.supported_sync_modes.join(', ')}, not ${syncMode}` } };
  }
  return { plan: { name, syncMode, cursorField, primaryKey } };
}
