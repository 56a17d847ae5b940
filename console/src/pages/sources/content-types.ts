// The content type an upload declares, from the file's extension: browsers leave `File.type` empty
// for Markdown and several other kinds, and the API takes only the types it can check.
import type { SourceContentType, TemplateUploadUrlRequest } from '@groundcheck/sdk';

const byExtension: Record<string, SourceContentType> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  csv: 'text/csv',
  json: 'application/json',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

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
  return byExtension[extensionOf(name)] ?? null;
}

export function templateContentType(name: string): TemplateContentType | null {
  const type = sourceContentType(name);
  return templateTypes.find((candidate) => candidate === type) ?? null;
}

/** For the file inputs' `accept`. */
export const sourceExtensions = Object.keys(byExtension)
  .map((extension) => `.${extension}`)
  .join(', ');
export const templateExtensions = Object.entries(byExtension)
  .filter(([, type]) => templateTypes.some((candidate) => candidate === type))
  .map(([extension]) => `.${extension}`)
  .join(', ');
