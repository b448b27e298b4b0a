/** @exchange-api/mock: a mock server of any AsyncAPI WebSocket API that speaks its own messages (docs/mock.md). */
export { startMock, MockError, type Mock, type MockOptions } from './mock-server';
export type { MockMessage, MockModel, MockOperation, Schema } from './mock-model';
