import { AsyncLocalStorage } from 'node:async_hooks';

/** Structured fields of a log line. */
export type LogFields = Record<string, unknown>;

/**
 * What every log line written on behalf of one request, workflow or activity carries (its request or
 * workflow id, its workspace), without each function passing it on: set where the work begins,
 * added to as it learns more (the workspace a request names), read by the logger.
 */
const storage = new AsyncLocalStorage<LogFields>();

/**
 * Runs `work` with `fields` added to the current context. Outside any context `fields` itself becomes
 * the context, so whoever made it sees what is added later (a request's access line, written after
 * its handler has returned).
 */
export function withLogContext<T>(fields: LogFields, work: () => T): T {
  const parent = storage.getStore();
  return storage.run(parent ? { ...parent, ...fields } : fields, work);
}

/** Adds fields to the current context (the request's workspace once it is known). */
export function addLogContext(fields: LogFields): void {
  const current = storage.getStore();
  if (current) Object.assign(current, fields);
}

export function currentLogContext(): LogFields | undefined {
  return storage.getStore();
}
