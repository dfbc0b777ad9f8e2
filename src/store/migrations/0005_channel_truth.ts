import { sql, type Kysely } from 'kysely';

/**
 * Channel truth: the operator's throughput override apart from the network's level, and the channel-level
 * failure mark (expired token, missing permission, locked account) with its back-off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table channels
      add column throughput_override_mps integer,
      add column throughput_level text,
      add column auth_error text,
      add column auth_failed_at timestamptz,
      add column auth_retry_at timestamptz,
      add column auth_failures integer not null default 0`.execute(db);
  // Until now throughput_mps held the operator's --throughput or the default 80: a value other than 80 was set
  // by the operator and stays theirs; 80 becomes "follow the network's throughput.level".
  await sql`update channels set throughput_override_mps = throughput_mps where throughput_mps <> 80`.execute(db);
}
