import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import { asBackgroundWork, openDatabase, type Store } from '../../src/store/db.js';
import { BACKGROUND_WAIT_MAX_MS } from '../../src/store/pglite-dialect.js';

// PGlite runs its statements on the service's thread and their answers settle in microtasks. A caller running
// statements back to back (the dispatcher's queueing loop, for its one-second budget) kept the event loop from
// reading any request until it stopped, so a report read waited for the whole loop instead of one statement. The
// dialect hands the connection over in the event loop's next turn. PGlite in memory on either suite: the dialect is
// what is tested.
const LOOP = 20;
let store: Store;
let server: Server;
let client: Socket;
let served: Promise<Socket>;

before(async () => {
  store = await openDatabase({ memory: true });
  // Opened and answering: the loop below runs on a connection that is up.
  await sql`select 1`.execute(store.db);
  server = createServer();
  served = new Promise((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  client = createConnection(port, '127.0.0.1');
  await new Promise<void>((resolve) => client.once('connect', resolve));
});
after(async () => {
  client.destroy();
  (await served).destroy();
  await new Promise((resolve) => server.close(resolve));
  await store.close();
});

test('a request that arrives during a loop of statements is read, and its statement runs, before the loop ends', async () => {
  const socket = await served;
  let done = 0;
  // The "request": bytes already sent when the loop starts; its handler asks for one statement.
  const read = new Promise<number>((resolve, reject) => {
    socket.once('data', () => {
      sql`select 1`.execute(store.db).then(() => resolve(done), reject);
    });
  });
  client.write('read');
  for (let i = 0; i < LOOP; i += 1) {
    await store.db.transaction().execute(async (tx) => {
      await sql`select count(*) from generate_series(1, 5000)`.execute(tx);
      await sql`select 1`.execute(tx);
    });
    done += 1;
  }
  const loopStatementsBeforeTheRead = await read;
  // Its statement waits for the loop's statements already asked for when the request was read, not for the loop.
  assert.ok(loopStatementsBeforeTheRead <= 3, `the read ran after ${loopStatementsBeforeTheRead} of ${LOOP} loop statements`);
});

test('a statement asked for while background work waits for the connection runs before that work', async () => {
  // The background work lets the request go first only until it has waited BACKGROUND_WAIT_MAX_MS: on a loaded
  // machine the held transaction can outlast that, and then the background work rightly goes first. Each attempt
  // checks the rule for what it measured; one attempt at least must see the request go first.
  const attempt = async () => {
    const order: string[] = [];
    let background: Promise<void> | undefined;
    let request: Promise<void> | undefined;
    let asked = 0;
    let backgroundWaited = 0;
    await store.db.transaction().execute(async (tx) => {
      // Both ask while the connection is held: the background work first, the request after it.
      asked = performance.now();
      background = asBackgroundWork(() => sql`select 1`.execute(store.db).then(() => {
        backgroundWaited = performance.now() - asked;
        order.push('background');
      }));
      await new Promise((resolve) => setImmediate(resolve));
      request = sql`select 1`.execute(store.db).then(() => void order.push('request'));
      await sql`select 1`.execute(tx);
    });
    await Promise.all([background, request]);
    // Granted first only once its bound had passed: it cannot have finished sooner.
    if (order[0] === 'background') assert.ok(backgroundWaited >= BACKGROUND_WAIT_MAX_MS, `background first after ${backgroundWaited.toFixed(1)} ms`);
    assert.equal(order.length, 2);
    return order;
  };
  const orders: string[][] = [];
  for (let i = 0; i < 5 && !orders.some((o) => o[0] === 'request'); i += 1) orders.push(await attempt());
  assert.deepEqual(orders.at(-1), ['request', 'background'], `orders of ${orders.length} attempts: ${JSON.stringify(orders)}`);
});

test('background work takes its turn while other callers keep asking for the connection', async () => {
  let backgroundDone = false;
  const background = asBackgroundWork(() => sql`select 1`.execute(store.db)).then(() => (backgroundDone = true));
  // Two callers asking back to back: one of them always waits for the connection.
  const caller = async () => {
    for (let i = 0; i < 5000 && !backgroundDone; i += 1) await sql`select 1`.execute(store.db);
    return backgroundDone;
  };
  const [first, second] = await Promise.all([caller(), caller()]);
  await background;
  assert.ok(first && second, 'the background statement waited for the callers to stop asking');
});
