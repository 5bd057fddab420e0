// A webhook URL often is the credential (a path token, a query token, a basic-auth password): it may reach SNS,
// which needs it, but never a logical id, a construct path, a template's metadata, nor the synth's words,
// which `cdk diff`, the deploy output and the stack events print.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeploySettingsError, readDeploySettings } from '../../infra/settings/deploy-settings';
import { synthStack } from './support/synth';

const SECRETS = ['T0PATHSECRET', 'BASICPASSWORD', 'QUERYTOKEN', 'CHATHOOKSECRET'];
const WEBHOOKS = ['https://hooks.example.com/services/T0PATHSECRET', 'https://relay:BASICPASSWORD@relay.example.com/in'];
const FILTERED = 'https://alerts.example.net/hook?token=QUERYTOKEN';

const leaked = (text: string) => SECRETS.filter((secret) => text.includes(secret));

/** The problems of settings the synth refuses, as the synth prints them. */
function refusal(context: Record<string, unknown>, file?: Record<string, unknown>): string {
  try {
    readDeploySettings((key) => context[key], '/repo', Object.keys(context), file ? { source: 'deploy.json', values: file } : undefined);
  } catch (error) {
    if (error instanceof DeploySettingsError) return error.message;
    throw error;
  }
  throw new Error('expected the settings to be refused');
}

describe('webhook secrets in the synthesized stack', () => {
  const { app, stack, template } = synthStack({
    alertWebhooks: WEBHOOKS,
    alertSubscriptions: [{ https: FILTERED, types: ['token_transfer'] }],
  });

  it('are in no logical id and no construct path', () => {
    const ids = Object.keys(template.toJSON().Resources as object);
    const paths = stack.node.findAll().map((construct) => construct.node.path);
    expect(leaked(ids.join('\n'))).toEqual([]);
    expect(leaked(paths.join('\n'))).toEqual([]);
  });

  it('are nowhere in the template, the tree or the manifest but as a subscription’s whole Endpoint', () => {
    const json = template.toJSON() as { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };
    const endpoints = Object.values(json.Resources)
      .filter((resource) => resource.Type === 'AWS::SNS::Subscription' && resource.Properties?.Protocol === 'https')
      .map((resource) => resource.Properties!.Endpoint as string);
    expect(endpoints.sort()).toEqual([...WEBHOOKS, FILTERED].sort());
    // Each endpoint as a whole JSON string is where SNS needs it; no other text may carry a part of it.
    const withoutEndpoints = (text: string) => endpoints.reduce((rest, url) => rest.replaceAll(JSON.stringify(url), '""'), text);
    expect(leaked(withoutEndpoints(JSON.stringify(json)))).toEqual([]);
    const { directory } = app.synth();
    for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
      expect(leaked(withoutEndpoints(readFileSync(join(directory, file), 'utf8').replace(/\s+/g, ''))), file).toEqual([]);
    }
  });

  it('keeps each webhook subscription’s logical id across synths, whatever the order of the list', () => {
    const ids = (webhooks: string[]) =>
      Object.entries(synthStack({ alertWebhooks: webhooks }).template.findResources('AWS::SNS::Subscription'))
        .filter(([, r]) => (r as { Properties: { Protocol: string } }).Properties.Protocol === 'https')
        .map(([id]) => id)
        .sort();
    expect(ids([...WEBHOOKS].reverse())).toEqual(ids(WEBHOOKS));
  });
});

describe('webhook and chat secrets in the synth’s refusals', () => {
  it('a webhook listed twice is named without its secret', () => {
    const message = refusal({ alertWebhooks: WEBHOOKS, alertSubscriptions: [{ https: WEBHOOKS[1] }] });
    expect(message).toContain('relay.example.com');
    expect(leaked(message)).toEqual([]);
  });

  it('a webhook that is not https:// is named without its secret', () => {
    const message = refusal({ alertWebhooks: ['http://relay:BASICPASSWORD@relay.example.com/T0PATHSECRET?q=QUERYTOKEN'] });
    expect(message).toMatch(/alertWebhooks.*not an https:\/\/ URL/);
    expect(leaked(message)).toEqual([]);
  });

  it('a literal chat URL in deploy.json is refused without echoing it', () => {
    const message = refusal({}, { chat: [{ slack: 'https://hooks.slack.com/services/T1/B2/CHATHOOKSECRET' }] });
    expect(message).toMatch(/deploy\.json at \$\.chat\[0\]\.slack: must name an SSM parameter/);
    expect(leaked(message)).toEqual([]);
  });

  it('a whole chat entry refused is shown without the URL in it', () => {
    const message = refusal({}, { chat: ['https://hooks.slack.com/services/T1/B2/CHATHOOKSECRET'] });
    expect(leaked(message)).toEqual([]);
  });

  it('a deploy that would drop a webhook names it without its secret', () => {
    const message = refusal({ alertWebhooks: [WEBHOOKS[0]] }, { alertWebhooks: WEBHOOKS });
    expect(message).toContain('would unsubscribe');
    expect(leaked(message)).toEqual([]);
  });
});
