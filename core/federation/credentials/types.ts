/** Temporary credentials as every output format needs them (the STS answer's Credentials). */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  /** RFC 3339, e.g. 2026-01-01T12:00:00Z */
  expiration: string;
}
