/**
 * Sets `key` as the map's newest entry and drops its oldest once the map holds more than `capacity`:
 * a cache that forgets what was least recently stored. Returns the value dropped, for a cache whose
 * values must be released.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): V | undefined {
  map.delete(key);
  map.set(key, value);
  if (map.size <= capacity) return undefined;
  const [oldestKey, oldest] = map.entries().next().value!;
  map.delete(oldestKey);
  return oldest;
}
