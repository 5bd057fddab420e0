// Token amounts, exactly: base units divided by 10^decimals as bigints (amounts can exceed 2^53), with the
// token's symbol when a rule gives it, else the base units and the asset's name.
import { formatCount } from './stx-amount';
import { sanitizeUntrusted } from './untrusted-text';

/** The token name of an asset id `ADDRESS.contract::token`, or the id itself when it has no `::`. */
export function assetName(assetId: string): string {
  const at = assetId.lastIndexOf('::');
  return sanitizeUntrusted(at < 0 ? assetId : assetId.slice(at + 2), 40);
}

/** `0.5 sBTC` with decimals and a symbol; `50000000 sbtc-token` (base units) without. Trailing zeros dropped. */
export function formatTokenAmount(amount: string, decimals: number | null, symbol: string | null, assetId: string): string {
  const unit = symbol === null ? assetName(assetId) : sanitizeUntrusted(symbol, 20);
  if (!/^\d+$/.test(amount)) return `${sanitizeUntrusted(amount, 40)} ${unit}`;
  if (decimals === null) return `${amount} ${symbol === null ? `${unit} (base units)` : `${unit} base units`}`;
  const base = BigInt(amount);
  const scale = 10n ** BigInt(decimals);
  const fraction = decimals === 0 ? '' : (base % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  const whole = base / scale;
  const wholeText = whole <= BigInt(Number.MAX_SAFE_INTEGER) ? formatCount(Number(whole)) : whole.toString();
  return `${wholeText}${fraction ? `.${fraction}` : ''} ${unit}`;
}
