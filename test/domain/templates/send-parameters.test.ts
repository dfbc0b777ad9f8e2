import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../../src/errors.js';
import { checkSendComponents, toNetworkComponents } from '../../../src/domain/templates/send-parameters.js';
import type { StoredComponents } from '../../../src/domain/templates/types.js';

const where = (errors: { code: string; field?: string }[]) => errors.map((e) => `${e.code} ${e.field}`);

/** Text header with 1 variable, body with 2, buttons: URL with a variable, quick reply, copy code, phone. */
const coupon: StoredComponents = [
  { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} is on!' },
  { type: 'BODY', text: 'Hi {{1}}, use code {{2}} today.' },
  { type: 'BUTTONS', buttons: [
    { type: 'URL', text: 'Shop', url: 'https://shop.example.com/p?c={{1}}' }, { type: 'QUICK_REPLY', text: 'Stop' },
    { type: 'COPY_CODE', example: '25OFF' }, { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550051310' },
  ] },
];
/** The Cloud API form of a correct send for `coupon`. */
const cloud = () => [
  { type: 'header', parameters: [{ type: 'text', text: 'Summer Sale' }] },
  { type: 'body', parameters: [{ type: 'text', text: 'Pablo' }, { type: 'text', text: '25OFF' }] },
  { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'summer' }] },
  { type: 'button', sub_type: 'copy_code', index: '2', parameters: [{ type: 'coupon_code', coupon_code: '25OFF' }] },
] as Record<string, unknown>[];
const expected = [
  { type: 'header', parameters: [{ type: 'text', text: 'Summer Sale' }] },
  { type: 'body', parameters: [{ type: 'text', text: 'Pablo' }, { type: 'text', text: '25OFF' }] },
  { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'summer' }] },
  { type: 'button', sub_type: 'copy_code', index: 2, parameters: [{ type: 'coupon_code', coupon_code: '25OFF' }] },
];

test('a correct Cloud API components array passes', () => {
  assert.deepEqual(checkSendComponents(coupon, cloud()), []);
});
test('toNetworkComponents writes the Cloud API array with numeric zero-based indexes', () => {
  assert.deepEqual(toNetworkComponents(coupon, cloud()), expected);
});
test('the service form (upper case, BUTTONS with positional entries, plain strings) gives the same payload', () => {
  const input = [
    { type: 'HEADER', parameters: ['Summer Sale'] },
    { type: 'BODY', parameters: ['Pablo', { type: 'text', text: '25OFF' }] },
    { type: 'BUTTONS', buttons: [{ parameters: ['summer'] }, {}, { type: 'COPY_CODE', parameters: ['25OFF'] }] },
  ];
  assert.deepEqual(toNetworkComponents(coupon, input), expected);
});
test('a quick-reply payload is optional and passed through when given', () => {
  const input = [...cloud(), { type: 'button', sub_type: 'quick_reply', index: 1, parameters: [{ type: 'payload', payload: 'stop' }] }];
  assert.deepEqual(toNetworkComponents(coupon, input)[3], { type: 'button', sub_type: 'quick_reply', index: 1, parameters: [{ type: 'payload', payload: 'stop' }] });
});
test('a template without variables needs no components', () => {
  const plain: StoredComponents = [{ type: 'BODY', text: 'Hello there' }, { type: 'FOOTER', text: 'bye' }];
  assert.deepEqual(checkSendComponents(plain, undefined), []);
  assert.deepEqual(toNetworkComponents(plain, []), []);
});

test('body parameter count must equal the body variables', () => {
  const input = cloud();
  input[1] = { type: 'body', parameters: [{ type: 'text', text: 'Pablo' }] };
  assert.deepEqual(where(checkSendComponents(coupon, input)), ['PARAMETERS_INVALID message_template[1].parameters']);
});
test('a missing body entry is reported on the root', () => {
  assert.deepEqual(where(checkSendComponents(coupon, cloud().filter((c) => c.type !== 'body'))), ['PARAMETERS_INVALID message_template']);
});
test('a missing text header parameter is reported on the root', () => {
  assert.deepEqual(where(checkSendComponents(coupon, cloud().slice(1))), ['PARAMETERS_INVALID message_template']);
});
test('header text parameter count must equal the header variables', () => {
  const input = cloud();
  input[0] = { type: 'header', parameters: ['a', 'b'] };
  assert.deepEqual(where(checkSendComponents(coupon, input)), ['PARAMETERS_INVALID message_template[0].parameters']);
});
test('header and body parameters for a template without them fail on the entry type', () => {
  const bodyOnly: StoredComponents = [{ type: 'BODY', text: 'Hello there' }];
  assert.deepEqual(where(checkSendComponents(bodyOnly, [{ type: 'header', parameters: ['x'] }])), ['PARAMETERS_INVALID message_template[0].type']);
  assert.deepEqual(where(checkSendComponents([{ type: 'FOOTER', text: 'x' }], [{ type: 'body', parameters: [] }])), ['PARAMETERS_INVALID message_template[0].type']);
});
test('the URL button parameter is required when the URL has a variable', () => {
  assert.deepEqual(where(checkSendComponents(coupon, cloud().filter((c) => c.sub_type !== 'url'))), ['PARAMETERS_INVALID message_template']);
});
test('a URL parameter sent to the wrong index fails on sub_type', () => {
  const input = cloud();
  input[2] = { ...input[2], index: 1 };
  assert.deepEqual(where(checkSendComponents(coupon, input)), ['PARAMETERS_INVALID message_template[2].sub_type', 'PARAMETERS_INVALID message_template']);
});
test('a button index beyond the template fails on index', () => {
  const input = [...cloud(), { type: 'button', sub_type: 'url', index: 9, parameters: ['x'] }];
  assert.deepEqual(where(checkSendComponents(coupon, input)), ['PARAMETERS_INVALID message_template[4].index']);
});
test('a button index given twice fails on the second', () => {
  const input = [...cloud(), { type: 'button', sub_type: 'url', index: 0, parameters: ['x'] }];
  assert.deepEqual(where(checkSendComponents(coupon, input)), ['PARAMETERS_INVALID message_template[4].index']);
});
test('a URL button without a variable takes no parameter', () => {
  const staticUrl: StoredComponents = [{ type: 'BODY', text: 'Hi' }, { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go', url: 'https://x.example/' }] }];
  assert.deepEqual(where(checkSendComponents(staticUrl, [{ type: 'button', sub_type: 'url', index: 0, parameters: ['x'] }])),
    ['PARAMETERS_INVALID message_template[0].parameters']);
});
test('the copy code parameter is required for a COPY_CODE button', () => {
  assert.deepEqual(where(checkSendComponents(coupon, cloud().filter((c) => c.sub_type !== 'copy_code'))), ['PARAMETERS_INVALID message_template']);
});
test('a coupon code longer than 20 characters fails', () => {
  const input = cloud();
  input[3] = { ...input[3], parameters: ['C'.repeat(21)] };
  assert.deepEqual(where(checkSendComponents(coupon, input)), ['PARAMETERS_INVALID message_template[3].parameters[0]']);
});
test('a phone button takes no parameters', () => {
  const input = [...cloud(), { type: 'BUTTONS', buttons: [{ index: 3, parameters: ['x'] }] }];
  assert.deepEqual(where(checkSendComponents(coupon, input)), ['PARAMETERS_INVALID message_template[4].buttons[0].parameters']);
});
test('text parameters may not be empty, hold new lines or tabs, or run 5 spaces', () => {
  for (const text of ['', 'a\nb', 'a\tb', 'a     b']) {
    const input = cloud();
    input[1] = { type: 'body', parameters: ['Pablo', text] };
    assert.deepEqual(where(checkSendComponents(coupon, input)), ['PARAMETERS_INVALID message_template[1].parameters[1]'], JSON.stringify(text));
  }
});
test('a body parameter is at most 1,024 characters, 32,768 when the body stands alone', () => {
  const input = cloud();
  input[1] = { type: 'body', parameters: ['Pablo', 'x'.repeat(1025)] };
  assert.deepEqual(where(checkSendComponents(coupon, input)), ['PARAMETERS_INVALID message_template[1].parameters[1]']);
  const alone: StoredComponents = [{ type: 'BODY', text: 'Note: {{1}} end' }];
  assert.deepEqual(checkSendComponents(alone, [{ type: 'body', parameters: ['x'.repeat(32768)] }]), []);
  assert.deepEqual(where(checkSendComponents(alone, [{ type: 'body', parameters: ['x'.repeat(32769)] }])), ['PARAMETERS_INVALID message_template[0].parameters[0]']);
});
test('currency and date_time body parameters pass through', () => {
  const input = cloud();
  const currency = { type: 'currency', currency: { fallback_value: '$10', code: 'USD', amount_1000: 10000 } };
  const date = { type: 'date_time', date_time: { fallback_value: 'May 1' } };
  input[1] = { type: 'body', parameters: [currency, date] };
  assert.deepEqual(toNetworkComponents(coupon, input)[1], { type: 'body', parameters: [currency, date] });
});
test('an unknown component entry fails on its type', () => {
  assert.deepEqual(where(checkSendComponents(coupon, [...cloud(), { type: 'footer' }])), ['PARAMETERS_INVALID message_template[4].type']);
});
test('components that are not an array fail on the root', () => {
  assert.deepEqual(where(checkSendComponents(coupon, { type: 'body' })), ['PARAMETERS_INVALID message_template']);
});
test('the root field name can be chosen by the caller', () => {
  assert.deepEqual(where(checkSendComponents(coupon, 'x', 'template.components')), ['PARAMETERS_INVALID template.components']);
});
test('weird shapes never throw from checkSendComponents', () => {
  for (const raw of [[null], [1], [{}], [{ type: 'body', parameters: {} }], [{ type: 'buttons', buttons: [null, { index: -1 }] }],
    [{ type: 'carousel', cards: [null, { components: 'x' }] }], [{ type: 'button', index: 'zero' }], [{ type: 'header', parameters: [{ type: 'image' }] }]]) {
    assert.ok(checkSendComponents(coupon, raw).length > 0, JSON.stringify(raw));
  }
});
test('toNetworkComponents throws PARAMETERS_INVALID with every error as details', () => {
  assert.throws(() => toNetworkComponents(coupon, []), (e: unknown) => {
    assert.ok(e instanceof AppError);
    assert.equal(e.code, 'PARAMETERS_INVALID');
    assert.equal(e.details.length, 4);
    return true;
  });
});

// Media and location headers
const media = (format: 'IMAGE' | 'DOCUMENT' | 'LOCATION'): StoredComponents => [{ type: 'HEADER', format }, { type: 'BODY', text: 'Your order ships.' }];
test('an image header takes one image parameter with an id or a link', () => {
  assert.deepEqual(toNetworkComponents(media('IMAGE'), [{ type: 'header', parameters: [{ type: 'image', image: { id: '1037' } }] }]),
    [{ type: 'header', parameters: [{ type: 'image', image: { id: '1037' } }] }]);
  assert.deepEqual(checkSendComponents(media('IMAGE'), [{ type: 'HEADER', parameters: [{ type: 'IMAGE', image: { link: 'https://x.example/a.jpg' } }] }]), []);
});
test('an image header parameter of another media type fails', () => {
  assert.deepEqual(where(checkSendComponents(media('IMAGE'), [{ type: 'header', parameters: [{ type: 'video', video: { id: '1' } }] }])),
    ['PARAMETERS_INVALID message_template[0].parameters[0]']);
});
test('a media parameter needs exactly one of id and an http(s) link', () => {
  for (const image of [{}, { id: '1', link: 'https://x.example/a.jpg' }, { link: 'file:///etc/passwd' }]) {
    assert.deepEqual(where(checkSendComponents(media('IMAGE'), [{ type: 'header', parameters: [{ type: 'image', image }] }])),
      ['PARAMETERS_INVALID message_template[0].parameters[0]'], JSON.stringify(image));
  }
});
test('a media header without its parameter is reported on the root', () => {
  assert.deepEqual(where(checkSendComponents(media('IMAGE'), [])), ['PARAMETERS_INVALID message_template']);
});
test('a document header keeps the filename', () => {
  const doc = { type: 'document', document: { link: 'https://x.example/r.pdf', filename: 'receipt.pdf' } };
  assert.deepEqual(toNetworkComponents(media('DOCUMENT'), [{ type: 'header', parameters: [doc] }]), [{ type: 'header', parameters: [doc] }]);
});
test('a location header takes latitude and longitude', () => {
  const location = { latitude: '37.44', longitude: -122.16, name: 'Philz Coffee' };
  assert.deepEqual(checkSendComponents(media('LOCATION'), [{ type: 'header', parameters: [{ type: 'location', location }] }]), []);
  assert.deepEqual(where(checkSendComponents(media('LOCATION'), [{ type: 'header', parameters: [{ type: 'location', location: { latitude: 'north' } }] }])),
    ['PARAMETERS_INVALID message_template[0].parameters[0]']);
});

// Named parameters
const named: StoredComponents = [{ type: 'BODY', text: 'Hi {{first_name}}, order {{order_id}} ships.' }];
test('named templates take parameter_name on each body parameter, in any order', () => {
  const params = [{ type: 'text', parameter_name: 'order_id', text: '86019' }, { type: 'text', parameter_name: 'first_name', text: 'Pablo' }];
  assert.deepEqual(toNetworkComponents(named, [{ type: 'body', parameters: params }]), [{ type: 'body', parameters: params }]);
});
test('named templates reject a missing or unknown parameter_name', () => {
  assert.deepEqual(where(checkSendComponents(named, [{ type: 'body', parameters: ['Pablo', { type: 'text', parameter_name: 'orderid', text: '1' }] }])),
    ['PARAMETERS_INVALID message_template[0].parameters[0].parameter_name', 'PARAMETERS_INVALID message_template[0].parameters[1].parameter_name']);
});
test('named templates reject a parameter_name given twice', () => {
  const p = { type: 'text', parameter_name: 'first_name', text: 'a' };
  assert.deepEqual(where(checkSendComponents(named, [{ type: 'body', parameters: [p, p] }])), ['PARAMETERS_INVALID message_template[0].parameters']);
});

// Carousel
const card = (i: number) => ({ components: [
  { type: 'HEADER' as const, format: 'IMAGE' as const, example: { header_handle: [`h${i}`] } },
  { type: 'BODY' as const, text: 'Use code {{1}} today.' },
  { type: 'BUTTONS' as const, buttons: [{ type: 'QUICK_REPLY' as const, text: 'More' }, { type: 'URL' as const, text: 'Buy', url: 'https://x.example/i/{{1}}' }] },
] });
const carousel: StoredComponents = [{ type: 'BODY', text: 'Hi {{1}}, new arrivals.' }, { type: 'CAROUSEL', cards: [card(0), card(1)] }];
const cardInput = (i: number) => ({ card_index: i, components: [
  { type: 'header', parameters: [{ type: 'image', image: { id: `m${i}` } }] },
  { type: 'body', parameters: [`CODE${i}`] },
  { type: 'button', sub_type: 'url', index: 1, parameters: [`item${i}`] },
] });
const carouselInput = () => [{ type: 'body', parameters: ['Pablo'] }, { type: 'carousel', cards: [cardInput(1), cardInput(0)] }];

test('a carousel send passes and comes out with its cards ordered by card_index', () => {
  const out = toNetworkComponents(carousel, carouselInput());
  assert.deepEqual(out[1], { type: 'carousel', cards: [0, 1].map((i) => ({ card_index: i, components: [
    { type: 'header', parameters: [{ type: 'image', image: { id: `m${i}` } }] },
    { type: 'body', parameters: [{ type: 'text', text: `CODE${i}` }] },
    { type: 'button', sub_type: 'url', index: 1, parameters: [{ type: 'text', text: `item${i}` }] },
  ] })) });
});
test('the service form CAROUSEL with cards in order and BUTTONS entries passes', () => {
  const input = [{ type: 'BODY', parameters: ['Pablo'] }, { type: 'CAROUSEL', cards: [0, 1].map((i) => ({ components: [
    { type: 'HEADER', parameters: [{ type: 'image', image: { link: `https://x.example/${i}.jpg` } }] },
    { type: 'BODY', parameters: ['C'] },
    { type: 'BUTTONS', buttons: [{}, { parameters: ['sku'] }] },
  ] })) }];
  assert.deepEqual(checkSendComponents(carousel, input), []);
});
test('the carousel card count must equal the template\'s', () => {
  const input = carouselInput();
  input[1] = { type: 'carousel', cards: [cardInput(0)] };
  assert.deepEqual(where(checkSendComponents(carousel, input)), ['PARAMETERS_INVALID message_template[1].cards']);
});
test('per-card parameter counts are checked', () => {
  const input = carouselInput();
  const cards = (input[1] as { cards: ReturnType<typeof cardInput>[] }).cards;
  cards[1].components[1] = { type: 'body', parameters: ['a', 'b'] };
  assert.deepEqual(where(checkSendComponents(carousel, input)), ['PARAMETERS_INVALID message_template[1].cards[1].components[1].parameters']);
});
test('a card missing its header image is reported on the card\'s components', () => {
  const input = carouselInput();
  const cards = (input[1] as { cards: ReturnType<typeof cardInput>[] }).cards;
  cards[0].components.shift();
  assert.deepEqual(where(checkSendComponents(carousel, input)), ['PARAMETERS_INVALID message_template[1].cards[0].components']);
});
test('a card_index out of range or repeated fails on card_index', () => {
  const input = carouselInput();
  (input[1] as { cards: ReturnType<typeof cardInput>[] }).cards[0].card_index = 0;
  assert.deepEqual(where(checkSendComponents(carousel, input)), ['PARAMETERS_INVALID message_template[1].cards[1].card_index']);
  (input[1] as { cards: ReturnType<typeof cardInput>[] }).cards[0].card_index = 5;
  assert.deepEqual(where(checkSendComponents(carousel, input)), ['PARAMETERS_INVALID message_template[1].cards[0].card_index']);
});
test('a carousel template without the carousel entry fails on the root', () => {
  assert.deepEqual(where(checkSendComponents(carousel, [{ type: 'body', parameters: ['Pablo'] }])), ['PARAMETERS_INVALID message_template']);
});
test('a carousel entry for a template without a carousel fails on its type', () => {
  assert.deepEqual(where(checkSendComponents(coupon, [...cloud(), { type: 'carousel', cards: [] }])), ['PARAMETERS_INVALID message_template[4].type']);
});

test('a REQUEST_CONTACT_INFO button needs no parameter and is never sent as a component; a parameter for it is refused', () => {
  const ask: StoredComponents = [{ type: 'BODY', text: 'Hi {{1}}, share your number?' }, { type: 'BUTTONS', buttons: [{ type: 'REQUEST_CONTACT_INFO' }] }];
  const body = { type: 'body', parameters: [{ type: 'text', text: 'Pablo' }] };
  assert.deepEqual(toNetworkComponents(ask, [body]), [body]);
  const extra = [body, { type: 'button', sub_type: 'request_contact_info', index: 0, parameters: [{ type: 'text', text: 'x' }] }];
  assert.deepEqual(where(checkSendComponents(ask, extra)), ['PARAMETERS_INVALID message_template[1].parameters']);
});
