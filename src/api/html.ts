/** Text for HTML content or a quoted attribute: every character that could open markup or close a quote is a character reference. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * JSON to carry inside a `<script type="application/json">` data block: `<`, `>` and `&` escaped as
 * JSON escapes, so no value can close the element or open a comment, and the line separators
 * JavaScript once refused.
 */
export function jsonForScript(json: string): string {
  return json.replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
