/**
 * The package's programmatic entry (`import { startServer } from 'stockroom'`): what the
 * `stockroom` command runs, for embedding a server in a script or a test of another project.
 * The command itself (`npx stockroom`) is bin/stockroom.js.
 */
export { type Config, ConfigError, loadConfig } from './config.js';
export {
  createLogger,
  type RunningServer,
  type StartOptions,
  serve,
  startServer,
} from './server.js';
export { VERSION } from './version.js';
