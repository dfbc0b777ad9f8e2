import { sql, type Kysely } from 'kysely';

/**
 * The references of `messages` (company, channel, bulk send) are checked once per statement instead of once per row.
 *
 * A foreign key runs PostgreSQL's referential check for every stored row (a query and a row lock each): about 40 % of
 * a bulk start's COPY of 5,000 rows. The three keys are replaced by triggers that give the same guarantees:
 * - After each INSERT statement (a COPY included), one pass over the statement's new rows takes each distinct
 *   company, channel and bulk send, locks those parent rows `for key share` (the lock the referential check takes)
 *   and fails the statement with 23503 (foreign_key_violation) when one of them is missing. An UPDATE that changes
 *   one of the three columns (no code does) checks its new values the same way, per row: PostgreSQL allows no
 *   transition table on `update of` a column list, and a statement trigger on every update would read every
 *   status move of the hot path.
 * - Before a company, channel or bulk send row is deleted (or its id changed, or the table truncated), a trigger
 *   refuses when a message still refers to it (23503, as ON DELETE NO ACTION).
 *
 * Race-free at READ COMMITTED, the service's only level. A parent's DELETE locks the row before its BEFORE trigger
 * runs, and the trigger's query takes a fresh snapshot:
 * - The inserting statement's check ran first: its `for key share` lock is held until the insert's transaction ends,
 *   so the delete waits for it; then the trigger sees the committed messages (and refuses) or none (rolled back).
 * - The delete came first: the check's lock waits for the deleting transaction; if it commits, the parent is gone
 *   and the check fails the insert; if it rolls back, the parent is locked and found.
 * Under REPEATABLE READ or SERIALIZABLE the parent-side query would read the transaction's old snapshot and miss
 * messages committed meanwhile (PostgreSQL's own check reads a second, current snapshot, which PL/pgSQL cannot), so
 * the parent-side trigger refuses to delete there. The inserting side is safe at every level: a parent deleted by a
 * transaction that committed after the snapshot fails the lock with a serialization error.
 *
 * The parent-side queries: a bulk send's by `messages_wizard_row`; a company's and a channel's read the whole table
 * (no index leads with company_id or channel_id for every row; `messages_company` was dropped in 0015), as the
 * foreign keys' own checks did. No code deletes a company or a channel.
 *
 * The lookups of bulk sends and the parent-side checks are planned at every call with their real ids (`execute`,
 * `force_custom_plan`): a plan kept for the session is the one made for the tables' sizes of its sixth call, a scan
 * of the whole table while it was small, and PGlite keeps its one session (and, having no autovacuum, that plan) for
 * the life of the process. A bulk send's lookup comes once per 1,000 or 5,000 stored rows. Companies and channels,
 * looked up for every single send's insert, are small tables whatever the plan: their lookups keep their plans
 * (planning them at every call cost a one-row insert about 0.1 ms of PostgreSQL CPU more).
 */
const PARENTS = [
  { column: 'company_id', table: 'companies', values: 'companies_', replan: false },
  { column: 'channel_id', table: 'channels', values: 'channels_', replan: false },
  { column: 'send_wizard_id', table: 'send_wizards', values: 'wizards_', replan: true },
] as const;

/** Locks the rows of `table` with these (distinct, non-null) ids `for key share`; raises 23503 naming one not found. */
const lockParents = (p: (typeof PARENTS)[number]) => {
  const lock = `select array_agg(l.id) from (select id from ${p.table} where id = any($1) for key share) l`;
  return `
      if cardinality(${p.values}) > 0 then
        ${p.replan ? `execute '${lock}' into locked using ${p.values};` : `${lock.replace('$1', p.values).replace(' from (', ' into locked from (')};`}
        if coalesce(cardinality(locked), 0) < cardinality(${p.values}) then
          select u.x into missing from unnest(${p.values}) u(x) where u.x <> all(coalesce(locked, '{}')) limit 1;
          raise exception 'insert or update on table "messages" violates its reference to "${p.table}"'
            using errcode = 'foreign_key_violation', table = 'messages', column = '${p.column}',
                  detail = format('Key (${p.column})=(%s) is not present in table "${p.table}".', missing);
        end if;
      end if;`;
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function tms_lock_message_parents(companies_ text[], channels_ text[], wizards_ text[]) returns void
    language plpgsql as $fn$
    declare
      locked text[];
      missing text;
    begin${sql.raw(PARENTS.map(lockParents).join(''))}
    end
    $fn$`.execute(db);

  await sql`
    create function tms_messages_inserted() returns trigger language plpgsql as $fn$
    declare
      companies_ text[];
      channels_ text[];
      wizards_ text[];
    begin
      select array_agg(distinct company_id) filter (where company_id is not null),
             array_agg(distinct channel_id) filter (where channel_id is not null),
             array_agg(distinct send_wizard_id) filter (where send_wizard_id is not null)
        into companies_, channels_, wizards_
        from new_rows;
      perform tms_lock_message_parents(companies_, channels_, wizards_);
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create trigger messages_references after insert on messages
    referencing new table as new_rows
    for each statement execute function tms_messages_inserted()`.execute(db);

  const changed = (column: string) => `case when old.${column} is distinct from new.${column} and new.${column} is not null
        then array[new.${column}] end`;
  await sql`
    create function tms_messages_references_changed() returns trigger language plpgsql as $fn$
    begin
      perform tms_lock_message_parents(${sql.raw(PARENTS.map((p) => changed(p.column)).join(', '))});
      return null;
    end
    $fn$`.execute(db);
  await sql`
    create trigger messages_references_changed after update of company_id, channel_id, send_wizard_id on messages
    for each row
    when (old.company_id is distinct from new.company_id or old.channel_id is distinct from new.channel_id
          or old.send_wizard_id is distinct from new.send_wizard_id)
    execute function tms_messages_references_changed()`.execute(db);

  for (const p of PARENTS) {
    await sql`
      create function ${sql.raw(`tms_${p.table}_unreferenced`)}() returns trigger language plpgsql
      set plan_cache_mode = force_custom_plan as $fn$
      begin
        if current_setting('transaction_isolation') <> 'read committed' then
          raise exception '${sql.raw(p.table)}: a row is deleted, or its id changed, at READ COMMITTED only'
            using errcode = 'feature_not_supported',
                  hint = 'Its check of the messages referring to it must see those committed by concurrent transactions.';
        end if;
        if exists (select 1 from messages where ${sql.raw(p.column)} = old.id) then
          raise exception 'update or delete on table "${sql.raw(p.table)}" violates the reference from table "messages"'
            using errcode = 'foreign_key_violation', table = '${sql.raw(p.table)}',
                  detail = format('Key (id)=(%s) is still referenced from table "messages".', old.id);
        end if;
        if tg_op = 'DELETE' then return old; end if;
        return new;
      end
      $fn$`.execute(db);
    await sql`
      create trigger ${sql.raw(`${p.table}_messages_references`)} before delete on ${sql.raw(p.table)}
      for each row execute function ${sql.raw(`tms_${p.table}_unreferenced`)}()`.execute(db);
    await sql`
      create trigger ${sql.raw(`${p.table}_messages_references_id`)} before update of id on ${sql.raw(p.table)}
      for each row when (old.id is distinct from new.id)
      execute function ${sql.raw(`tms_${p.table}_unreferenced`)}()`.execute(db);
    // TRUNCATE … CASCADE empties the tables with a foreign key to this one, which `messages` no longer is.
    await sql`
      create function ${sql.raw(`tms_${p.table}_truncated`)}() returns trigger language plpgsql as $fn$
      begin
        if exists (select 1 from messages where ${sql.raw(p.column)} is not null) then
          raise exception 'cannot truncate table "${sql.raw(p.table)}": messages refer to it'
            using errcode = 'foreign_key_violation', table = '${sql.raw(p.table)}';
        end if;
        return null;
      end
      $fn$`.execute(db);
    await sql`
      create trigger ${sql.raw(`${p.table}_messages_truncate`)} before truncate on ${sql.raw(p.table)}
      for each statement execute function ${sql.raw(`tms_${p.table}_truncated`)}()`.execute(db);
  }

  await sql`
    alter table messages
      drop constraint messages_company_id_fkey,
      drop constraint messages_channel_id_fkey,
      drop constraint messages_send_wizard_id_fkey`.execute(db);
}
