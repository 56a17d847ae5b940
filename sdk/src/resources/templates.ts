import type { DeletedTemplate, Template, TemplateList, TemplateUploadUrl } from '@groundcheck/contract';
import { type RequestOptions, type Transport, unwrap } from '../request.js';
import type { WithResponse } from '../response.js';
import type { RequestBody } from '../types.js';

/** Document templates (admin; feature `document_templates`): upload, scan, save, activate, delete. */
export class Templates {
  constructor(private readonly transport: Transport) {}

  /** All templates, inactive ones included, newest first. */
  async list(options?: RequestOptions): Promise<WithResponse<TemplateList>> {
    return unwrap(await this.transport.raw.POST('/api/v1/templates', this.transport.init(options)));
  }

  async get(templateId: string, options?: RequestOptions): Promise<WithResponse<Template>> {
    return unwrap(
      await this.transport.raw.POST('/api/v1/templates/{id}', { params: { path: { id: templateId } }, ...this.transport.init(options) }),
    );
  }

  /** Creates a template awaiting its file and returns where to PUT the file. */
  async getUploadUrl(body: RequestBody<'TemplateUploadUrlRequest'>, options?: RequestOptions): Promise<WithResponse<TemplateUploadUrl>> {
    return unwrap(await this.transport.raw.POST('/api/v1/templates/upload-url', { body, ...this.transport.init(options) }));
  }

  /** Detects the uploaded file's `{{placeholders}}` and builds the initial schema. */
  async scan(templateId: string, options?: RequestOptions): Promise<WithResponse<Template>> {
    return unwrap(
      await this.transport.raw.POST('/api/v1/templates/{id}/scan', {
        params: { path: { id: templateId } },
        ...this.transport.init(options),
      }),
    );
  }

  /** Updates the fields given: name, description, schema, active. */
  async save(templateId: string, body: RequestBody<'TemplateSaveRequest'>, options?: RequestOptions): Promise<WithResponse<Template>> {
    return unwrap(
      await this.transport.raw.POST('/api/v1/templates/{id}/save', {
        params: { path: { id: templateId } },
        body,
        ...this.transport.init(options),
      }),
    );
  }

  async delete(templateId: string, options?: RequestOptions): Promise<WithResponse<DeletedTemplate>> {
    return unwrap(
      await this.transport.raw.POST('/api/v1/templates/{id}/delete', {
        params: { path: { id: templateId } },
        ...this.transport.init(options),
      }),
    );
  }
}
