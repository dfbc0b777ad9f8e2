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

/** A value as an SQL literal (strings, numbers, booleans, null and arrays of them: what the store's statements bind). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return quote(`{${value.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`);
  return quote(String(value));
}
const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

let prepared = 0;

/**
 * The generic plan of `statement` (the plan PostgreSQL keeps for a prepared statement after five runs, made without
 * the parameters' values), executed on `db` under EXPLAIN ANALYZE. `db` must be a transaction's (the plan-cache
 * mode is set for it only).
 */
export async function explainAnalyzeGeneric(db: { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> }, statement: CompiledQuery): Promise<string> {
  const name = `plan_check_${++prepared}`;
  const run = (text: string) => db.executeQuery<{ 'QUERY PLAN': string }>({ ...statement, sql: text, parameters: [] });
  await run('set local plan_cache_mode = force_generic_plan');
  await run(`prepare ${name} as ${statement.sql}`);
  const explained = await run(`explain (analyze, buffers, costs off, timing off) execute ${name}(${statement.parameters.map(literal).join(', ')})`);
  await run(`deallocate ${name}`);
  return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
}

/**
 * The conditions that test an array (`= ANY`) in a node run more than once (the inner side of a nested loop): each
 * run walks the whole array, so a batch of n rows probed this way costs n² steps.
 */
export function arrayTestsPerProbe(plan: string): string[] {
  const found: string[] = [];
  let loops = 1;
  for (const line of plan.split('\n')) {
    const node = /\((?:actual .*loops=(\d+)|never executed)\)/.exec(line);
    if (node) loops = Number(node[1] ?? 0);
    else if (loops > 1 && /(Cond|Filter): .*= ANY/.test(line)) found.push(line.trim());
  }
  return found;
}
