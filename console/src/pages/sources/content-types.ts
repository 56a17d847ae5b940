// The content type an upload declares, from the file's extension (the SDK's table: browsers leave
// `File.type` empty for Markdown and several other kinds, and the API takes only the types it can check).
import { type SourceContentType, sourceContentTypes, type TemplateUploadUrlRequest } from '@groundcheck/sdk';

type TemplateContentType = TemplateUploadUrlRequest['content_type'];
const templateTypes: TemplateContentType[] = [
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/markdown',
  'text/plain',
  'text/html',
];

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function sourceContentType(name: string): SourceContentType | null {
  return sourceContentTypes.get(extensionOf(name)) ?? null;
}

export function templateContentType(name: string): TemplateContentType | null {
  const type = sourceContentType(name);
  return templateTypes.find((candidate) => candidate === type) ?? null;
}

/** For the file inputs' `accept`. */
export const sourceExtensions = [...sourceContentTypes.keys()].map((extension) => `.${extension}`).join(', ');
export const templateExtensions = [...sourceContentTypes]
  .filter(([, type]) => templateTypes.some((candidate) => candidate === type))
  .map(([extension]) => `.${extension}`)
  .join(', ');
