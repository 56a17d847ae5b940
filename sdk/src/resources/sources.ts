import type {
  DeletedSourceFile,
  DeletedSourceGroup,
  SourceGroup,
  SourceGroupDeleteRequest,
  SourceGroupList,
  SourceUploadUrl,
  SourceUploadUrlRequest,
} from '@groundcheck/contract';
import { errorFromResponse } from '../errors.js';
import { type RequestOptions, send, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';
import type { RequestBody } from '../types.js';

export type SourceContentType = SourceUploadUrlRequest['content_type'];

/** File contents for `uploadFile`; a `string` is sent as UTF-8. */
export type UploadData = Blob | ArrayBuffer | Uint8Array | string;

export interface UploadFileOptions extends RequestOptions {
  /** Defaults to the Blob's type, else to what the file name's extension says. */
  contentType?: SourceContentType;
}

/**
 * The content type `uploadFile` declares for a file extension (lower case, without the dot), for
 * callers that pick files themselves: browsers leave `File.type` empty for Markdown and several other
 * kinds. A Map, so that a file named "x.constructor" finds nothing.
 */
export const sourceContentTypes: ReadonlyMap<string, SourceContentType> = new Map([
  ['pdf', 'application/pdf'],
  ['txt', 'text/plain'],
  ['md', 'text/markdown'],
  ['markdown', 'text/markdown'],
  ['html', 'text/html'],
  ['htm', 'text/html'],
  ['csv', 'text/csv'],
  ['json', 'application/json'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
]);

/** Source groups and their files, with role-based access. */
export class Sources {
  constructor(private readonly transport: Transport) {}

  /** The groups the caller may use (admins: all), each with its file inventory. */
  async list(options?: RequestOptions): Promise<WithResponse<SourceGroupList>> {
    return unwrap(await this.transport.raw.POST('/api/v1/sources', this.transport.init(options)));
  }

  /** Registers a file in a group and returns where to PUT it; `uploadFile` does both steps. */
  async getUploadUrl(body: RequestBody<'SourceUploadUrlRequest'>, options?: RequestOptions): Promise<WithResponse<SourceUploadUrl>> {
    return unwrap(await this.transport.raw.POST('/api/v1/sources/upload-url', { body, ...this.transport.init(options) }));
  }

  /** Creates a group (no `group_id`) or updates the fields given. */
  async saveGroup(body: RequestBody<'SourceGroupSaveRequest'>, options?: RequestOptions): Promise<WithResponse<SourceGroup>> {
    return unwrap(await this.transport.raw.POST('/api/v1/sources/group/save', { body, ...this.transport.init(options) }));
  }

  /** Deletes a group; its files stay in storage unless `purge_files` is true. */
  async deleteGroup(body: RequestBody<'SourceGroupDeleteRequest'>, options?: RequestOptions): Promise<WithResponse<DeletedSourceGroup>> {
    return unwrap(
      await this.transport.raw.POST('/api/v1/sources/group/delete', {
        body: body as SourceGroupDeleteRequest,
        ...this.transport.init(options),
      }),
    );
  }

  async deleteFile(body: RequestBody<'SourceFileDeleteRequest'>, options?: RequestOptions): Promise<WithResponse<DeletedSourceFile>> {
    return unwrap(await this.transport.raw.POST('/api/v1/sources/file/delete', { body, ...this.transport.init(options) }));
  }

  /**
   * Uploads a file into a group: gets a presigned URL, then PUTs the bytes to object storage (with
   * the headers the URL requires and no Groundcheck credentials). Resolves with the new file's ids.
   */
  async uploadFile(
    groupId: string,
    name: string,
    data: UploadData,
    options: UploadFileOptions = {},
  ): Promise<WithResponse<SourceUploadUrl>> {
    const { contentType = contentTypeOf(name, data), ...requestOptions } = options;
    const upload = await this.getUploadUrl(
      { group_id: groupId, file_name: name, content_type: contentType, size_bytes: sizeOf(data) },
      requestOptions,
    );
    const headers = new Headers(upload.headers);
    if (!headers.has('Content-Type')) headers.set('Content-Type', contentType);
    const request = new Request(upload.upload_url, {
      method: upload.method,
      headers,
      body: data as BodyInit,
      signal: requestOptions.abortSignal,
    });
    const response = await send(request, this.transport.policy(requestOptions));
    if (!response.ok) throw errorFromResponse(response, await response.text());
    return upload;
  }
}

function contentTypeOf(name: string, data: UploadData): SourceContentType {
  if (typeof Blob !== 'undefined' && data instanceof Blob && [...sourceContentTypes.values()].includes(data.type as SourceContentType)) {
    return data.type as SourceContentType;
  }
  const type = sourceContentTypes.get(name.slice(name.lastIndexOf('.') + 1).toLowerCase());
  if (!type) throw new TypeError(`Cannot tell the content type of "${name}"; pass options.contentType.`);
  return type;
}

function sizeOf(data: UploadData): number {
  if (typeof data === 'string') return new TextEncoder().encode(data).byteLength;
  return data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? data.byteLength : data.size;
}
