-- Views of public charts and pages per minute, per client address and per link, counted in the store
-- when API replicas share it: counted in each process, a key got up to N times its limit behind N
-- replicas. One row per key and minute; the sliding window weighs the previous minute's row.
CREATE TABLE public_view_counts (
  limit_key TEXT NOT NULL,
  -- Start of the fixed one-minute window, in milliseconds since the epoch.
  window_ms BIGINT NOT NULL,
  views BIGINT NOT NULL,
  PRIMARY KEY (limit_key, window_ms)
);
