// A printed value of about 1 MB as a contract can really print it: a list of 8,000 distinct standard
// principals, serialized by @stacks/transactions, as a contract_log alert and as the API's event text.
import { Cl, cvToString, serializeCV } from '@stacks/transactions';
import type { ContractLogAlert } from '../../lambda/core/alert-kinds/alert';
import { clarityToJson, decodeClarity } from '../../lambda/core/clarity/decode';
import { numberedAddresses } from './numbered-addresses';

export const BIG_PRINT_PRINCIPALS = 8_000;

export function bigPrintValue(count = BIG_PRINT_PRINCIPALS) {
  const value = Cl.list(numberedAddresses(count).map((p) => Cl.principal(p)));
  return { value, hex: `0x${serializeCV(value)}`, repr: cvToString(value) };
}

const TX = `0x${'5b'.repeat(32)}`;

export function bigPrintAlert(count = BIG_PRINT_PRINCIPALS): ContractLogAlert {
  const { hex, repr } = bigPrintValue(count);
  return {
    type: 'contract_log',
    key: `contract_log:${TX}:0`,
    network: 'mainnet',
    tx_id: TX,
    block_height: 182_417,
    block_hash: `0x${'9e'.repeat(32)}`,
    block_time: 1_733_312_400,
    event_index: 0,
    contract_id: 'SP2C2YFP12AJZB4MABJBAJ55XECVS7E4PMMZ89YZR.airdrop',
    topic: 'print',
    value_repr: repr,
    value_hex: hex,
    value: clarityToJson(decodeClarity(hex)),
  };
}
