import { isUtf8 } from 'node:buffer';
import { RequestValidationError, type ValidationIssue } from '../../errors/app-error';

/**
 * How deep arrays and objects may nest in a request body. JSON.parse itself copes with any depth, but
 * everything recursive behind it (serializers, validators, the engine) would overflow the stack long
 * before a hundred thousand levels; a hundred is far beyond any real record.
 */
export const maxJsonDepth = 100;
const maxIssues = 20;

type Loc = (string | number)[];

/** Parses a JSON body, then refuses what it cannot keep (see assertKeepable). */
export function parseJsonInput(bytes: Uint8Array): unknown {
  const text = utf8Text(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw RequestValidationError.at(['body'], 'The request body is not valid JSON', 'json_invalid');
  }
  // Valid UTF-8 holds no lone surrogate, and JSON text holds no raw NUL (control characters must be
  // escaped): only a `\u` escape can spell either. A body without one needs no look at its texts,
  // which halves the check of a large push.
  assertKeepableParsed(value, ['body'], text.includes('\\u'));
  return value;
}

/**
 * The body's text; a leading byte-order mark dropped, as a TextDecoder drops it. Checked first, then
 * decoded without checks: a fatal TextDecoder takes 9 ms over an 18 MB push, these two 1.5 ms.
 */
function utf8Text(bytes: Uint8Array): string {
  if (!isUtf8(bytes)) throw RequestValidationError.at(['body'], 'The request body is not valid UTF-8', 'json_invalid');
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Refuses what JSON (or a form, or a URL) can spell but the service cannot keep: nesting deeper than
 * maxJsonDepth; numbers beyond a double's range (`1e400` parses to Infinity, which would be stored as
 * NULL); strings or names holding a lone UTF-16 surrogate (`"\ud800"`, no Unicode text at all) or the
 * NUL character, which neither Postgres nor the lake's catalog store. Each problem is a 422 at its place.
 */
export function assertKeepable(value: unknown, loc: Loc): void {
  if (hasProblem(value, 0)) throw new RequestValidationError(locateProblems(value, loc));
}

/**
 * assertKeepable for a value JSON.parse made of a text: as for a whole body, its texts need a look
 * only when that text holds a `\u` escape (`escapes`; true when unknown).
 */
export function assertKeepableParsed(value: unknown, loc: Loc, escapes: boolean): void {
  if (hasProblem(value, 0, escapes)) throw new RequestValidationError(locateProblems(value, loc));
}

/**
 * Whether a value JSON.parse made of a text, found `depth` levels deep in its body, holds nothing
 * assertKeepable refuses; `escapes` as for assertKeepableParsed. Without the problems' places: a
 * value that fails is read again whole, which names them.
 */
export function keepableParsedAt(value: unknown, depth: number, escapes: boolean): boolean {
  return !hasProblem(value, depth, escapes);
}

function unkeepableText(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}

/**
 * The quick pass every input takes: no paths kept, stops at the first problem. Recursive: the depth
 * limit bounds it, and it is several times faster than a walk with a stack of its own on large pushes.
 */
function hasProblem(value: unknown, depth: number, checkText = true): boolean {
  if (typeof value === 'string') return checkText && unkeepableText(value);
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth >= maxJsonDepth) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (hasProblem(item, depth + 1, checkText)) return true;
    return false;
  }
  for (const key in value) {
    if ((checkText && unkeepableText(key)) || hasProblem((value as Record<string, unknown>)[key], depth + 1, checkText)) return true;
  }
  return false;
}

/** The slow pass, only for an input that has a problem: where each one is, in document order. */
function locateProblems(root: unknown, rootLoc: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: { value: unknown; loc: Loc }[] = [{ value: root, loc: rootLoc }];
  while (stack.length > 0 && issues.length < maxIssues) {
    const { value, loc } = stack.pop()!;
    if (typeof value === 'string' && unkeepableText(value)) {
      issues.push({ loc, ...textProblem(value, 'Input') });
    } else if (typeof value === 'number' && !Number.isFinite(value)) {
      issues.push({ loc, msg: 'Input should be a finite number; it is beyond the range of a double', type: 'finite_number' });
    } else if (value !== null && typeof value === 'object') {
      if (loc.length - rootLoc.length >= maxJsonDepth) {
        issues.push({ loc, msg: `Input nests arrays and objects more than ${maxJsonDepth} levels deep`, type: 'json_too_deep' });
        continue;
      }
      const children: { value: unknown; loc: Loc }[] = [];
      if (Array.isArray(value)) {
        value.forEach((item, index) => children.push({ value: item, loc: [...loc, index] }));
      } else {
        for (const key of Object.keys(value)) {
          // The name itself cannot go into `loc` (the answer would carry the same bad text): the object's place, the name escaped.
          if (unkeepableText(key)) issues.push({ loc, ...textProblem(key, `Field name ${JSON.stringify(key)}`) });
          else children.push({ value: (value as Record<string, unknown>)[key], loc: [...loc, key] });
        }
      }
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
    }
  }
  return issues;
}

function textProblem(text: string, subject: string): { msg: string; type: string } {
  return text.isWellFormed()
    ? { msg: `${subject} should not contain the NUL character (U+0000)`, type: 'string_nul' }
    : { msg: `${subject} should be a valid Unicode string; it holds a lone surrogate`, type: 'string_unicode' };
}
