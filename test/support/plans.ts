/**
 * The plans of the statements a store function really sends: each statement is captured as it is compiled, then run
 * again under EXPLAIN ANALYZE (buffers counted; no costs or timings, which differ from run to run).
 */
import { createQueryId, type CompiledQuery, type Kysely, type KyselyPlugin, type QueryResult, type RootOperationNode } from 'kysely';

/** The statements `run` sends through `db` (run for real), compiled as they were sent, in order. */
export async function capturedStatements<D>(db: Kysely<D>, run: (db: Kysely<D>) => Promise<unknown>): Promise<CompiledQuery[]> {
  const nodes: RootOperationNode[] = [];
  const capture: KyselyPlugin = { transformQuery: (args) => (nodes.push(args.node), args.node), transformResult: async (args) => args.result };
  await run(db.withPlugin(capture));
  return nodes.map((node) => db.getExecutor().compileQuery(node, createQueryId()));
}

/** The plan of `statement`, executed on `db` (a transaction's, to roll its effects back). */
export async function explainAnalyze(db: { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> }, statement: CompiledQuery): Promise<string> {
  const explain: CompiledQuery<{ 'QUERY PLAN': string }> = { ...statement, sql: `explain (analyze, buffers, costs off, timing off) ${statement.sql}` };
  const explained = await db.executeQuery(explain);
  return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** The most shared buffers any node of a plan visited. */
export const mostBuffers = (plan: string) =>
  Math.max(0, ...[...plan.matchAll(/Buffers: shared hit=(\d+)(?: read=(\d+))?/g)].map((m) => Number(m[1]) + Number(m[2] ?? 0)));
