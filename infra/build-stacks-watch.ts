// Builds the stack from the settings file and the app's context: the one path shared by `cdk synth` and the tests.
import type { App } from 'aws-cdk-lib';
import { loadBundledWatchConfig } from './bundled-watch-config';
import { readDeploySettings } from './settings/deploy-settings';
import { settingsFileFor } from './settings/settings-file';
import { StacksWatchStack } from './stacks-watch-stack';

export function buildStacksWatch(app: App, cwd = process.cwd()): StacksWatchStack {
  const context = (key: string) => app.node.tryGetContext(key) as unknown;
  const settings = readDeploySettings(context, cwd, Object.keys(app.node.getAllContext()), settingsFileFor(context, cwd));
  const watchConfig = loadBundledWatchConfig(settings.watchConfigPath, settings.memorySize);
  return new StacksWatchStack(app, settings.stackName, {
    settings,
    watchConfig,
    description: `stacks-watch: alerts on Stacks ${watchConfig.config.network} contract logs, transfers and deployments`,
  });
}
