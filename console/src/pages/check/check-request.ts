// The check form's fields, and the API request they make.
import type { RequestBody } from '@groundcheck/sdk';

export interface CheckFields {
  mode: 'validate' | 'validate_and_fix' | 'generate';
  question: string;
  answer: string;
  inlineText: string;
  groups: string[];
  /** One URL per line. */
  urls: string;
}

export const emptyCheck: CheckFields = { mode: 'validate', question: '', answer: '', inlineText: '', groups: [], urls: '' };

export function urlsOf(fields: Pick<CheckFields, 'urls'>): string[] {
  return [...new Set(fields.urls.split('\n').map((line) => line.trim()))].filter((line) => line !== '');
}

export function hasSource(fields: CheckFields): boolean {
  return fields.inlineText.trim() !== '' || fields.groups.length > 0 || urlsOf(fields).length > 0;
}

/** The request body; at least one source is present (the form checks it first). */
export function checkRequest(fields: CheckFields): RequestBody<'ValidationRequest'> {
  const urls = urlsOf(fields);
  const sources = {
    ...(fields.inlineText.trim() !== '' ? { inline_text: fields.inlineText } : {}),
    ...(fields.groups.length > 0 ? { source_groups: fields.groups } : {}),
    ...(urls.length > 0 ? { urls } : {}),
  } as { inline_text: string };
  if (fields.mode === 'generate') return { mode: 'generate', question: fields.question, ...sources };
  if (fields.mode === 'validate_and_fix')
    return { mode: 'validate_and_fix', question: fields.question, chatbot_response: fields.answer, ...sources };
  return { mode: 'validate', question: fields.question, chatbot_response: fields.answer, ...sources };
}
