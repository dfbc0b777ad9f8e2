/**
 * Documented shape of template components (OpenAPI only). The create routes validate components with the
 * loose `ComponentIn` schema and the template rules (src/domain/templates/validate.ts), which name the exact
 * failing path; these schemas describe the same accepted input concretely for the document and generated
 * clients without changing what is accepted. Kinds and formats are accepted in any case and stored upper case.
 */
import { Type, type TSchema } from 'typebox';
import { TEMPLATE_LIMITS } from '../../domain/templates/validate.js';

/** `HEADER` as documented: the canonical upper-case value, with the lower-case form the v2 routes use. */
function kind<K extends string>(value: K, anyCase: boolean) {
  return anyCase
    ? Type.Union([Type.Literal(value), Type.Literal(value.toLowerCase() as Lowercase<K>)], { description: `${value} (any case accepted)` })
    : Type.Literal(value);
}

const NamedExample = Type.Object(
  {
    param_name: Type.String({ description: 'the placeholder name, e.g. first_name for {{first_name}}' }),
    example: Type.String({ description: 'a sample value' }),
  },
  { additionalProperties: false },
);

function header(anyCase: boolean): TSchema[] {
  return [
    Type.Object(
      {
        type: kind('HEADER', anyCase),
        format: kind('TEXT', anyCase),
        text: Type.String({ maxLength: TEMPLATE_LIMITS.headerText, description: 'at most one variable: {{1}} or {{name}}' }),
        example: Type.Optional(Type.Object(
          {
            header_text: Type.Optional(Type.Array(Type.String(), { description: 'positional samples (a named text takes its names in order of first appearance)' })),
            header_text_named_params: Type.Optional(Type.Array(NamedExample, { description: 'named samples' })),
          },
          { additionalProperties: false },
        )),
      },
      { additionalProperties: false, title: 'Text header', examples: [{ type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['Ayse'] } }] },
    ),
    Type.Object(
      {
        type: kind('HEADER', anyCase),
        format: Type.Union([kind('IMAGE', anyCase), kind('VIDEO', anyCase), kind('DOCUMENT', anyCase)]),
        example: Type.Optional(Type.Object(
          {
            header_handle: Type.Array(Type.String(), {
              description: 'the upload handle of a sample file (POST /api/v1/media answers it as file_handle); POST /api/v1/message-templates may send file_handle instead',
            }),
          },
          { additionalProperties: false },
        )),
      },
      { additionalProperties: false, title: 'Media header', examples: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2UvcG5n:ARbExampleHandle'] } }] },
    ),
    Type.Object(
      { type: kind('HEADER', anyCase), format: kind('LOCATION', anyCase) },
      { additionalProperties: false, title: 'Location header', description: 'the location is a send parameter' },
    ),
  ];
}

function body(anyCase: boolean, maxText: number) {
  return Type.Object(
    {
      type: kind('BODY', anyCase),
      text: Type.String({ maxLength: maxText, description: 'positional {{1}}, {{2}}… or named {{first_name}} variables (not both); at most 4 variables by default' }),
      example: Type.Optional(Type.Object(
        {
          body_text: Type.Optional(Type.Array(Type.Array(Type.String()), {
            description: 'one row of samples, one per variable (a named text: in order of first appearance of each name)',
          })),
          body_text_named_params: Type.Optional(Type.Array(NamedExample, { description: 'named samples: each name once' })),
        },
        { additionalProperties: false },
      )),
    },
    {
      additionalProperties: false,
      title: 'Body',
      examples: [
        { type: 'BODY', text: 'Hi {{1}}, use {{2}} for 10% off.', example: { body_text: [['Ayse', 'SAVE10']] } },
        { type: 'BODY', text: 'Hi {{first_name}}, order {{order_id}} has shipped.', example: { body_text_named_params: [{ param_name: 'first_name', example: 'Pablo' }, { param_name: 'order_id', example: '86019' }] } },
      ],
    },
  );
}

function buttons(anyCase: boolean, max: number) {
  const button = Type.Union([
    Type.Object(
      {
        type: kind('URL', anyCase),
        text: Type.String({ maxLength: TEMPLATE_LIMITS.buttonLabel }),
        url: Type.String({ maxLength: TEMPLATE_LIMITS.url, description: 'may end with one variable {{1}} (filled at send time)' }),
        example: Type.Optional(Type.Array(Type.String(), { description: 'a full sample URL when url has {{1}}' })),
      },
      { additionalProperties: false, title: 'URL button' },
    ),
    Type.Object(
      {
        type: kind('PHONE_NUMBER', anyCase),
        text: Type.String({ maxLength: TEMPLATE_LIMITS.buttonLabel }),
        phone_number: Type.String({ maxLength: TEMPLATE_LIMITS.phoneNumber, description: 'with country code' }),
      },
      { additionalProperties: false, title: 'Call button' },
    ),
    Type.Object(
      {
        type: kind('COPY_CODE', anyCase),
        example: Type.Optional(Type.String({ maxLength: TEMPLATE_LIMITS.copyCode, description: 'a sample code (the code itself is a send parameter)' })),
      },
      { additionalProperties: false, title: 'Copy-code button' },
    ),
    Type.Object(
      { type: kind('QUICK_REPLY', anyCase), text: Type.String({ maxLength: TEMPLATE_LIMITS.buttonLabel }) },
      { additionalProperties: false, title: 'Quick-reply button' },
    ),
    Type.Object(
      { type: kind('REQUEST_CONTACT_INFO', anyCase) },
      {
        additionalProperties: false,
        title: 'Request-contact-info button',
        description: 'asks the user to share their phone number; not customisable (no label, no send parameters); UTILITY and MARKETING templates, not in carousel cards',
      },
    ),
  ]);
  return Type.Object(
    { type: kind('BUTTONS', anyCase), buttons: Type.Array(button, { minItems: 1, maxItems: max, description: 'in display order; a send names a button by its 0-based index here' }) },
    {
      additionalProperties: false,
      title: 'Buttons',
      examples: [{ type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.example.com/{{1}}', example: ['https://shop.example.com/summer'] }, { type: 'QUICK_REPLY', text: 'Stop' }] }],
    },
  );
}

function components(anyCase: boolean) {
  const footer = Type.Object(
    { type: kind('FOOTER', anyCase), text: Type.String({ maxLength: TEMPLATE_LIMITS.footerText, description: 'no variables' }) },
    { additionalProperties: false, title: 'Footer' },
  );
  const [, mediaHeader] = header(anyCase);
  const card = Type.Object(
    {
      components: Type.Array(Type.Union([mediaHeader, body(anyCase, TEMPLATE_LIMITS.cardBodyText), buttons(anyCase, TEMPLATE_LIMITS.cardButtons)]), {
        description: 'a media HEADER (IMAGE or VIDEO, with example.header_handle), an optional BODY and BUTTONS; every card has the same structure',
      }),
    },
    { additionalProperties: false, title: 'Carousel card' },
  );
  const carousel = Type.Object(
    { type: kind('CAROUSEL', anyCase), cards: Type.Array(card, { minItems: TEMPLATE_LIMITS.minCards, maxItems: TEMPLATE_LIMITS.maxCards }) },
    { additionalProperties: false, title: 'Carousel' },
  );
  return [...header(anyCase), body(anyCase, TEMPLATE_LIMITS.bodyText), footer, buttons(anyCase, TEMPLATE_LIMITS.buttons), carousel];
}

/** A component of a create request (any case). */
export const TemplateComponentDoc = Type.Union(components(true), {
  $id: 'TemplateComponentInput',
  description:
    'A template component as a create takes it: HEADER (TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION), BODY, FOOTER, BUTTONS or CAROUSEL; each kind at most once. ' +
    'Kinds, formats and button types are accepted in any case. Broken rules are answered 400 TEMPLATE_INVALID naming the path, e.g. components[1].buttons[0].url.',
});

/** A component of a stored template (upper case, as the service keeps it). */
export const StoredTemplateComponentDoc = Type.Union(components(false), {
  $id: 'TemplateComponent',
  description: 'A component of a stored template, in the network\'s create shape with upper-case kinds (unknown input keys are not kept).',
});

/** A sample component list for examples. */
export const EXAMPLE_COMPONENTS = [
  { type: 'HEADER', format: 'TEXT', text: 'Summer sale' },
  { type: 'BODY', text: 'Hi {{1}}, use {{2}} for 10% off.', example: { body_text: [['Ayse', 'SAVE10']] } },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.example.com/{{1}}', example: ['https://shop.example.com/summer'] }] },
];
