/**
 * Test-only fault (TMS_FAULT_GATE_DELAY_MS): stalls a channel sender between its claim and its gate, so its
 * message lease can run out and another instance can take the claimed rows over while this one still holds
 * them in memory. Crash tests use it to prove that a stalled owner moves and sends nothing it no longer owns.
 * Never set in production.
 */
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';

/** Settings of the gate-delay fault. */
export interface GateDelayFault {
  /** How long a stalled gate waits (ms). */
  delayMs: number;
  /** 0: only the process's first gate stalls; N: gates 1, 1+N, 1+2N, … stall. */
  every: number;
  /**
   * TMS_FAULT_GATE_RELEASE_FILE: when set, stalled gate N ends as soon as the file holds a number ≥ N (delayMs is
   * then the longest stall), so a test can wake the instance at the moment its scenario needs, however loaded the
   * machine is, instead of guessing a delay.
   */
  releaseFile?: string;
}

/** The highest gate number the release file lets go (0 while it is missing or holds no number). */
function releasedUpTo(releaseFile: string): number {
  try {
    return Number.parseInt(readFileSync(releaseFile, 'utf8'), 10) || 0;
  } catch {
    return 0;
  }
}

/** Resolves when `ms` have passed or, with a release file, as soon as it lets gate `gate` go. */
async function stallUntil(ms: number, gate: number, releaseFile: string | undefined): Promise<void> {
  const deadline = Date.now() + ms;
  if (!releaseFile) return new Promise((resolve) => setTimeout(resolve, ms));
  while (Date.now() < deadline && releasedUpTo(releaseFile) < gate) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(1, deadline - Date.now()))));
  }
}

/** The hook the channel sender awaits before each gate: it stalls the gates the fault names, logging each stall. */
export function gateDelayHook(fault: GateDelayFault, log: Logger): (claimed: number) => Promise<void> {
  let gates = 0;
  return async (claimed) => {
    gates += 1;
    const stall = gates === 1 || (fault.every > 0 && (gates - 1) % fault.every === 0);
    if (!stall) return;
    log.warn({ fault: 'gate-delay', gate: gates, claimed, delayMs: fault.delayMs }, 'fault: gate stall begins');
    await stallUntil(fault.delayMs, gates, fault.releaseFile);
    log.warn({ fault: 'gate-delay', gate: gates, claimed }, 'fault: gate stall over');
  };
}
