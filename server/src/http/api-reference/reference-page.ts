// The /docs page: the pre-rendered reference, which any browser or tool reads as it arrives, and
// the interactive reference (Scalar) on top of it when JavaScript runs. Scalar mounts beside the
// pre-rendered reference, and a style rule hides that one once Scalar's app is in the page.
import { escapeHtml } from './markdown.js';
import type { OpenApiDocument } from './openapi-objects.js';
import { referenceHtml } from './reference-html.js';

// Scalar reads its settings from data attributes, so the page needs no inline script. Its hosted
// fonts, request client, telemetry, AI agent (which searches Scalar's registry) and developer tools
// (which share and deploy the document through Scalar's service) would reach other hosts: all off.
const scalarSettings = {
  withDefaultFonts: false,
  hideClientButton: true,
  hideTestRequestButton: true,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  // Each operation's sample is the SDK's (`x-codeSamples`), not a generic HTTP client's.
  hiddenClients: true,
  metaData: { title: 'Groundcheck API reference' },
};

const style = `
body:has(.scalar-app) > .reference { display: none; }
.reference { font: 16px/1.5 system-ui, sans-serif; color: #1b1b1b; max-width: 70rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
.reference code, .reference pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.875em; }
.reference pre { background: #f6f6f6; padding: 0.75rem; overflow-x: auto; border-radius: 4px; }
.reference table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; }
.reference th, .reference td { border: 1px solid #dfdfdf; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
.reference section.operation, .reference section.schema { border-top: 1px solid #dfdfdf; margin-top: 2rem; }
.reference .method { font-weight: 700; color: #0082d0; }
.reference .required { color: #b3261e; font-size: 0.8em; }
.reference .rules, .reference .facts { color: #555; font-size: 0.9em; }
.reference figure { margin: 0.5rem 0; }
`;

export function referencePage(document: OpenApiDocument, samples: Readonly<Record<string, string>>, scalarDocumentUrl: string): string {
  const title = `${document.info.title} reference`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)}</title>
    <meta name="description" content="${escapeHtml(document.info.summary ?? title)}">
    <link rel="icon" href="data:,">
    <link rel="alternate" type="application/yaml" href="/openapi.yaml" title="OpenAPI contract">
    <style>${style}</style>
  </head>
  <body>
    <main class="reference">
${referenceHtml(document, samples)}
    </main>
    <script id="api-reference" data-url="${escapeHtml(scalarDocumentUrl)}" data-configuration="${escapeHtml(JSON.stringify(scalarSettings))}"></script>
    <script src="/docs/scalar.js"></script>
  </body>
</html>
`;
}
