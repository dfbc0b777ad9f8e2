/**
 * The dispatcher's loop sleeps `idleMs` between rounds unless woken. A wake that comes while a round is running
 * (between its probe for due work and its sleep, when no sleep is there to cut short) must not be lost: the work it
 * announces may have been stored after the probe looked. With nothing due, a round after the first is exactly one
 * statement (the probe), so the rounds are counted by the statements the loop runs.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import pino from 'pino';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import type { NetworkPort } from '../../src/network/port.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
before(async () => {
  store = await createTestStore();
});
after(() => store.cleanup());

/** Counts statements; while armed, the result of the next statement waits until `release()`. */
class HeldStatements implements KyselyPlugin {
  count = 0;
  private armed = false;
  private hold: Promise<void> | null = null;
  private releaseHold: () => void = () => undefined;
  arm(): void {
    this.armed = true;
    this.hold = new Promise((resolve) => (this.releaseHold = resolve));
  }
  release(): void {
    this.armed = false;
    this.releaseHold();
  }
  transformQuery: KyselyPlugin['transformQuery'] = (args) => {
    this.count += 1;
    return args.node;
  };
  transformResult: KyselyPlugin['transformResult'] = async (args) => {
    if (this.armed && this.hold) await this.hold;
    return args.result;
  };
}

async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A dispatcher whose rounds run only when woken (its idle sleep and maintenance interval are a minute). */
async function idleDispatcher(statements: HeldStatements): Promise<Dispatcher> {
  const dispatcher = new Dispatcher({
    db: store.db.withPlugin(statements),
    network: {} as NetworkPort,
    log: pino({ level: 'silent' }),
    health: {} as never,
    options: { idleMs: 60_000, maintenanceMs: 60_000 },
    exclusive: true,
  });
  dispatcher.start();
  // The first round (lease clean-up, maintenance, the probe) has ended once the loop sleeps. A quiet spell in the
  // statement count is no sign of it: on a loaded machine one statement can take longer than any spell waited.
  await until(() => dispatcher.asleep, 'the first round');
  return dispatcher;
}

test('a wake while the loop sleeps runs one round, then the loop sleeps again', async () => {
  const statements = new HeldStatements();
  const dispatcher = await idleDispatcher(statements);
  try {
    const before = statements.count;
    dispatcher.wake();
    await until(() => statements.count > before && dispatcher.asleep, 'the woken round');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(statements.count, before + 1);
  } finally {
    await dispatcher.stop();
  }
});

test('a wake that comes during a round is kept: another round follows at once', async () => {
  const statements = new HeldStatements();
  const dispatcher = await idleDispatcher(statements);
  try {
    const before = statements.count;
    statements.arm();
    dispatcher.wake();
    // The woken round's probe is running (its answer held): the round is in progress, no sleep to cut short.
    await until(() => statements.count > before, 'the woken round');
    assert.equal(statements.count, before + 1, 'the woken round runs its probe alone');
    dispatcher.wake();
    statements.release();
    // Without the kept wake the next round would come a minute later.
    await until(() => statements.count > before + 1 && dispatcher.asleep, 'the round the second wake asked for');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(statements.count, before + 2);
  } finally {
    // A failed wait must not leave a statement held: stop waits for the round that runs it.
    statements.release();
    await dispatcher.stop();
  }
});
