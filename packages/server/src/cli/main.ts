import { processInput } from './io.js';
import { run } from './run.js';

// A reader that stops early (`stockroom key list | head -1`) is not a failure of the command.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

// The exit code is set, not forced with process.exit, so stdout is flushed and `serve` keeps
// running after its command returns.
process.exitCode = await run(process.argv.slice(2), {
  stdin: processInput(),
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signals: process,
});
