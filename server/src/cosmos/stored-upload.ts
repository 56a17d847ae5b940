/** What a record keeps of a file uploaded through a presigned URL (a source file, a template's file). */
export interface StoredUpload {
  name: string;
  content_type: string;
  /** What the client announced with the upload URL; null when it gave no size. */
  declared_size_bytes: number | null;
  /** From the stored bytes, once checked. */
  size_bytes: number | null;
  sha256: string | null;
  /** The checked blob version: later reads name it, so bytes written after the check are never used. */
  etag: string | null;
}
