import { RequestValidationError, type ValidationIssue } from '../errors/app-error';
import type { AnyConnector, SyncMode } from '../connectors/connector';
import { connectorOf, connectorTypes } from '../connectors/registry';
import { SpecValueError, validateSpec } from '../connectors/spec-values';
import { identifierPattern, reservedNamespacePattern } from '../engine/write/table-name';
import { parseSchedule, type Schedule } from '../schedules/schedule';
import { parseDuration } from '../util/duration';
import type { ConfiguredStream } from './stream-plan';
import type { QueryMode } from './queries';

const identifier = new RegExp(identifierPattern);
const reserved = new RegExp(reservedNamespacePattern);

/** A connection's name is the lake schema of its tables: the rules of a push namespace. */
export function checkedName(name: string): string {
  if (!identifier.test(name)) {
    throw RequestValidationError.at(
      ['body', 'name'],
      'A name starts with a letter or an underscore, continues with letters, digits or underscores and has at most 63 characters',
      'string_pattern_mismatch',
    );
  }
  const folded = name.toLowerCase();
  if (reserved.test(folded)) throw RequestValidationError.at(['body', 'name'], `The name "${folded}" is reserved`, 'value_error');
  return folded;
}

export function checkedConnector(type: string): AnyConnector {
  const connector = connectorOf(type);
  if (!connector) {
    throw RequestValidationError.at(
      ['body', 'connector_type'],
      `Input should be ${connectorTypes()
        .map((candidate) => `'${candidate.type}'`)
        .join(', ')}`,
      'literal_error',
    );
  }
  return connector;
}

export function checkedObject(spec: unknown): Record<string, unknown> {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
    throw RequestValidationError.at(['body', 'spec'], 'Input should be an object', 'dict_type');
  return spec as Record<string, unknown>;
}

/**
 * The spec against the type's JSON Schema, defaults filled in, and every address it names one the
 * connector can use (a URL that parses); every problem a 422 at its field.
 */
export function checkedSpec(connector: AnyConnector, spec: unknown): Record<string, unknown> {
  const result = validateSpec(connector.spec, checkedObject(spec));
  const at = (issue: { path: (string | number)[]; msg: string; type: string }): ValidationIssue => ({
    loc: ['body', 'spec', ...issue.path],
    msg: issue.msg,
    type: issue.type,
  });
  if (!result.spec) throw new RequestValidationError(result.issues.map(at));
  try {
    connector.addresses(result.spec);
  } catch (error) {
    if (error instanceof SpecValueError) throw new RequestValidationError([at(error.issue)]);
    throw error;
  }
  return result.spec;
}

export function checkedQueryMode(connector: AnyConnector, mode: QueryMode): QueryMode {
  if (mode === 'live' && !connector.supportsLive)
    throw RequestValidationError.at(['body', 'query_mode'], `Connections of type ${connector.type} are synced only; live is not available`, 'value_error');
  return mode;
}

export function checkedSchedule(text: string | null, minimumMs: number): Schedule | null {
  if (text === null) return null;
  const schedule = parseSchedule(text, { minimumIntervalMs: minimumMs });
  if ('problem' in schedule) throw RequestValidationError.at(['body', 'sync_schedule'], schedule.problem, 'value_error');
  return schedule;
}

/** Key comparisons run at most this often: each lists every key of the source's tables. */
const minimumComparisonMs = 60 * 60_000;

/** How often keys are compared with the source's: a duration of an hour or more (`24h`), or null for never. */
export function checkedComparison(text: string | null): string | null {
  if (text === null) return null;
  const ms = parseDuration(text);
  if (ms === undefined || text.trim().endsWith('ms') || /^\d+$/.test(text.trim()))
    throw RequestValidationError.at(['body', 'key_comparison_every'], 'A duration such as 6h or 1d', 'value_error');
  if (ms < minimumComparisonMs) throw RequestValidationError.at(['body', 'key_comparison_every'], 'Keys are compared at most once an hour', 'value_error');
  return text.trim();
}

/** Configured streams: one entry per name, each mode one the type offers. */
export function checkedStreams(connector: AnyConnector, streams: ConfiguredStream[] | null): ConfiguredStream[] | null {
  if (streams === null) return null;
  const seen = new Set<string>();
  for (const [index, stream] of streams.entries()) {
    if (seen.has(stream.name)) throw RequestValidationError.at(['body', 'streams', index, 'name'], `Stream ${stream.name} is named twice`, 'value_error');
    seen.add(stream.name);
    if (stream.sync_mode && !connector.supportedSyncModes.includes(stream.sync_mode as SyncMode)) {
      throw RequestValidationError.at(
        ['body', 'streams', index, 'sync_mode'],
        `Connections of type ${connector.type} support ${connector.supportedSyncModes.join(', ')}`,
        'value_error',
      );
    }
  }
  return streams;
}
