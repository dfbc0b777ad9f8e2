/**
 * Replays every recorded Graph answer (`test/fixtures/meta/graph_*.json`) against the simulator: the same request
 * shape that produced the recording, then the answer must have every key of the recording (recursively; the first
 * element of arrays) with the same JSON types, the same error `type`/`code`/`error_subcode`, and Graph's HTTP status.
 * The recordings are enumerated from the directory, so a new one without a replay case fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/index.js';
import { AUTH, eventually, fixture, httpJson, startSim, type SimSetup } from './helpers.js';

const RECORDINGS = readdirSync(new URL('../fixtures/meta/', import.meta.url))
  .filter((f) => /^graph_.*\.json$/.test(f))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

let s: SimSetup;
/** A template with a body variable and PHONE_NUMBER/URL buttons (the shape of the recorded get-by-id). */
let orderTemplateId: string;

type Answer = { status: number; json: unknown };
const graph = (method: string, path: string, body?: unknown): Promise<Answer> => httpJson(method, `${s.rootUrl}${path}`, body, AUTH);

async function createApproved(name: string, components: unknown[]): Promise<string> {
  const created = await graph('POST', `/v23.0/${SIM_WABA_ID}/message_templates`, { name, language: 'en_US', category: 'MARKETING', components });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const id = (created.json as { id: string }).id;
  await eventually(async () => ((await graph('GET', `/${id}?fields=status`)).json as { status: string }).status === 'APPROVED');
  return id;
}

function send(channelId: string, to: string, components: unknown[] = [{ type: 'body', parameters: [{ type: 'text', text: 'Ann' }, { type: 'text', text: 'A-1' }] }]) {
  return graph('POST', `/v23.0/${channelId}/messages`, {
    messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'template',
    template: { name: 'order_confirmation', language: { code: 'en_US' }, components },
  });
}

/** Creates a template as recorded, then deletes it again (the list replays see only the world set up in before()). */
async function createAndDrop(version: string, body: { name: string } & Record<string, unknown>): Promise<Answer> {
  const answer = await graph('POST', `/${version}/${SIM_WABA_ID}/message_templates`, body);
  await graph('DELETE', `/${version}/${SIM_WABA_ID}/message_templates?name=${body.name}`);
  return answer;
}

/** The fields a recording of a node shows (its keys, `id` included). */
const fieldsOf = (name: string) => Object.keys(fixture(name) as Record<string, unknown>).join(',');

/** Each recording: the request that produced it (as the simulator serves it) and Graph's HTTP status. */
const REPLAYS: Record<string, { status: number; request: () => Promise<Answer> }> = {
  'graph_create_template_response__java-sdk': {
    status: 200,
    request: () => createAndDrop('v23.0', {
      name: 'welcome_template3', language: 'en_US', category: 'UTILITY',
      components: [{ type: 'HEADER', format: 'TEXT', text: 'Wellcome title' }, { type: 'BODY', text: 'Hello {{1}}, welcome to our {{2}} test.', example: { body_text: [['Mr. José', 's']] } }],
    }),
  },
  'graph_create_template_response__ruby-sdk-vcr': {
    status: 200,
    request: () => createAndDrop('v19.0', {
      name: 'seasonal_promotion_replay', language: 'en_US', category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Thank you for your order, {{1}}!', example: { body_text: [['Ignacio']] } }],
    }),
  },
  // Mark-as-read with a message id the network does not know: (#100) Invalid parameter with error_data.
  'graph_error_100_invalid_parameter_with_error_data__ruby-sdk-vcr': {
    status: 400,
    request: () => graph('POST', `/v19.0/${SIM_CHANNEL_IDS.main}/messages`, { messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.unknown' }),
  },
  // GET of an unknown id, unversioned as Graph also serves it.
  'graph_error_100_object_not_found__java-sdk': { status: 400, request: () => graph('GET', '/454545') },
  'graph_error_100_subcode_33_unsupported_post__ruby-sdk-vcr': {
    status: 400,
    request: () => graph('POST', '/v19.0/123123/messages', { messaging_product: 'whatsapp', to: '13437772910', type: 'text', text: { body: 'hi' } }),
  },
  // Throughput spent: a channel capped at 1 message per second, two sends at once.
  'graph_error_130429_rate_limit__meta-docs': {
    status: 400,
    request: async () => {
      await httpJson('POST', `${s.rootUrl}/_sim/channels/${SIM_CHANNEL_IDS.small}`, { mps: 1 });
      await send(SIM_CHANNEL_IDS.small, '+15550107001');
      return send(SIM_CHANNEL_IDS.small, '+15550107002');
    },
  },
  // A template with one body variable sent without parameters.
  'graph_error_132000_param_count_mismatch__real-log': { status: 400, request: () => send(SIM_CHANNEL_IDS.main, '+15550107003', []) },
  'graph_get_phone_number__java-sdk': {
    status: 200,
    request: () => graph('GET', `/v23.0/${SIM_CHANNEL_IDS.main}?fields=${fieldsOf('graph_get_phone_number__java-sdk')}`),
  },
  // The docs example is the default fields (no `fields=`), unversioned.
  'graph_get_phone_number__meta-docs': { status: 200, request: () => graph('GET', `/${SIM_CHANNEL_IDS.main}`) },
  // Demo Small still answers the deprecated messaging_limit_tier, as the recorded number does.
  'graph_get_phone_number__ruby-sdk-vcr': {
    status: 200,
    request: () => graph('GET', `/v19.0/${SIM_CHANNEL_IDS.small}?fields=${fieldsOf('graph_get_phone_number__ruby-sdk-vcr')}`),
  },
  'graph_get_template_by_id__ruby-sdk-vcr': { status: 200, request: () => graph('GET', `/${orderTemplateId}`) },
  // The recorded number still sends the deprecated tier: Demo Main is configured so for this read.
  'graph_list_phone_numbers__ruby-sdk-vcr': {
    status: 200,
    request: async () => {
      await httpJson('POST', `${s.rootUrl}/_sim/channels/${SIM_CHANNEL_IDS.main}`, { messaging_limit_tier: 'TIER_250' });
      try {
        const fields = Object.keys((fixture('graph_list_phone_numbers__ruby-sdk-vcr') as { data: object[] }).data[0]).join(',');
        return await graph('GET', `/v19.0/${SIM_WABA_ID}/phone_numbers?fields=${fields}`);
      } finally {
        await httpJson('POST', `${s.rootUrl}/_sim/channels/${SIM_CHANNEL_IDS.main}`, { messaging_limit_tier: null });
      }
    },
  },
  'graph_list_templates__ruby-sdk-vcr': { status: 200, request: () => graph('GET', `/v19.0/${SIM_WABA_ID}/message_templates?limit=100`) },
  'graph_list_templates_with_paging__java-sdk': { status: 200, request: () => graph('GET', `/v23.0/${SIM_WABA_ID}/message_templates?limit=1`) },
  // The text-message recordings: the simulator sends templates only, so the replay sends a template.
  'graph_send_message_success__java-sdk': { status: 200, request: () => send(SIM_CHANNEL_IDS.main, '+48555000111') },
  'graph_send_message_success__meta-docs': { status: 200, request: () => send(SIM_CHANNEL_IDS.main, '+16505551234') },
  'graph_send_message_success__ruby-sdk-vcr': { status: 200, request: () => send(SIM_CHANNEL_IDS.main, '13437772910') },
  'graph_send_template_success_message_status_accepted__ruby-sdk-vcr': { status: 200, request: () => send(SIM_CHANNEL_IDS.main, '13437772911') },
};

function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Every key of the recording is in the answer with the same JSON type (recursively; first element of arrays). */
function assertCovers(answer: unknown, recording: unknown, path = '(root)'): void {
  assert.equal(typeOf(answer), typeOf(recording), `type of ${path}`);
  if (Array.isArray(recording)) {
    if (recording.length === 0) return;
    assert.ok((answer as unknown[]).length > 0, `${path} is empty`);
    assertCovers((answer as unknown[])[0], recording[0], `${path}[0]`);
    return;
  }
  if (typeOf(recording) !== 'object') return;
  for (const [key, value] of Object.entries(recording as Record<string, unknown>)) {
    assert.ok(key in (answer as Record<string, unknown>), `missing ${path}.${key}`);
    assertCovers((answer as Record<string, unknown>)[key], value, `${path}.${key}`);
  }
}

before(async () => {
  s = await startSim({ limits: { pairRateBurst: null } });
  orderTemplateId = await createApproved('order_confirmation', [
    { type: 'BODY', text: 'Thank you for your order, {{1}}! Your confirmation number is {{2}}. Thank you for being a customer!', example: { body_text: [['Ignacio', '860198-230332']] } },
    { type: 'BUTTONS', buttons: [{ type: 'PHONE_NUMBER', text: 'Call', phone_number: '+59898400766' }, { type: 'URL', text: 'Contact Support', url: 'https://www.luckyshrub.com/support' }] },
  ]);
  // The newest template (first in lists) has a text header, like the recorded lists; Meta once re-categorised it
  // (no admin route sets previous_category yet, so the world is set in-process).
  const helloId = await createApproved('hello_world', [
    { type: 'HEADER', format: 'TEXT', text: 'Hello World' },
    { type: 'BODY', text: 'Welcome and congratulations!! This message demonstrates your ability to send a message.' },
    { type: 'FOOTER', text: 'WhatsApp Business API Team' },
  ]);
  s.sim.world.templates.get(helloId)!.previousCategory = 'ACCOUNT_UPDATE';
});
after(() => s.close());

test('every graph_* recording has a replay case, and every case a recording', () => {
  assert.ok(RECORDINGS.length >= 18, `found ${RECORDINGS.length} recordings`);
  assert.deepEqual(RECORDINGS.filter((r) => !(r in REPLAYS)), [], 'recordings without a replay case');
  assert.deepEqual(Object.keys(REPLAYS).filter((r) => !RECORDINGS.includes(r)), [], 'replay cases without a recording');
});

for (const name of RECORDINGS) {
  test(`replay ${name}: same keys, types, error codes and HTTP status`, async () => {
    const replay = REPLAYS[name];
    assert.ok(replay, `no replay case for ${name}`);
    const recording = fixture(name) as { error?: Record<string, unknown> };
    const answer = await replay.request();
    assert.equal(answer.status, replay.status, JSON.stringify(answer.json));
    assertCovers(answer.json, recording);
    if (recording.error) {
      const error = (answer.json as { error: Record<string, unknown> }).error;
      assert.deepEqual(
        [error.type, error.code, error.error_subcode],
        [recording.error.type, recording.error.code, recording.error.error_subcode],
      );
    }
  });
}
