// `npm test`: the type-check, the lint and the test run side by side rather than one after the other. tsc
// works on one core for most of a minute; run first, it left the other cores idle while the tests waited.
// The type-check's and the lint's reports are printed once the tests are done, and the command fails if any
// of the three does. Arguments go to vitest (`npm test -- test/core`); `npm run test:fast` passes `--project unit`.
import { spawn } from 'node:child_process';

const onWindows = process.platform === 'win32';

/** Runs a command to its end; its output kept for later unless `live`. */
function run(command, args, { live = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'], shell: onWindows });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ name: command, ok: false, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ name: `${command} ${args.join(' ')}`, ok: code === 0, output }));
  });
}

const checks = [run('npm', ['run', '--silent', 'typecheck', '--', '--checkers', '1']), run('npm', ['run', '--silent', 'lint'])];
// `vitest` is on the PATH npm gives its scripts.
const tests = await run('vitest', ['run', ...process.argv.slice(2)], { live: true });
let ok = tests.ok;
for (const check of await Promise.all(checks)) {
  if (check.output !== '') process.stdout.write(check.output);
  if (!check.ok) {
    process.stdout.write(`\n${check.name} failed\n`);
    ok = false;
  }
}
process.exitCode = ok ? 0 : 1;
