// zod's tree-shakable API, with zod's English messages. In the Lambda bundle the classic API (`zod`) costs
// about 97 KiB and `zod/mini` about 32 KiB, since it brings only the schemas and checks the code names.
// It loads no locale by itself, and without one every issue zod words itself reads "Invalid input"; the
// English one (3 KiB) is the wording the Hiro client's drift messages and the DynamoDB item errors quote.
// The Lambda's schema modules import zod through this module only, so none can miss the locale.
import { en } from 'zod/locales';
import { config } from 'zod/mini';

config(en());

export * from 'zod/mini';
