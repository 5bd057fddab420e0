// The watcher's state (cursor, scanned blocks, alert claims, contract statuses) in one DynamoDB table. It is
// the only record of which alerts were sent, so by default it survives the stack and cannot be deleted
// by accident.
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { STATE_TABLE } from '../../lambda/adapters/dynamodb/table';

export interface StateTableProps {
  /** false for throwaway stacks: the table is then deleted with the stack, too. */
  deletionProtection: boolean;
}

export class StateTable extends Construct {
  readonly table: TableV2;

  constructor(scope: Construct, id: string, props: StateTableProps) {
    super(scope, id);
    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: STATE_TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: STATE_TABLE.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: STATE_TABLE.ttlAttribute,
      deletionProtection: props.deletionProtection,
      removalPolicy: props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
  }
}
