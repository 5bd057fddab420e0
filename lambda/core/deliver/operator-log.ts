// The operator channel where no ops topic exists: the notice becomes an error log line, which the local runner
// prints on stderr and Lambda sends to CloudWatch Logs.
import type { OperatorChannel, Telemetry } from '../ports';

export function operatorChannelOverLog(telemetry: Telemetry): OperatorChannel {
  return {
    async notify(notice) {
      telemetry.log('error', notice.subject, { operatorNotice: notice.kind, detail: notice.message });
    },
  };
}
