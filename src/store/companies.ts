/** SQL for companies and their API tokens. */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** Inserts a company. */
export async function insertCompany(db: Db, company: { id: string; name: string }): Promise<void> {
  await db.insertInto('companies').values(company).execute();
}

/** Finds a company by id. */
export async function findCompany(db: Db, id: string) {
  return db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts an API token row (hash only). */
export async function insertApiToken(
  db: Db,
  token: { id: string; company_id: string; token_hash: string; name: string },
): Promise<void> {
  await db.insertInto('api_tokens').values(token).execute();
}

/** The company of a live (not revoked) token hash. */
export async function findCompanyIdByTokenHash(db: Db, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('api_tokens')
    .select('company_id')
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row?.company_id;
}

/** Whether a token hash exists at all (revoked or not). */
export async function tokenHashExists(db: Db, tokenHash: string): Promise<boolean> {
  const row = await db.selectFrom('api_tokens').select('id').where('token_hash', '=', tokenHash).executeTakeFirst();
  return row !== undefined;
}

/** Revokes a token by id; returns whether a live token was revoked. */
export async function revokeApiToken(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: new Date() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Lists a company's tokens (never the secret). */
export async function listApiTokens(db: Db, companyId: string) {
  return db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'created_at', 'revoked_at'])
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .execute();
}
