import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { eventually, startHarness, type Harness } from '../support/harness.js';
import { uniqueName } from '../support/templates.js';
import { reportRows, untilWizard } from '../support/bulk.js';
import { untilStatus } from '../support/sending.js';

// Every example of docs/send-parameters.md, posted to the service as written: each `<group>.template` block is
// created with templatev2 and approved by the (simulated) network, then each request block of the group is
// posted to its route with the template's id and must be accepted and delivered. The docs cannot rot.

const DOC = new URL('../../docs/send-parameters.md', import.meta.url);
const CHANNEL = '110000000000001';
const DELIVERED = ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN'];
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(1024).fill(7)]);

interface Example { group: string; name: string; route?: string; json: string }

let h: Harness;
let examples: Example[];
let handle: string;
const templateIds = new Map<string, Promise<string>>();

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  const text = await readFile(DOC, 'utf8');
  examples = [...text.matchAll(/<!-- example: (\w+)\.([\w-]+)(?: POST (\S+))? -->\n```json\n([\s\S]*?)\n```/g)].map(
    ([, group, name, route, json]) => ({ group, name, route, json }),
  );
  const form = new FormData();
  form.append('channel_id', CHANNEL);
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'card.png');
  const res = await fetch(`${h.appUrl}/api/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${h.a.token}` }, body: form });
  assert.equal(res.status, 200, await res.clone().text());
  handle = ((await res.json()) as { data: { file_handle: string } }).data.file_handle;
});
after(() => h.close());

/** The example's JSON with the placeholders filled. */
function body(example: Example, templateId = ''): Record<string, unknown> {
  return JSON.parse(example.json.replaceAll('HEADER_HANDLE', handle).replaceAll('TEMPLATE_ID', templateId));
}

/** The group's template, created once and approved. */
function templateOf(group: string): Promise<string> {
  if (!templateIds.has(group)) {
    const example = examples.find((e) => e.group === group && e.name === 'template');
    assert.ok(example, `no ${group}.template in the docs`);
    templateIds.set(group, (async () => {
      const b = body(example) as { message_template: { name: string } };
      b.message_template.name = uniqueName(b.message_template.name);
      const res = await h.call('POST', '/agent-app/message-template/templatev2', { body: b });
      assert.equal(res.status, 200, `${group}.template: ${JSON.stringify(res.body)}`);
      const id = res.body.data.id as string;
      await eventually(async () => {
        const got = await h.call('GET', `/agent-app/message-template/template/get-by-id?template_id=${id}&channel_id=${CHANNEL}`);
        assert.notEqual(got.body.data?.message_template.status, 'REJECTED', `${group}.template was rejected: ${JSON.stringify(got.body)}`);
        return got.body.data?.message_template.status === 'APPROVED';
      }, 30_000);
      return id;
    })());
  }
  return templateIds.get(group)!;
}

test('the docs hold examples of every send kind for positional, named, media and carousel templates', () => {
  const names = new Set(examples.map((e) => `${e.group}.${e.name}`));
  for (const expected of ['positional.single-service-form', 'positional.single-cloud-form', 'positional.start', 'positional.startv2', 'named.single', 'named.start', 'named.startv2', 'media.single', 'media.startv2', 'carousel.single', 'carousel.startv2']) {
    assert.ok(names.has(expected), expected);
  }
});

test('every single-send example is accepted and delivered', async () => {
  for (const example of examples.filter((e) => e.route?.endsWith('/single-messagev2'))) {
    const res = await h.call('POST', example.route!, { body: body(example, await templateOf(example.group)) });
    assert.equal(res.status, 200, `${example.group}.${example.name}: ${JSON.stringify(res.body)}`);
    const record = await untilStatus(h, res.body.data.message_id, [...DELIVERED, 'BACKEND_FAILED', 'SENT_TO_BACKEND_FAILED'], 30_000);
    assert.ok(DELIVERED.includes(record.status), `${example.group}.${example.name}: ${JSON.stringify(record)}`);
  }
});

test('every start and startv2 example is accepted and every row delivered', async () => {
  for (const example of examples.filter((e) => e.route?.includes('/send-wizard/'))) {
    const res = await h.call('POST', example.route!, { body: body(example, await templateOf(example.group)) });
    assert.equal(res.status, 200, `${example.group}.${example.name}: ${JSON.stringify(res.body)}`);
    const id = res.body.data.send_wizard_id as string;
    await untilWizard(h, CHANNEL, id, ['COMPLETED'], 60_000);
    const rows = await eventually(async () => {
      const all = await reportRows(h, id);
      return all.every((r: { status: string }) => DELIVERED.includes(r.status) || r.status === 'BACKEND_FAILED') ? all : undefined;
    }, 30_000);
    assert.deepEqual(rows.filter((r: { status: string }) => !DELIVERED.includes(r.status)), [], `${example.group}.${example.name}`);
  }
});
