/**
 * Test-only fault (TMS_FAULT_GATE_DELAY_MS): stalls a channel sender between its claim and its gate, so its
 * message lease can run out and another instance can take the claimed rows over while this one still holds
 * them in memory. Crash tests use it to prove that a stalled owner moves and sends nothing it no longer owns.
 * Never set in production.
 */
import type { Logger } from 'pino';

/** Settings of the gate-delay fault. */
export interface GateDelayFault {
  /** How long a stalled gate waits (ms). */
  delayMs: number;
  /** 0: only the process's first gate stalls; N: gates 1, 1+N, 1+2N, … stall. */
  every: number;
}

/** The hook the channel sender awaits before each gate: it stalls the gates the fault names, logging each stall. */
export function gateDelayHook(fault: GateDelayFault, log: Logger): (claimed: number) => Promise<void> {
  let gates = 0;
  return async (claimed) => {
    gates += 1;
    const stall = gates === 1 || (fault.every > 0 && (gates - 1) % fault.every === 0);
    if (!stall) return;
    log.warn({ fault: 'gate-delay', gate: gates, claimed, delayMs: fault.delayMs }, 'fault: gate stall begins');
    await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    log.warn({ fault: 'gate-delay', gate: gates, claimed }, 'fault: gate stall over');
  };
}
