/**
 * Admin routes for templates made in the WABA outside the service, as from WhatsApp Manager (`/_sim/waba-templates`):
 * create one (no webhook: Meta posts status webhooks only for status changes), delete one, change its category
 * (`template_category_update`) or its components (`message_template_components_update`), and seed Meta's
 * `hello_world` sample template that every new WABA has.
 */
import type { FastifyInstance } from 'fastify';
import type { GraphTemplateComponent } from '../../port.js';
import type { SimContext } from '../context.js';
import { invalidParameter } from '../graph-errors.js';
import type { SimTemplate } from '../world.js';

type Body = Record<string, unknown>;

/** Meta's sample template, present in every new WABA (en_US, UTILITY, no parameters). */
export const HELLO_WORLD_TEMPLATE = {
  name: 'hello_world',
  language: 'en_US',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hello World' },
    {
      type: 'BODY',
      text: 'Welcome and congratulations!! This message demonstrates your ability to send a WhatsApp message notification from the Cloud API, hosted by Meta. Thank you for taking the time to test with us.',
    },
    { type: 'FOOTER', text: 'WhatsApp Business Platform sample message' },
  ],
};

const CATEGORIES = new Set(['MARKETING', 'UTILITY', 'AUTHENTICATION']);

function bodyOf(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidParameter('The body must be a JSON object.');
  return body as Body;
}

function upperName(b: Body, key: string, fallback?: string): string {
  const v = b[key] ?? fallback;
  if (typeof v !== 'string' || !/^[A-Za-z0-9_]+$/.test(v)) throw invalidParameter(`${key} must be a name of letters, digits and _`);
  return v.toUpperCase();
}

function componentsOf(b: Body): GraphTemplateComponent[] {
  const c = b.components;
  if (!Array.isArray(c) || c.length === 0 || !c.every((x) => typeof x === 'object' && x !== null && typeof (x as Body).type === 'string')) {
    throw invalidParameter('components must be a non-empty array of objects with a type');
  }
  // Graph answers component and button types upper case, whatever case they were made with.
  return (structuredClone(c) as GraphTemplateComponent[]).map((x) => ({
    ...x,
    type: x.type.toUpperCase(),
    ...(typeof x.format === 'string' ? { format: x.format.toUpperCase() } : {}),
    ...(Array.isArray(x.buttons) ? { buttons: x.buttons.map((btn) => ({ ...btn, type: String(btn.type).toUpperCase() })) } : {}),
  }));
}

/** The `message_template_components_update` value for a template (per Meta's reference). */
function componentsUpdateValue(t: SimTemplate): Record<string, unknown> {
  const value: Record<string, unknown> = {
    message_template_id: Number(t.id),
    message_template_name: t.name,
    message_template_language: t.language.replace('_', '-'),
    message_template_element: t.components.find((c) => c.type === 'BODY')?.text ?? '',
  };
  const header = t.components.find((c) => c.type === 'HEADER' && c.format === 'TEXT');
  if (header?.text !== undefined) value.message_template_title = header.text;
  const footer = t.components.find((c) => c.type === 'FOOTER');
  if (footer?.text !== undefined) value.message_template_footer = footer.text;
  const buttons = (t.components.find((c) => c.type === 'BUTTONS')?.buttons ?? []).filter((b) => b.type === 'URL' || b.type === 'PHONE_NUMBER');
  if (buttons.length) {
    value.message_template_buttons = buttons.map((b) => ({
      message_template_button_type: b.type,
      message_template_button_text: b.text,
      ...(b.type === 'URL' ? { message_template_button_url: b.url } : { message_template_button_phone_number: b.phone_number }),
    }));
  }
  return value;
}

/** Registers the WABA template admin routes. */
export function registerAdminTemplateRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { world, sender, scheduler } = ctx;

  const postChange = (field: string, value: Record<string, unknown>) => {
    sender.addChange(field, value);
    scheduler.flushSoon();
  };

  const create = (b: Body): SimTemplate => {
    const name = b.name;
    if (typeof name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(name)) throw invalidParameter('name must be lower-case letters, digits and _ (at most 512)');
    const language = b.language;
    if (typeof language !== 'string' || !/^[a-z]{2,3}(_[A-Z]{2})?$/.test(language)) throw invalidParameter('language must be a code such as en_US');
    const category = upperName(b, 'category');
    if (!CATEGORIES.has(category)) throw invalidParameter('category must be MARKETING, UTILITY or AUTHENTICATION');
    if ([...world.templates.values()].some((t) => t.name === name && t.language === language)) {
      throw invalidParameter(`A template named ${name} already exists in ${language}.`, {
        subcode: 2388024, userTitle: 'Content in This Language Already Exists', userMsg: `There is already ${language} content for this template.`,
      });
    }
    const t: SimTemplate = {
      id: world.nextTemplateId(),
      name,
      language,
      category,
      status: upperName(b, 'status', 'APPROVED'),
      parameterFormat: upperName(b, 'parameter_format', 'POSITIONAL'),
      components: componentsOf(b),
      rejectedReason: 'NONE',
      createdAt: world.now(),
    };
    world.templates.set(t.id, t);
    return t;
  };

  app.post('/_sim/waba-templates', async (req) => ({ id: create(bodyOf(req.body)).id }));

  app.post('/_sim/waba-templates/hello_world', async () => {
    const existing = [...world.templates.values()].find((t) => t.name === 'hello_world' && t.language === 'en_US');
    return { id: (existing ?? create({ ...HELLO_WORLD_TEMPLATE })).id };
  });

  app.delete<{ Params: { id: string } }>('/_sim/waba-templates/:id', async (req, reply) => {
    const t = world.templates.get(req.params.id);
    if (!t) return reply.code(404).send(invalidParameter(`No template ${req.params.id}`).body());
    world.templates.delete(t.id);
    world.deletedNames.set(t.name, world.now());
    return { success: true };
  });

  app.post<{ Params: { id: string } }>('/_sim/waba-templates/:id/category', async (req, reply) => {
    const t = world.templates.get(req.params.id);
    if (!t) return reply.code(404).send(invalidParameter(`No template ${req.params.id}`).body());
    const category = upperName(bodyOf(req.body), 'category');
    if (!CATEGORIES.has(category)) throw invalidParameter('category must be MARKETING, UTILITY or AUTHENTICATION');
    const previous = t.category;
    t.category = category;
    postChange('template_category_update', {
      message_template_id: Number(t.id),
      message_template_name: t.name,
      message_template_language: t.language.replace('_', '-'),
      previous_category: previous,
      new_category: category,
    });
    return { id: t.id, previous_category: previous, new_category: category };
  });

  app.post<{ Params: { id: string } }>('/_sim/waba-templates/:id/components', async (req, reply) => {
    const t = world.templates.get(req.params.id);
    if (!t) return reply.code(404).send(invalidParameter(`No template ${req.params.id}`).body());
    t.components = componentsOf(bodyOf(req.body));
    postChange('message_template_components_update', componentsUpdateValue(t));
    return { id: t.id, components: t.components };
  });
}
