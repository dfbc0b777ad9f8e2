/**
 * The starts' one schema, run: the bodies of `start` and `startv2` are read as a stream (http/agent-app/bulk-sends.ts),
 * so fastify cannot validate them; the service checks the fields and every row against the same TypeBox schemas
 * that document the routes (`StartV1Body`, `StartV2Body`), compiled here. The engine phrases the errors and adds
 * the checks a schema cannot make (engine/bulk-start.ts).
 */
import { Compile } from 'typebox/compile';
import { Type, type TSchema } from 'typebox';
import type { ShapeProblem, StartShape, StartShapes } from '../../engine/bulk-start.js';
import { StartV1Body, StartV2Body } from './bulk-send.js';

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/** The problems of a value against a compiled schema, one per field (its first path segment), in the value's terms. */
function problemsOf(errors: Iterable<SchemaError>): ShapeProblem[] {
  const out: ShapeProblem[] = [];
  const seen = new Set<string>();
  const add = (p: ShapeProblem) => {
    const key = `${p.problem}:${p.field}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(p);
  };
  for (const e of errors) {
    const [, head = ''] = e.instancePath.split('/');
    const field = head.replace(/~1/g, '/').replace(/~0/g, '~');
    if (e.keyword === 'required') for (const name of (e.params.requiredProperties as string[]) ?? []) add({ field: name, problem: 'missing' });
    else if (e.keyword === 'additionalProperties') for (const name of (e.params.additionalProperties as string[]) ?? []) add({ field: name, problem: 'unknown' });
    else if (e.keyword === 'boolean' && head !== '' && e.instancePath.split('/').length === 2) add({ field, problem: 'unknown' });
    else add({ field, problem: 'invalid' });
  }
  return out;
}

/** A start body's shape checks: its fields (with `rows` as the spool keeps it: `true` for an array) and one row. */
function shapeOf(body: typeof StartV1Body | typeof StartV2Body): StartShape {
  const properties: Record<string, TSchema> = Object.fromEntries(
    Object.entries(body.properties).map(([name, schema]) => [name, name === 'rows' ? Type.Literal(true) : schema]),
  );
  const fields = Compile(Type.Object(properties, { additionalProperties: false }));
  const row = Compile(body.properties.rows.items as TSchema);
  return {
    fields: Object.keys(body.properties),
    required: body.required ?? [],
    fieldProblems: (value) => (fields.Check(value) ? [] : problemsOf(fields.Errors(value) as Iterable<SchemaError>)),
    rowProblems: (value) => (row.Check(value) ? [] : problemsOf(row.Errors(value) as Iterable<SchemaError>)),
  };
}

/** The shape checks of both JSON starts (a file start is checked as a startv2). */
export const START_SHAPES: StartShapes = { v1: shapeOf(StartV1Body), v2: shapeOf(StartV2Body) };
