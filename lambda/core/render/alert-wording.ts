// Words shared by the subject and the SMS of every kind.
import type { Network } from '../domain';

export function brand(network: Network): string {
  return network === 'mainnet' ? 'stacks-watch' : `stacks-watch ${network}`;
}
