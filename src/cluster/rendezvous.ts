import { createHash } from 'node:crypto';

/**
 * Rendezvous (highest random weight) hashing: of the candidates, the one whose hash with the key is
 * highest. Every process that sees the same candidates picks the same one with no coordination, and
 * when a candidate leaves only the keys it had move (each to its own next best), when one joins only
 * the keys it wins move to it. SHA-256 so that every replica, whatever its runtime, weighs alike.
 */
export function rendezvous<T extends { id: string }>(key: string, candidates: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestWeight = -1n;
  for (const candidate of candidates) {
    const weight = weightOf(`${candidate.id}\u0000${key}`);
    if (weight > bestWeight) {
      best = candidate;
      bestWeight = weight;
    }
  }
  return best;
}

function weightOf(text: string): bigint {
  return createHash('sha256').update(text).digest().readBigUInt64BE(0);
}
