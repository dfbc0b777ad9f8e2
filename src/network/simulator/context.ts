/** What the simulator's routes share, and small request helpers. */
import type { FastifyRequest } from 'fastify';
import type { NetworkEvents } from './events.js';
import { nonexistingField } from './graph-errors.js';
import type { Scheduler } from './scheduler.js';
import type { WebhookSender } from './webhook-sender.js';
import type { SimWorld } from './world.js';

/** The simulator's parts, handed to each route module. */
export interface SimContext {
  world: SimWorld;
  scheduler: Scheduler;
  sender: WebhookSender;
  events: NetworkEvents;
}

/** Route params of Graph paths: `/:ver/:id[/edge]`. */
export interface GraphParams {
  ver: string;
  id: string;
}

/** The query as a flat record of strings. */
export function queryOf(req: FastifyRequest): Record<string, string | undefined> {
  return req.query as Record<string, string | undefined>;
}

/**
 * Picks the requested `fields` of a node (comma list; `throughput{level}`-style sub-selections are read as
 * the field itself). Unknown fields are the Graph 100 error; `id` always comes back.
 */
export function pickFields(
  node: Record<string, unknown>,
  fields: string | undefined,
  defaults: string[],
  nodeType: string,
): Record<string, unknown> {
  const wanted = fields
    ? fields.split(',').map((f) => f.trim().replace(/\{.*\}$/, '')).filter((f) => f.length > 0)
    : defaults;
  const out: Record<string, unknown> = {};
  for (const field of wanted) {
    if (!(field in node)) throw nonexistingField(field, nodeType);
    if (node[field] !== undefined) out[field] = node[field];
  }
  out.id = node.id;
  return out;
}
