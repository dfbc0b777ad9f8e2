/** Template bodies for tests. */

let counter = 0;
/** A unique valid template name. */
export function uniqueName(prefix = 'tpl'): string {
  counter += 1;
  return `${prefix}_${process.pid}_${counter}_${Date.now() % 100000}`;
}

/** A valid MARKETING template's components: text header, body with 2 variables, footer, URL + quick reply buttons. */
export function validComponents() {
  return [
    { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} sale', example: { header_text: ['summer'] } },
    {
      type: 'BODY',
      text: 'Hello {{1}}, your code {{2}} is ready.',
      example: { body_text: [['Ayse', 'SAVE10']] },
    },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Shop', url: 'https://shop.example.com/p/{{1}}', example: ['summer'] },
        { type: 'QUICK_REPLY', text: 'Stop' },
      ],
    },
  ];
}

/** A family B create body (name must have been checked first). */
export function apiV1Body(channelId: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    category: 'MARKETING',
    language: 'en_US',
    components: validComponents(),
    allow_category_change: false,
    channel_id: channelId,
    ...extra,
  };
}

/** A v2 carousel template in lower case, as family A v2 sends it. */
export function carouselTemplate(name: string, handle: string) {
  const card = () => ({
    components: [
      { type: 'header', format: 'image', example: { header_handle: [handle] } },
      { type: 'body', text: 'Card text {{1}} here', example: { body_text: [['x']] } },
      { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'More' }, { type: 'url', text: 'Buy', url: 'https://x.example/{{1}}', example: ['a'] }] },
    ],
  });
  return {
    name,
    category: 'MARKETING',
    language: 'tr',
    components: [
      { type: 'body', text: 'Hi {{1}}, see our picks today.', example: { body_text: [['Ali']] } },
      { type: 'carousel', cards: [card(), card()] },
    ],
  };
}
