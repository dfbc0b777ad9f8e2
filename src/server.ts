/** Process entry for `npm start`: load the configuration and run the service. */
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError } from './store/db.js';
import { runService } from './runtime.js';

try {
  await runService(loadConfig());
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(`tms: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
}
