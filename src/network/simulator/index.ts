/** The simulator's public face: create one in-process, or run it standalone. */
export { createSimulator, type Simulator } from './server.js';
export { runSimulatorStandalone, type StandaloneSimulator } from './standalone.js';
export * from './constants.js';
export type { FaultKnobs, SimLimits, SimLogger, SimReceived, SimStats, SimTimings, SimulatorOptions, SimWorld } from './world.js';
