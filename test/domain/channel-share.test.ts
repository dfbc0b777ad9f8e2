import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fairShare, planChannelShare, rendezvousScore, type LeaseView } from '../../src/domain/channel-share.js';

const channels = Array.from({ length: 20 }, (_, i) => `1200000000${String(i).padStart(5, '0')}`);
const owners = ['tms-101-aa', 'tms-202-bb', 'tms-303-cc'];

/** Runs the share rule round by round for instances that take every channel they try (no race), as the dispatcher would. */
function simulate(due: string[], live: string[], rounds = 10, start = new Map<string, string>()) {
  const holder = new Map(start);
  for (let r = 0; r < rounds; r += 1) {
    for (const owner of live) {
      const leases = new Map<string, LeaseView>([...holder].map(([c, o]) => [c, { owner: o, live: true }]));
      const running = new Set([...holder].filter(([, o]) => o === owner).map(([c]) => c));
      const plan = planChannelShare({ owner, instances: live.length, due, leases, running, leaving: new Set() });
      for (const c of plan.handBack) holder.delete(c);
      for (const c of plan.take) if (!holder.has(c)) holder.set(c, owner);
    }
  }
  const count = (o: string) => [...holder.values()].filter((h) => h === o).length;
  return { holder, counts: live.map(count) };
}

test('the fair share is ceil(channels ÷ live instances)', () => {
  assert.equal(fairShare(20, 3), 7);
  assert.equal(fairShare(20, 1), 20);
  assert.equal(fairShare(1, 3), 1);
  assert.equal(fairShare(0, 3), 0);
  assert.equal(fairShare(5, 0), 5);
});

test('three instances spread twenty channels 7/7/6 and every channel has one sender', () => {
  const { holder, counts } = simulate(channels, owners);
  assert.equal(holder.size, 20);
  assert.deepEqual([...counts].sort((a, b) => a - b), [6, 7, 7]);
});

test('an instance that took every channel before the others registered hands the surplus back', () => {
  const start = new Map(channels.map((c) => [c, owners[0]] as const));
  const first = planChannelShare({
    owner: owners[0], instances: 3, due: channels,
    leases: new Map([...start].map(([c, o]) => [c, { owner: o, live: true }])),
    running: new Set(channels), leaving: new Set(),
  });
  assert.equal(first.share, 7);
  assert.equal(first.handBack.length, 13);
  assert.deepEqual(first.take, []);
  const { counts, holder } = simulate(channels, owners, 10, start);
  assert.equal(holder.size, 20);
  assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `counts ${counts}`);
});

test('when an instance dies its channels are taken by the survivors once their leases expire', () => {
  const { holder } = simulate(channels, owners);
  const dead = owners[1];
  // The dead instance's leases ran out: they read as not live; the survivors count two instances.
  const leases = new Map<string, LeaseView>([...holder].map(([c, o]) => [c, { owner: o, live: o !== dead }]));
  const taken = new Set<string>();
  for (const owner of [owners[0], owners[2]]) {
    const running = new Set([...holder].filter(([, o]) => o === owner).map(([c]) => c));
    const plan = planChannelShare({ owner, instances: 2, due: channels, leases, running, leaving: new Set() });
    assert.deepEqual(plan.handBack, []);
    assert.equal(running.size + plan.take.length, 10);
    for (const c of plan.take) {
      assert.equal(holder.get(c), dead, 'only a free (expired) lease is taken');
      taken.add(c);
      leases.set(c, { owner, live: true });
    }
  }
  assert.equal(taken.size, [...holder.values()].filter((o) => o === dead).length);
});

test('a live lease of another instance, or one being handed over, is never taken', () => {
  const leases = new Map<string, LeaseView>([
    [channels[0], { owner: owners[1], live: true }],
    [channels[1], { owner: `handover:${owners[1]}`, live: true }],
    [channels[2], { owner: owners[1], live: false }],
  ]);
  const plan = planChannelShare({ owner: owners[0], instances: 1, due: channels.slice(0, 3), leases, running: new Set(), leaving: new Set() });
  assert.deepEqual(plan.take, [channels[2]]);
  assert.deepEqual(plan.handBack, []);
});

test('an idle lease of ours is handed back before a running sender, and a leaving channel is neither kept nor taken', () => {
  const due = channels.slice(0, 4);
  const leases = new Map<string, LeaseView>(due.map((c) => [c, { owner: owners[0], live: true }]));
  const running = new Set(due.slice(0, 2));
  const plan = planChannelShare({ owner: owners[0], instances: 2, due, leases, running, leaving: new Set() });
  assert.equal(plan.share, 2);
  assert.deepEqual(new Set(plan.handBack), new Set(due.slice(2)));
  assert.deepEqual(plan.resume, []);
  const leavingPlan = planChannelShare({ owner: owners[0], instances: 1, due, leases, running: new Set(), leaving: new Set([due[0]]) });
  assert.ok(!leavingPlan.resume.includes(due[0]) && !leavingPlan.take.includes(due[0]));
  assert.equal(leavingPlan.resume.length, 3);
});

test('one instance alone keeps every channel (the rule changes nothing for a single instance)', () => {
  const plan = planChannelShare({ owner: owners[0], instances: 1, due: channels, leases: new Map(), running: new Set(), leaving: new Set() });
  assert.equal(plan.take.length, 20);
  assert.deepEqual(plan.handBack, []);
});

test('rendezvous order differs between instances, so they reach for different free channels first', () => {
  const firsts = owners.map((o) => [...channels].sort((a, b) => rendezvousScore(o, b) - rendezvousScore(o, a)).slice(0, 7));
  const overlap = firsts[0].filter((c) => firsts[1].includes(c)).length;
  assert.ok(overlap < 7, 'two instances would prefer the same seven channels');
  assert.equal(rendezvousScore('a', 'b'), rendezvousScore('a', 'b'));
});
