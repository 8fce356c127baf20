import type { Db } from './client';

/**
 * `build(db, key)` once per database handle (the app's pool, or one transaction) and key: a prepared
 * statement belongs to the handle it was prepared on.
 */
export function memoPerHandle<K, V>(build: (db: Db, key: K) => V): (db: Db, key: K) => V {
  const cache = new WeakMap<Db, Map<K, V>>();
  return (db, key) => {
    let byKey = cache.get(db);
    if (!byKey) {
      byKey = new Map();
      cache.set(db, byKey);
    }
    let value = byKey.get(key);
    if (value === undefined) {
      value = build(db, key);
      byKey.set(key, value);
    }
    return value;
  };
}
