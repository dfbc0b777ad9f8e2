/**
 * The limits of a bulk start, declared once: the start schemas (http/schemas/bulk-send.ts, which the service checks
 * every start against), the engine's streaming reader and the console take them from here.
 */

/** Most characters (code points) in one cell of a bulk-send row. */
export const MAX_CELL_LENGTH = 2048;

/** Most rows of one bulk start. */
export const MAX_START_ROWS = 1_000_000;

/** Most bytes of one start body (JSON or uploaded file). */
export const MAX_START_BYTES = 256 * 1024 * 1024;

/** The longest `total_time` a bulk send may be spread over: 30 days, in seconds. */
export const MAX_TOTAL_TIME_SECONDS = 30 * 24 * 3600;

/** Most columns a startv2 body names in `param_headers` (the row number and the phone included). */
export const MAX_PARAM_HEADERS = 200;

/** Most characters of a column name in `param_headers`, and of the template and channel ids a start names. */
export const MAX_NAME_LENGTH = 64;
