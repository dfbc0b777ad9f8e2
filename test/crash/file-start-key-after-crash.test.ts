import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { CRASH_TOKEN, startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';
import { multipartBody, fieldParts, csvPart } from '../support/files.js';

// A process killed in the middle of a file start holds its Idempotency-Key: the retry after the restart runs at once
// (the key's instance is dead), not 409 IN_PROGRESS for the 15-minute lease; its scratch folder is gone.

let world: CrashWorld;

before(async () => {
  world = await startCrashWorld();
});
after(() => world?.close());

function postFile(key: string) {
  const { payload, contentType } = multipartBody([
    ...fieldParts({ message_template_id: world.templateId, channel_id: SIM_CHANNEL_IDS.main, total_time: 0 }),
    csvPart([['phone_number', 'BODY.1', 'BODY.2', 'url_button_param'], ['905556611001', 'Ana', 'C1', 'p1'], ['905556611002', 'Bo', 'C2', 'p2']]),
  ]);
  return fetch(`http://127.0.0.1:${world.servicePort}/agent-app/message-template/send-wizard/start-file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CRASH_TOKEN}`, 'content-type': contentType, 'idempotency-key': key },
    body: payload,
  });
}

test('kill -9 mid file start: after the restart the same Idempotency-Key starts at once, and the scratch folder is gone', async () => {
  let service = await world.startService({ TMS_FAULT_CRASH_IN_FILE_START: '1' });
  const pid = service.child.pid!;
  await assert.rejects(postFile('crash-key-1')); // the connection dies with the process
  assert.equal((await service.exited).signal, 'SIGKILL', service.output());
  const left = readdirSync(tmpdir()).filter((n) => n.startsWith(`tms-file-start-${pid}-`));
  assert.equal(left.length, 1, 'the killed process left its scratch folder');

  service = await world.startService();
  assert.equal(existsSync(join(tmpdir(), left[0])), false, 'the start removed it');
  const started = Date.now();
  const answer = await until(async () => {
    const res = await postFile('crash-key-1');
    const body = await res.json();
    return res.status === 409 ? undefined : { status: res.status, body };
  }, 60_000, 'the key is free');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.ok(Date.now() - started < 60_000);
  const replay = await postFile('crash-key-1');
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  await service.kill('SIGTERM');
});
