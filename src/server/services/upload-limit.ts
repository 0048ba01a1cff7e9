/** The most any upload may carry, whatever the parameters say; larger is a 413 before it is read. */
export const UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;
