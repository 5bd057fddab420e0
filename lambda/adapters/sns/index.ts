export { createSnsPublisher, type SnsPublisherOptions } from './sns-publisher';
export { buildSnsMessage, SNS_MAX_PAYLOAD_BYTES, type SnsMessage } from './sns-message';
