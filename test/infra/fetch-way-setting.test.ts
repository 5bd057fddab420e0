// deploy.json's `fetchWay` chooses how each run of the deployed function reads the chain: it reaches the
// function as FETCH_WAY (unset, the function follows the fetch plan: auto), and anything but the three ways is refused by name.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeploySettingsError, readDeploySettings } from '../../infra/settings/deploy-settings';
import { onlyResource, synthStack, type Synthesized } from './support/synth';

const environment = (s: Synthesized) => onlyResource(s.template, 'AWS::Lambda::Function').resource.Properties.Environment.Variables;

function settingsFile(settings: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'stacks-watch-fetch-way-')), 'deploy.json');
  writeFileSync(path, JSON.stringify(settings));
  return path;
}

describe("deploy.json's fetchWay", () => {
  it('leaves FETCH_WAY unset (the function then follows the plan) when the settings leave it out, and passes block-scan when written', () => {
    expect(environment(synthStack())).not.toHaveProperty('FETCH_WAY');
    expect(environment(synthStack({ settingsFile: settingsFile({ fetchWay: 'block-scan' }) }))).toMatchObject({ FETCH_WAY: 'block-scan' });
  });

  it("puts the settings file's fetchWay in the function's environment as FETCH_WAY", () => {
    const synth = synthStack({ settingsFile: settingsFile({ fetchWay: 'auto' }) });
    expect(environment(synth)).toMatchObject({ FETCH_WAY: 'auto' });
  });

  it('takes per-subject from -c as well, over the file', () => {
    const synth = synthStack({ settingsFile: settingsFile({ fetchWay: 'auto' }), fetchWay: 'per-subject' });
    expect(environment(synth)).toMatchObject({ FETCH_WAY: 'per-subject' });
  });

  it('refuses any other way, naming the field and the ways it takes', () => {
    for (const bad of ['blockscan', 'Auto', 'subjects', 3]) {
      let problems: string[] = [];
      try {
        readDeploySettings((key) => (key === 'fetchWay' ? bad : undefined), '/repo', ['fetchWay']);
      } catch (error) {
        if (!(error instanceof DeploySettingsError)) throw error;
        problems = error.problems;
      }
      expect(problems).toEqual([expect.stringMatching(/^fetchWay.*must be block-scan, auto or per-subject/)]);
    }
  });
});
