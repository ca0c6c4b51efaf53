import type { CorpusEntry } from './corpus-entry';
import { aggregates } from './entries/aggregates';
import { basics } from './entries/basics';
import { dialect } from './entries/dialect';
import { joins } from './entries/joins';
import { json } from './entries/json';
import { text } from './entries/text';
import { time } from './entries/time';

export type { CorpusEntry } from './corpus-entry';

/** Every query of the Postgres comparison corpus. */
export const corpus: readonly CorpusEntry[] = [...basics, ...joins, ...aggregates, ...text, ...time, ...json, ...dialect];
