// SHA-256 for the core's bounded alert JSON (render/alert-json.ts): the core does no hashing itself.
import { createHash } from 'node:crypto';

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
