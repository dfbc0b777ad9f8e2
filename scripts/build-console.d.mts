/** Types of scripts/build-console.mjs (imported by the test support). */
export function consoleIsStale(): boolean;
export function buildConsole(options?: { force?: boolean; quiet?: boolean }): Promise<'built' | 'fresh' | 'no-vite'>;
