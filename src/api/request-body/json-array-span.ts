/**
 * Where one member's array lies in the text of a JSON object that JSON.parse has already accepted: a
 * push's `records`, handed to DuckDB's reader as sent instead of written out again from the parsed
 * values (see the lake writer's records source). Only the members around it are read, the few bytes
 * before it from the front and after it from the back, never the array itself.
 */

const maxScannedBytes = 64 * 1024;
/** A push names a handful of members beside its records; a text with more is read the usual way. */
const maxMembersAfter = 8;
const quote = 0x22;
const backslash = 0x5c;

/**
 * The bytes of the array that is the value of the member `name` of the object `text` spells, which
 * has `memberCount` members once parsed; undefined when the text is not laid out plainly enough to
 * tell (a name spelled with escapes, the member twice, long members around it, no array).
 *
 * The start is exact: the first member of that name, read from the front. The end is where the
 * members after it, read from the back, begin. Were the member there twice (JSON.parse keeps the
 * last), the span would hold text after the first array, which a JSON reader refuses.
 */
export function jsonArrayMemberSpan(text: Uint8Array, name: string, memberCount: number): Uint8Array | undefined {
  const scan = new Scan(text);
  try {
    const nameBytes = new TextEncoder().encode(name);
    const start = scan.memberValueStart(nameBytes);
    if (start === undefined || text[start.at] !== 0x5b) return undefined;
    const end = scan.membersFromTheBack(memberCount - start.before - 1, start.at, nameBytes);
    return end === undefined || text[end] !== 0x5d ? undefined : text.subarray(start.at, end + 1);
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
}

/**
 * jsonArrayMemberSpan for a text not parsed yet, whose member count is unknown: the members after
 * the array are read from the back one by one for as long as they are plain, and the array taken to
 * end where the last of them begins. That is the array when the text is the object it seems to be;
 * the caller parses the array and the members around it (`[]` in its place) to be sure, and were the
 * guess wrong (the array followed by another array member), the array's text would not parse.
 */
export function jsonArrayMemberSpanUnparsed(text: Uint8Array, name: string): { start: number; end: number } | undefined {
  const scan = new Scan(text);
  const nameBytes = new TextEncoder().encode(name);
  let start: { at: number; before: number } | undefined;
  try {
    start = scan.memberValueStart(nameBytes);
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
  if (start === undefined || text[start.at] !== 0x5b) return undefined;
  let end: number | undefined;
  for (let after = 0; after <= maxMembersAfter; after++) {
    let candidate: number | undefined;
    try {
      candidate = scan.membersFromTheBack(after, start.at, nameBytes);
    } catch (error) {
      if (error instanceof NotPlain) break;
      throw error;
    }
    if (candidate === undefined) break;
    if (text[candidate] === 0x5d) end = candidate;
  }
  return end === undefined ? undefined : { start: start.at, end };
}

class NotPlain extends Error {}

class Scan {
  constructor(private readonly text: Uint8Array) {}

  /** From the front: where the named member's value begins, and how many members come before it. */
  memberValueStart(name: Uint8Array): { at: number; before: number } | undefined {
    let at = this.spaceAfter(this.text[0] === 0xef && this.text[1] === 0xbb && this.text[2] === 0xbf ? 3 : 0);
    if (this.text[at] !== 0x7b) return undefined;
    for (let before = 0; ; before++) {
      at = this.spaceAfter(at + 1);
      if (this.text[at] !== quote) return undefined;
      const nameEnd = this.stringEnd(at);
      const found = this.sameBytes(at + 1, nameEnd, name);
      at = this.spaceAfter(nameEnd + 1);
      if (this.text[at] !== 0x3a) return undefined;
      at = this.spaceAfter(at + 1);
      if (found) return { at, before };
      at = this.spaceAfter(this.valueEnd(at) + 1);
      if (this.text[at] !== 0x2c) return undefined;
    }
  }

  /**
   * From the back: skips `count` members (none of them named `name`) and the separators before them;
   * the index of the last byte of the value before them (which must lie after `after`).
   */
  membersFromTheBack(count: number, after: number, name: Uint8Array): number | undefined {
    let at = this.spaceBefore(this.text.length - 1);
    if (this.text[at] !== 0x7d || count < 0) return undefined;
    at = this.spaceBefore(at - 1);
    for (let member = 0; member < count; member++) {
      at = this.spaceBefore(this.valueStartBack(at) - 1);
      if (this.text[at] !== 0x3a) return undefined;
      at = this.spaceBefore(at - 1);
      if (this.text[at] !== quote) return undefined;
      const nameStart = this.stringStartBack(at);
      if (this.sameBytes(nameStart + 1, at, name)) return undefined;
      at = this.spaceBefore(nameStart - 1);
      if (this.text[at] !== 0x2c) return undefined;
      at = this.spaceBefore(at - 1);
    }
    return at > after ? at : undefined;
  }

  /** The closing quote of the string opening at `at`. */
  private stringEnd(at: number): number {
    for (let i = at + 1; this.within(i); i++) {
      const byte = this.text[i];
      if (byte === backslash) i++;
      else if (byte === quote) return i;
    }
    throw new NotPlain();
  }

  /**
   * The opening quote of the string closing at `at`. Within a string a quote is escaped, so preceded
   * by an odd run of backslashes; the opening one follows no backslash at all.
   */
  private stringStartBack(at: number): number {
    for (let i = at - 1; this.within(i); i--) {
      if (this.text[i] !== quote) continue;
      let backslashes = 0;
      while (this.text[i - 1 - backslashes] === backslash) backslashes++;
      if (backslashes % 2 === 0) return i;
    }
    throw new NotPlain();
  }

  /** The last byte of the value that begins at `at`. */
  private valueEnd(at: number): number {
    let depth = 0;
    for (let i = at; this.within(i); i++) {
      const byte = this.text[i]!;
      if (byte === quote) i = this.stringEnd(i);
      else if (byte === 0x5b || byte === 0x7b) depth++;
      else if (byte === 0x5d || byte === 0x7d) depth--;
      else if (depth === 0 && !scalarByte(byte)) return i - 1;
      if (depth === 0 && (byte === quote || byte === 0x5d || byte === 0x7d)) return i;
    }
    throw new NotPlain();
  }

  /** The first byte of the value that ends at `at`. */
  private valueStartBack(at: number): number {
    let depth = 0;
    for (let i = at; this.within(i); i--) {
      const byte = this.text[i]!;
      if (byte === quote) i = this.stringStartBack(i);
      else if (byte === 0x5d || byte === 0x7d) depth++;
      else if (byte === 0x5b || byte === 0x7b) depth--;
      else if (depth === 0 && !scalarByte(byte)) return i + 1;
      if (depth === 0 && (byte === quote || byte === 0x5b || byte === 0x7b)) return i;
    }
    throw new NotPlain();
  }

  private spaceAfter(at: number): number {
    while (this.within(at) && isSpace(this.text[at]!)) at++;
    return at;
  }

  private spaceBefore(at: number): number {
    while (this.within(at) && isSpace(this.text[at]!)) at--;
    return at;
  }

  /** Only the edges of the text are read: a scan that goes deeper gives up. */
  private within(at: number): boolean {
    if (at < 0 || at >= this.text.length) return false;
    if (at >= maxScannedBytes && this.text.length - at > maxScannedBytes) throw new NotPlain();
    return true;
  }

  /** Whether the name between the quotes is `name` byte for byte; a name with an escape is not told apart. */
  private sameBytes(from: number, to: number, name: Uint8Array): boolean {
    if (this.text.subarray(from, to).includes(backslash)) throw new NotPlain();
    if (to - from !== name.length) return false;
    for (let i = 0; i < name.length; i++) if (this.text[from + i] !== name[i]) return false;
    return true;
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Bytes of numbers, `true`, `false` and `null`. */
function scalarByte(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7a) || byte === 0x2d || byte === 0x2b || byte === 0x2e || byte === 0x45;
}
