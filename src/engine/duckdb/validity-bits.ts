/**
 * Whether a row of a vector holds a value, read from the vector's validity mask (a bit per row in
 * little-endian 64-bit words, as `vector_get_validity` hands it out; none at all when every row is
 * valid) without a call into the bindings per row.
 */
export function rowIsValid(validity: Uint8Array | null | undefined, row: number): boolean {
  return !validity || ((validity[row >> 3]! >> (row & 7)) & 1) === 1;
}
