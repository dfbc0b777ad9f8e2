/**
 * PostgreSQL parses and plans every unnamed statement anew. The dispatcher and the webhook path run the same few
 * statements thousands of times a minute (the status batch's update alone: 0.29 ms of planning per call), so a
 * statement text that keeps coming back is sent as a named prepared statement: the server parses it once per
 * connection and, after its first five runs, may keep a generic plan (PostgreSQL's `plan_cache_mode = auto` keeps
 * one only where it costs no more than the custom plans). docs/decisions.md, "Prepared statements".
 *
 * Bounds: a text is prepared from its third use in the process (one-off texts, such as an `in (…)` list of a rare
 * length, stay unnamed), a connection holds at most PREPARED_PER_CONNECTION of them, and a text longer than
 * MAX_TEXT is never prepared.
 */
import type pg from 'pg';

/** Uses of a text in this process before it is prepared. */
export const PREPARE_FROM_USE = 3;
/** Prepared statements kept by one connection at most (the server keeps each one's parse tree and plan). */
export const PREPARED_PER_CONNECTION = 200;
/** Texts tracked for their use count at most (when full, the ones not yet named are forgotten). */
export const TRACKED_TEXTS = 2_000;
/** Texts longer than this are never prepared. */
export const MAX_TEXT = 16_384;

/**
 * A prepared statement of another shape than its result: another process (a newer version) changed a table
 * under it. The connection's statements are all suspect, so it is closed rather than returned to the pool.
 */
export const RESULT_TYPE_CHANGED = '0A000';

/** The names given to texts (one per text, shared by every connection of the process). */
export class StatementNames {
  private readonly uses = new Map<string, { count: number; name: string | null }>();
  private next = 0;

  /** The text's statement name once it is worth preparing; null before (and for texts never prepared). */
  nameOf(text: string): string | null {
    if (text.length > MAX_TEXT) return null;
    let entry = this.uses.get(text);
    if (!entry) {
      // Full: texts still short of their third use are forgotten (one-offs such as a group insert of a rare size
      // would otherwise fill the table for good, and a hot text first seen later would never be prepared).
      if (this.uses.size >= TRACKED_TEXTS) this.forgetUnnamed();
      if (this.uses.size >= TRACKED_TEXTS) return null;
      entry = { count: 0, name: null };
      this.uses.set(text, entry);
    }
    entry.count += 1;
    if (entry.name === null && entry.count >= PREPARE_FROM_USE) {
      this.next += 1;
      entry.name = `tms_${this.next}`;
    }
    return entry.name;
  }

  private forgetUnnamed(): void {
    for (const [text, entry] of this.uses) if (entry.name === null) this.uses.delete(text);
  }
}

/** The part of a pooled pg client that kysely's PostgresDriver uses. */
type QueryClient = Pick<pg.PoolClient, 'query' | 'release'>;

/**
 * Wraps a pooled client: parameterised statements whose text is named go as named (prepared) statements, the rest
 * as they are. The same wrapper is returned for the same client (kysely keys its connections by client).
 */
export function preparingClient(client: pg.PoolClient, names: StatementNames): QueryClient {
  const prepared = new Set<string>();
  let broken: Error | undefined;
  const query = ((config: unknown, values?: unknown[]) => {
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0) {
      return (client.query as (c: unknown, v?: unknown[]) => unknown)(config, values);
    }
    const name = names.nameOf(config);
    if (name === null || (!prepared.has(name) && prepared.size >= PREPARED_PER_CONNECTION)) return client.query(config, values);
    prepared.add(name);
    return client.query({ name, text: config, values }).catch((error: unknown) => {
      if ((error as { code?: string }).code === RESULT_TYPE_CHANGED) broken = error as Error;
      throw error;
    });
  }) as pg.PoolClient['query'];
  return {
    query,
    release: (error?: Error | boolean) => client.release(error ?? broken),
  };
}
