/**
 * Documented shape of single-send parameters (`message_template` of single-messagev2; OpenAPI only). The route
 * validates entries loosely (`SendComponentIn`) and the send rules (src/domain/templates/send-parameters.ts)
 * check them against the stored template, naming the exact path (400 PARAMETERS_INVALID); these schemas
 * describe that accepted input concretely. Entry and parameter types are accepted in any case.
 */
import { Type } from 'typebox';

const anyCase = <K extends string>(value: K) =>
  Type.Union([Type.Literal(value), Type.Literal(value.toUpperCase() as Uppercase<K>)], { description: `${value} (any case accepted)` });

const TextParam = Type.Object(
  {
    type: anyCase('text'),
    text: Type.String({ minLength: 1, description: 'no new lines, tabs or more than 4 spaces in a row; header ≤ 60, body ≤ 1,024 characters' }),
    parameter_name: Type.Optional(Type.String({ description: "required on every header/body parameter of a NAMED template ({{first_name}} → first_name), each name once, any order; refused on a positional template" })),
  },
  { additionalProperties: false, title: 'Text parameter' },
);
const CurrencyParam = Type.Object(
  {
    type: anyCase('currency'),
    currency: Type.Object({ fallback_value: Type.String(), code: Type.String({ description: 'ISO 4217' }), amount_1000: Type.Integer({ description: 'amount × 1000' }) }, { additionalProperties: false }),
    parameter_name: Type.Optional(Type.String()),
  },
  { additionalProperties: false, title: 'Currency parameter' },
);
const DateTimeParam = Type.Object(
  {
    type: anyCase('date_time'),
    date_time: Type.Object({ fallback_value: Type.String() }, { additionalProperties: false }),
    parameter_name: Type.Optional(Type.String()),
  },
  { additionalProperties: false, title: 'Date-time parameter' },
);
const TextLike = Type.Union([Type.String({ minLength: 1, description: 'short for {type: text, text}' }), TextParam, CurrencyParam, DateTimeParam]);

function mediaParam(kind: 'image' | 'video' | 'document') {
  const ref = {
    id: Type.Optional(Type.String({ description: 'a media id at the network' })),
    link: Type.Optional(Type.String({ description: 'an http(s) URL; give id or link, not both' })),
    ...(kind === 'document' ? { filename: Type.Optional(Type.String()) } : {}),
  };
  return Type.Object({ type: anyCase(kind), [kind]: Type.Object(ref, { additionalProperties: false }) }, { additionalProperties: false, title: `${kind} parameter` });
}
const LocationParam = Type.Object(
  {
    type: anyCase('location'),
    location: Type.Object(
      {
        latitude: Type.Union([Type.Number(), Type.String()]),
        longitude: Type.Union([Type.Number(), Type.String()]),
        name: Type.Optional(Type.String()),
        address: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, title: 'Location parameter' },
);

const ButtonParam = Type.Union([
  Type.String({ minLength: 1, description: 'the URL variable, the coupon code (≤ 20) or the quick-reply payload' }),
  Type.Object({ type: anyCase('text'), text: Type.String({ minLength: 1 }) }, { additionalProperties: false, title: 'URL variable' }),
  Type.Object({ type: anyCase('coupon_code'), coupon_code: Type.String({ minLength: 1, maxLength: 20 }) }, { additionalProperties: false, title: 'Coupon code' }),
  Type.Object({ type: anyCase('payload'), payload: Type.String({ minLength: 1 }) }, { additionalProperties: false, title: 'Quick-reply payload' }),
]);
const buttonParams = Type.Array(ButtonParam, { maxItems: 1, description: 'URL (with {{1}}) and COPY_CODE buttons: exactly 1; QUICK_REPLY: 0 or 1 payload; PHONE_NUMBER: none' });
const subType = Type.Optional(Type.Union([Type.Literal('url'), Type.Literal('copy_code'), Type.Literal('quick_reply'), Type.Literal('phone_number')], {
  description: "must match the template's button at index when given",
}));
const index = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]+$' })], { description: "0-based position in the template's BUTTONS" });

const HeaderEntry = Type.Object(
  {
    type: anyCase('header'),
    parameters: Type.Array(Type.Union([TextLike, mediaParam('image'), mediaParam('video'), mediaParam('document'), LocationParam]), {
      description: 'a TEXT header: one text parameter per variable; a media/location header: exactly one parameter of its format',
    }),
  },
  { additionalProperties: false, title: 'Header parameters' },
);
const BodyEntry = Type.Object(
  { type: anyCase('body'), parameters: Type.Array(TextLike, { description: 'one per variable; positional in order, named with parameter_name' }) },
  { additionalProperties: false, title: 'Body parameters' },
);
const ButtonEntry = Type.Object(
  { type: anyCase('button'), sub_type: subType, index, parameters: buttonParams },
  { additionalProperties: false, title: 'Button parameters (Cloud API form)' },
);
const ButtonsEntry = Type.Object(
  {
    type: anyCase('buttons'),
    buttons: Type.Array(
      Type.Object({ index: Type.Optional(index), sub_type: subType, parameters: buttonParams }, {
        additionalProperties: false,
        description: 'an entry without index is the button at the same position',
      }),
    ),
  },
  { additionalProperties: false, title: 'Buttons parameters (service form)' },
);
const CarouselEntry = Type.Object(
  {
    type: anyCase('carousel'),
    cards: Type.Array(
      Type.Object(
        {
          card_index: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]+$' })], { description: '0-based; a card without it is the card at its position' })),
          components: Type.Array(Type.Union([HeaderEntry, BodyEntry, ButtonEntry, ButtonsEntry]), { description: "the card's header (media), body and button parameters" }),
        },
        { additionalProperties: false },
      ),
      { description: 'one entry per card of the template' },
    ),
  },
  { additionalProperties: false, title: 'Carousel parameters' },
);

/** One entry of `message_template`. */
export const SendComponentDoc = Type.Union([HeaderEntry, BodyEntry, ButtonEntry, ButtonsEntry, CarouselEntry], {
  $id: 'SendComponent',
  description:
    "Parameters for one part of the template: header, body, a button (Cloud API form), buttons (service form) or carousel. Checked against the stored template: every variable needs its parameter; a mismatch is 400 PARAMETERS_INVALID naming the path, e.g. message_template[0].parameters[1]. See docs/send-parameters.md.",
});
