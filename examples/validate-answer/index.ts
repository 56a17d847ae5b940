// Validate a chatbot's answer against your sources and print what Groundcheck found, each finding
// with its claim highlighted in the answer.
//
//   GROUNDCHECK_URL=https://groundcheck.example.com GROUNDCHECK_TOKEN=... \
//     npx tsx examples/validate-answer/index.ts "How many days of leave?" "30 days a year." \
//       [--source-text "Employees get 25 days a year."] [--group grp_...]
//
// (or GROUNDCHECK_CUSTOMER_ID and GROUNDCHECK_API_KEY instead of GROUNDCHECK_TOKEN). With no
// arguments it checks a sample answer; GROUNDCHECK_URL defaults to the mock (`npm run mock`).
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Claim, GroundcheckClient, Validation } from '@groundcheck/sdk';
import { clientFromEnv } from '../client-from-env.js';

type Checked = Extract<Validation, { mode: 'validate' }>;

export interface AnswerToCheck {
  question: string;
  answer: string;
  /** Text to check against, as is. */
  sourceText?: string;
  /** Source groups of your tenant to check against. */
  groupIds?: string[];
}

export async function validateAnswer(
  client: GroundcheckClient,
  { question, answer, sourceText, groupIds }: AnswerToCheck,
): Promise<Checked> {
  // The contract wants at least one kind of source.
  const sources = groupIds?.length ? { source_groups: groupIds, inline_text: sourceText } : sourceText ? { inline_text: sourceText } : null;
  if (!sources) throw new TypeError('Give the source text or source groups to check the answer against.');
  const result = await client.validate({ mode: 'validate', question, chatbot_response: answer, ...sources });
  if (result.mode !== 'validate') throw new Error(`Asked to validate, got a ${result.mode} result.`);
  return result;
}

/** The answer with the claim marked: reverse video on a terminal, `[[…]]` elsewhere. */
export function highlight(answer: string, claim: Pick<Claim, 'start' | 'end'>, color: boolean): string {
  const [open, close] = color ? ['\x1b[7m', '\x1b[27m'] : ['[[', ']]'];
  return `${answer.slice(0, claim.start)}${open}${answer.slice(claim.start, claim.end)}${close}${answer.slice(claim.end)}`;
}

export function formatFindings(result: Checked, color = false): string {
  const lines = [
    `${result.validation_id}: ${result.issue_count} issue(s), severity ${result.severity}, confidence ${result.confidence_level}`,
  ];
  for (const finding of result.findings) {
    lines.push('', `${finding.status === 'passed' ? '✓' : '✗'} [${finding.severity}] ${finding.title}`, `  ${finding.description}`);
    const claim = finding.claim_index == null ? undefined : result.claims[finding.claim_index];
    if (claim) lines.push(`  ${highlight(result.chatbot_response, claim, color)}`);
  }
  if (result.findings.length === 0) lines.push('', 'No findings.');
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'source-text': { type: 'string' }, group: { type: 'string', multiple: true } },
  });
  const [
    question = 'How many days of paid leave do full-time employees get?',
    answer = 'Full-time employees get 30 days of paid leave per year.',
  ] = positionals;
  const sourceText =
    values['source-text'] ?? (values.group ? undefined : 'Full-time employees are entitled to 25 days of paid leave per calendar year.');
  const result = await validateAnswer(clientFromEnv(), { question, answer, sourceText, groupIds: values.group });
  console.log(formatFindings(result, process.stdout.isTTY));
}
