-- The receipt log's batch start in one round trip (docs/postgresql.md, "Round trips and CPU per answer"):
-- wait for the log's transaction-scoped advisory lock, then read the newest checkpoint, the newest
-- signing key's kid and the leaf hashes after known_size up to that checkpoint, concatenated (32 bytes
-- each) with their count. VOLATILE: the read after the lock takes a fresh snapshot, so it sees every
-- batch committed while this one waited (a read in the lock's own statement would not).
CREATE FUNCTION waybill_log_batch_head(lock_key bigint, known_size bigint)
RETURNS TABLE (tree_size bigint, root_hash text, kid text, note text, newest_kid text, leaves bigint, hashes bytea)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  PERFORM pg_advisory_xact_lock(lock_key);
  RETURN QUERY
    SELECT c.tree_size, c.root_hash, c.kid, c.note,
      (SELECT k.kid FROM signing_keys k ORDER BY k.created_at DESC, k.kid LIMIT 1),
      (SELECT count(*) FROM receipts r WHERE r.seq > known_size AND r.seq <= c.tree_size),
      (SELECT string_agg(r.hash, ''::bytea ORDER BY r.seq) FROM receipts r WHERE r.seq > known_size AND r.seq <= c.tree_size)
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT * FROM log_checkpoints ORDER BY log_checkpoints.tree_size DESC LIMIT 1) AS c ON true;
END
$$;
