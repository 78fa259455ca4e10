/**
 * Kafka Connect's REST errors as values: the HTTP layer writes
 * `{"error_code": <status>, "message": "…"}` with the same status.
 */
export class ConnectError extends Error {
  constructor(
    readonly errorCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectError';
  }
  toJSON(): { error_code: number; message: string } {
    return { error_code: this.errorCode, message: this.message };
  }
}

export const connectErrors = {
  notFound: (name: string) => new ConnectError(404, `Connector ${name} not found`),
  alreadyExists: (name: string) => new ConnectError(409, `Connector ${name} already exists`),
  badRequest: (message: string) => new ConnectError(400, message),
  internal: (message: string) => new ConnectError(500, message),
};
