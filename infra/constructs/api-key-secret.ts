// The Hiro API key, optional: an existing Secrets Manager secret, or one this stack creates for the
// operator to fill after the deploy. The key never appears in the template or the function's environment.
import { SecretValue, Validations } from 'aws-cdk-lib';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { ApiKeySource } from '../settings/deploy-settings';

/**
 * Until the operator puts the key in, the secret holds a blank value, which the function reads as "no
 * key" and runs at the keyless rate. A secret with no value at all would fail every read instead.
 */
export const BLANK_API_KEY = ' ';

export function apiKeySecret(scope: Construct, source: ApiKeySource): ISecret | undefined {
  switch (source.kind) {
    case 'none':
      return undefined;
    case 'existing':
      return Secret.fromSecretCompleteArn(scope, 'ApiKey', source.secretArn);
    case 'created': {
      const secret = new Secret(scope, 'ApiKey', {
        description: 'Hiro API key for stacks-watch, as plain text. A blank value means no key (50 requests/min).',
        secretStringValue: SecretValue.unsafePlainText(BLANK_API_KEY),
      });
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason: 'A Hiro API key is issued by Hiro and cannot be rotated by a Lambda; the operator replaces it by hand.',
      });
      return secret;
    }
  }
}
