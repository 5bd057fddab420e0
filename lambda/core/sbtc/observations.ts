// What the lifecycle tracker is fed: Emily's records (sBTC's public API) and the sbtc-registry's prints, each
// print with the Stacks block it landed in (so a reorg can take it back) and that block's Bitcoin height.
import type { SbtcDeposit, SbtcLimits, SbtcWithdrawal } from './records';

/** The registry's prints the tracker reads, as sbtc-registry.clar prints them (amounts in satoshis). */
export type RegistryPrint =
  | { topic: 'completed-deposit'; bitcoinTxid: string; outputIndex: number; amountSats: bigint; sweepTxid: string; burnHeight: number }
  | {
      topic: 'withdrawal-create';
      requestId: number;
      amountSats: bigint;
      sender: string;
      /** The Bitcoin recipient as the print gives it: address version byte and hash bytes, in hex. */
      recipient: string;
      /** The Bitcoin height when the request was made: the deadlines count from it. */
      blockHeight: number;
      maxFeeSats: bigint;
    }
  | { topic: 'withdrawal-accept'; requestId: number; bitcoinTxid: string; outputIndex: number; feeSats: bigint; burnHeight: number; sweepTxid: string }
  | { topic: 'withdrawal-reject'; requestId: number }
  | {
      topic: 'key-rotation';
      /** The signers' new multi-sig principal. */
      newAddress: string;
      /** The new aggregate key, compressed (33 bytes, hex). Deposits are locked to its x-only form. */
      newAggregatePubkey: string;
    };

export type SbtcObservation =
  | { source: 'emily'; deposit: SbtcDeposit }
  | { source: 'emily'; withdrawal: SbtcWithdrawal }
  | { source: 'emily'; limits: SbtcLimits }
  | {
      source: 'chain';
      print: RegistryPrint;
      stacksHeight: number;
      stacksTxid: string;
      /** For a `completed-deposit`: the recipient of the sBTC minted beside it in the same transaction, when read. */
      mintedTo?: string;
    };
