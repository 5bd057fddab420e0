// How every function of the stack is bundled by esbuild: ESM for Node 24, minified, with source maps (without
// the source text, which stack traces do not need and would double the asset) and the AWS SDK inside.
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

// Some bundled CommonJS packages call require() for Node built-ins, which an ES module lacks.
const CREATE_REQUIRE_BANNER = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

export const ESM_BUNDLING = {
  format: OutputFormat.ESM,
  target: 'node24',
  mainFields: ['module', 'main'],
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  bundleAwsSDK: true,
  externalModules: [],
  banner: CREATE_REQUIRE_BANNER,
} satisfies BundlingOptions;
