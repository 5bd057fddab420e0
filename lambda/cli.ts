// The local composition root: `npm start`. The run itself is lambda/local/cli-main.ts (the command line and
// environment read, the adapters built, watch cycles run or --check, --status, --replay answered); this file
// only starts it and hands its code to the process.
import { cliMain } from './local/cli-main';

export { EXIT } from './local/terminal';

cliMain().then((code) => {
  process.exitCode = code;
});
