/** DuckDB's units: decimal for KB/MB/GB/TB (and their one-letter forms), binary for KiB/MiB/GiB/TiB. */
const units: Record<string, number> = {
  b: 1,
  bytes: 1,
  k: 1e3,
  m: 1e6,
  g: 1e9,
  t: 1e12,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** Bytes of a size as DuckDB reads one (`1GB` is 10^9 bytes, `1GiB` 2^30); undefined when it is none. */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!match) return undefined;
  const unit = units[(match[2] || 'b').toLowerCase()];
  return unit === undefined ? undefined : Math.floor(Number(match[1]) * unit);
}
