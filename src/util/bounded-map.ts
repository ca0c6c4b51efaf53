/**
 * Sets `key` as the map's newest entry and drops its oldest once the map holds more than `capacity`:
 * a cache that forgets what was least recently stored.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > capacity) map.delete(map.keys().next().value!);
}
