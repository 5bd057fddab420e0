// The CDK app (cdk.json: `node --import tsx infra/app.ts`). No account, region or lookup: it synthesizes offline.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { WatchConfigError } from '../lambda/config/watch-config';
import { buildStacksWatch } from './build-stacks-watch';
import { DeploySettingsError } from './settings/deploy-settings';

const app = new App();
try {
  buildStacksWatch(app);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
} catch (error) {
  // A settings or watch config mistake is the operator's to fix: show the message, not a stack trace.
  if (!(error instanceof DeploySettingsError || error instanceof WatchConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
