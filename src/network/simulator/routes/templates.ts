/**
 * Templates: `POST|GET|DELETE /{waba}/message_templates` and `GET /{template-id}` (via the node route).
 * Created PENDING, reviewed after `templateApprovalDelayMs`: APPROVED, or REJECTED (INVALID_FORMAT) when the
 * name contains `reject`. Deleted names are blocked for 30 days.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SIM_WABA_ID } from '../constants.js';
import { type GraphParams, type SimContext, pickFields, queryOf } from '../context.js';
import { invalidParameter, messagingError, objectNotFound } from '../graph-errors.js';
import { validateCreation } from '../template-rules.js';
import type { SimTemplate, SimWorld } from '../world.js';

const THIRTY_DAYS_MS = 30 * 86_400_000;
const HOUR_MS = 3_600_000;
/** Default fields of a template node (as `GET /{template-id}` answers without `fields`). */
export const TEMPLATE_DEFAULT_FIELDS = ['name', 'parameter_format', 'components', 'language', 'status', 'category', 'previous_category'];

const REJECTION_INFO = {
  reason: 'Your template has parameters placed next to each other (like {{1}}{{2}}) without text or punctuation between them.',
  recommendation: 'Separate parameters with descriptive text and ensure each parameter is clearly contextualized.',
};

/** `GET /{template-id}?fields=`. */
export function readTemplate(t: SimTemplate, fields: string | undefined): Record<string, unknown> {
  const node = {
    id: t.id, name: t.name, language: t.language, status: t.status, category: t.category,
    parameter_format: t.parameterFormat, components: t.components, rejected_reason: t.rejectedReason,
    previous_category: t.previousCategory,
  };
  return pickFields(node, fields, TEMPLATE_DEFAULT_FIELDS, 'WhatsAppMessageTemplate');
}

function rejectCreation(world: SimWorld, name: string, language: string): void {
  const now = world.now();
  world.templateCreations = world.templateCreations.filter((t) => now - t < HOUR_MS);
  // The hourly creation cap is a WABA-scoped limit, so it answers the WABA rate-limit code 80007 (retryable).
  if (world.templateCreations.length >= world.limits.templateCreationsPerHour) {
    throw messagingError(80007, 'Rate limit issues',
      `Message template creation limit reached: ${world.limits.templateCreationsPerHour} per WhatsApp Business Account per hour.`);
  }
  const deletedAt = world.deletedNames.get(name);
  if (deletedAt !== undefined && now - deletedAt < THIRTY_DAYS_MS) {
    throw invalidParameter(`The name ${name} was deleted less than 30 days ago.`, {
      subcode: 2388023,
      userTitle: 'Message template language is being deleted',
      userMsg: `New ${language} content can't be added while the existing ${language} content is being deleted. Try again in 4 weeks or consider creating a new message template.`,
    });
  }
  if ([...world.templates.values()].some((t) => t.name === name && t.language === language)) {
    throw invalidParameter(`A template named ${name} already exists in ${language}.`, {
      subcode: 2388024,
      userTitle: 'Content in This Language Already Exists',
      userMsg: `There is already ${language} content for this template. You can create a new template and try again.`,
    });
  }
  if (world.templates.size >= world.limits.maxTemplates) {
    throw invalidParameter('The WhatsApp Business Account has reached its template limit.', {
      subcode: 2388019, userTitle: 'Message template limit exceeded', userMsg: `You can have at most ${world.limits.maxTemplates} message templates.`,
    });
  }
}

function requireWaba(req: FastifyRequest<{ Params: GraphParams }>, method: string): void {
  if (req.params.id !== SIM_WABA_ID) throw objectNotFound(method, req.params.id);
}

/** Registers the message_templates edge. */
export function registerTemplateRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { world, scheduler, events } = ctx;

  app.post<{ Params: GraphParams }>('/:ver/:id/message_templates', async (req) => {
    requireWaba(req, 'post');
    const draft = validateCreation(world, req.body);
    rejectCreation(world, draft.name, draft.language);
    const t: SimTemplate = { ...draft, id: world.nextTemplateId(), status: 'PENDING', rejectedReason: 'NONE', createdAt: world.now() };
    world.templates.set(t.id, t);
    world.templateCreations.push(world.now());
    world.stats.templates_created++;
    scheduler.after(world.timings.templateApprovalDelayMs, () => {
      if (world.templates.get(t.id) !== t || t.status !== 'PENDING') return;
      const rejected = t.name.includes('reject');
      t.status = rejected ? 'REJECTED' : 'APPROVED';
      t.rejectedReason = rejected ? 'INVALID_FORMAT' : 'NONE';
      events.templateStatusChanged(t, rejected ? REJECTION_INFO : undefined);
    });
    return { id: t.id, status: t.status, category: t.category };
  });

  app.get<{ Params: GraphParams }>('/:ver/:id/message_templates', async (req) => {
    requireWaba(req, 'get');
    const q = queryOf(req);
    const limit = q.limit === undefined ? 25 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidParameter('Param limit must be an integer 1-1000');
    const statuses = q.status?.split(',').map((s) => s.trim().toUpperCase());
    let list = [...world.templates.values()].reverse()
      .filter((t) => (q.name === undefined || t.name.includes(q.name)) && (!statuses || statuses.includes(t.status)));
    if (q.after !== undefined) {
      const afterId = Buffer.from(q.after, 'base64url').toString();
      const at = list.findIndex((t) => t.id === afterId);
      if (at < 0) throw invalidParameter('Param after is not a valid cursor');
      list = list.slice(at + 1);
    }
    const page = list.slice(0, limit);
    const data = page.map((t) => readTemplate(t, q.fields));
    if (page.length === 0) return { data };
    const cursor = (t: SimTemplate) => Buffer.from(t.id).toString('base64url');
    const paging: Record<string, unknown> = { cursors: { before: cursor(page[0]), after: cursor(page[page.length - 1]) } };
    if (list.length > limit) {
      const next = new URL(`http://${req.headers.host}${req.url}`);
      next.searchParams.set('after', cursor(page[page.length - 1]));
      paging.next = next.toString();
    }
    return { data, paging };
  });

  app.delete<{ Params: GraphParams }>('/:ver/:id/message_templates', async (req) => {
    requireWaba(req, 'delete');
    const { name, hsm_id: hsmId } = queryOf(req);
    if (!name) throw invalidParameter('Param name is required');
    const doomed = [...world.templates.values()].filter((t) => t.name === name && (hsmId === undefined || t.id === hsmId));
    if (doomed.length === 0) {
      throw invalidParameter(`No message template named ${name}${hsmId ? ` with id ${hsmId}` : ''}.`, {
        subcode: 2593002, userTitle: 'Message template not found', userMsg: `The message template ${name} was not found.`,
      });
    }
    for (const t of doomed) world.templates.delete(t.id);
    world.deletedNames.set(name, world.now());
    return { success: true };
  });
}
