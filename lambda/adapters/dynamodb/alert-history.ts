// Every alert record in a state table, for `npm start -- history --table NAME`. Alert records are one
// partition per key (keys.ts), so listing them is a Scan filtered on the ALERT sort key: it reads the whole
// table (a few thousand small items for 30 days of alerts), which suits a command a person runs now and then,
// never a cycle.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { AlertRecordState } from '../../core/stages/cooldown-mute-state';
import { alertItem, parseItem } from './items';

export interface TableAlertRecord {
  network: string;
  key: string;
  /** `held` (by a rule's cooldown) and `muted` (by a rule's mute) record a match never sent. */
  state: AlertRecordState;
  /** When it was sent (or parked, retracted, claimed, held, for a record never sent), epoch ms. */
  at: number;
  expiresAtMs: number;
  reason?: string;
  alert?: unknown;
}

const ALERT_PK = /^NET#([^#]+)#ALERT#(.+)$/;

function parseAlert(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function scanAlertRecords(client: DynamoDBClient, tableName: string): Promise<TableAlertRecord[]> {
  const doc = DynamoDBDocumentClient.from(client);
  const records: TableAlertRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'sk = :alert',
        ExpressionAttributeValues: { ':alert': 'ALERT' },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const match = ALERT_PK.exec(String(item.pk));
      if (!match) continue;
      const record = parseItem(alertItem, item, tableName);
      const claimedAt = typeof item.claimedAt === 'number' ? item.claimedAt : undefined;
      const at = recordTime(record, item) ?? claimedAt ?? 0;
      const alert = parseAlert(record.alert);
      records.push({
        network: match[1]!,
        key: match[2]!,
        state: record.state,
        at,
        expiresAtMs: record.expiresAt * 1000,
        ...(record.state === 'parked' || record.state === 'held' || record.state === 'muted' ? { reason: record.reason } : {}),
        ...(alert !== undefined ? { alert } : {}),
      });
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return records;
}

/** When the record's state began: sent, parked, retracted (its sending), claimed, or held. */
function recordTime(record: ReturnType<typeof parseItem<typeof alertItem>>, item: Record<string, unknown>): number | undefined {
  switch (record.state) {
    case 'sent':
      return record.sentAt;
    case 'parked':
      return record.parkedAt;
    case 'retracted':
      return (item.sentAt as number | undefined) ?? record.retractedAt;
    case 'pending':
      return record.claimedAt;
    default:
      return record.heldAt;
  }
}
