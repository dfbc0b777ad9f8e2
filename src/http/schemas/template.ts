/** Schemas for templates (both families). Component details are checked by the domain rules, which name the exact path. */
import { Type } from 'typebox';
import { CATEGORIES } from '../../domain/templates/categories.js';
import { LANGUAGES } from '../../domain/templates/languages.js';
import type { TemplateRow } from '../../store/templates.js';
import { docSchema } from '../openapi/doc-only.js';
import { CREATE_TEMPLATE_A, CREATE_TEMPLATE_B, CREATE_TEMPLATE_V2, EX } from '../openapi/examples.js';

const id = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

/** A component as clients send it: `type` selects the kind (any case); the rest is checked by the template rules. */
export const ComponentIn = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 20, description: 'HEADER, BODY, FOOTER, BUTTONS or CAROUSEL (any case)' }),
  },
  // The document shows the concrete component shapes (openapi/template-components.ts); validation stays here and in the rules.
  { additionalProperties: true, ...docSchema('TemplateComponentInput') },
);

/** Components of a create request. */
export const ComponentsIn = Type.Array(ComponentIn, { minItems: 1, maxItems: 20 });

const templateFields = {
  name: Type.String({ maxLength: 1024, description: 'lower-case letters, digits and _, at most 512' }),
  category: Type.String({ maxLength: 64, description: 'a value of the categories list (MARKETING)' }),
  language: Type.String({ maxLength: 16, description: 'a value of the languages list, e.g. en_US' }),
  components: ComponentsIn,
};

/** Family A create v1 body. */
export const CreateTemplateA = Type.Object(
  {
    ...templateFields,
    allow_category_change: Type.Optional(Type.Boolean({ description: 'stored; not forwarded (the network refuses it since 2025-04-09)' })),
    channel_id: id('the channel (phone number id)'),
  },
  { additionalProperties: false, examples: [CREATE_TEMPLATE_A] },
);

/** Family A create v2 body. */
export const CreateTemplateV2 = Type.Object(
  {
    message_template: Type.Object(templateFields, { additionalProperties: false }),
    channel_id: id('the channel (phone number id)'),
    media_names: Type.Optional(
      Type.Record(Type.String({ maxLength: 512 }), Type.String({ maxLength: 512 }), {
        description: 'media handle used in header_handle → file name',
      }),
    ),
  },
  { additionalProperties: false, examples: [CREATE_TEMPLATE_V2] },
);

/** Family B create body (all required; file_handle for media headers). */
export const CreateTemplateB = Type.Object(
  {
    ...templateFields,
    allow_category_change: Type.Boolean(),
    channel_id: id('the channel (phone number id)'),
    file_handle: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'from POST /api/v1/media' })),
  },
  { additionalProperties: false, examples: [CREATE_TEMPLATE_B] },
);

/** Family B check-name body. */
export const CheckNameBody = Type.Object(
  { channel_id: id('the channel (phone number id)'), name: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false, examples: [{ channel_id: EX.channelId, name: 'summer_sale_b' }] },
);

/** A template as both families return it. */
export const TemplateView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  language: Type.String(),
  category: Type.String(),
  status: Type.String({ description: 'APPROVED, PENDING, REJECTED, PAUSED, DISABLED, ...' }),
  components: Type.Array(Type.Any(docSchema('TemplateComponent'))),
  rejected_reason: Type.Union([Type.String(), Type.Null()]),
  quality_score: Type.Union([Type.String(), Type.Null()]),
  channel_id: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

/** The answer of both family A creates (not shown in the interface; fixed here). */
export const CreatedA = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({ id: Type.String(), status: Type.String({ description: 'PENDING until the network reviews it' }) }),
  },
  { examples: [{ success: true, data: { id: '6740f1a2c3d4e5f601234567', status: 'PENDING' } }] },
);

/** The language list entry. */
export const LanguageEntry = Type.Object({ value: Type.String(), title: Type.String() });
/** The category list entry. */
export const CategoryEntry = Type.Object({ icon: Type.String(), value: Type.String(), title: Type.String() });

/** The languages, as the API lists them. */
export const LANGUAGE_LIST = LANGUAGES.map((l) => ({ value: l.value, title: l.title }));
/** The categories, as the API lists them. */
export const CATEGORY_LIST = CATEGORIES.map((c) => ({ icon: c.icon, value: c.value, title: c.title }));

/** The API view of a stored template. */
export function toTemplateView(row: TemplateRow) {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    components: row.components as unknown[],
    rejected_reason: row.rejected_reason,
    quality_score: row.quality_score,
    channel_id: row.channel_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
