import { Elysia } from "elysia";
import type { AnySkill } from "../../../skills/types.ts";
import { etagOf, PUBLIC_DOCUMENT_CACHE_CONTROL } from "../../responses/cache.ts";
import { IDEMPOTENCY_KEY_EXAMPLE } from "../openapi/document.ts";
import { agentGuide } from "./agent-guide.ts";
import { errorGuidePage } from "./error-guide.ts";
import { llmsTxt } from "./llms-txt.ts";
// Embedded in the compiled binary (Bun `type: "file"`): the docs page never loads anything from another origin.
import scalarBundlePath from "../../../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with {
  type: "file",
};
import initScriptPath from "./scalar-init.js" with { type: "file" };

/**
 * Scalar renders with inline styles (its components are styled at run time) and reaches nothing but
 * this origin: fonts are the system's (withDefaultFonts off), "try it" requests go to this API.
 */
const DOCS_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; " +
  "connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The error guide is plain HTML with one inline style block: nothing else may load or run. */
const ERROR_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Asset {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

let assets: { scalar: Asset; init: Asset } | undefined;
async function loadAssets() {
  if (assets) return assets;
  const read = async (path: string): Promise<Asset> => {
    const bytes = new Uint8Array(await Bun.file(path).arrayBuffer());
    return { bytes, etag: etagOf(bytes) };
  };
  assets = { scalar: await read(scalarBundlePath), init: await read(initScriptPath) };
  return assets;
}

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function docsPage(title: string): string {
  const configuration = {
    url: "/openapi.json",
    withDefaultFonts: false,
    hideClientButton: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    documentDownloadType: "json",
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttribute(title)}</title>
<link rel="icon" href="/public/favicon.svg" type="image/svg+xml">
</head>
<body>
<div id="api-reference" data-configuration="${escapeAttribute(JSON.stringify(configuration))}"
  data-idempotency-key-example="${escapeAttribute(IDEMPOTENCY_KEY_EXAMPLE)}"></div>
<script src="/docs/assets/scalar.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;
}

function javascript(asset: Asset): Response {
  return new Response(asset.bytes, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      etag: asset.etag,
      "cache-control": "public, max-age=3600",
      "x-content-type-options": "nosniff",
    },
  });
}

const markdown = (text: string) =>
  new Response(text, {
    headers: { "content-type": "text/markdown; charset=utf-8", "cache-control": PUBLIC_DOCUMENT_CACHE_CONTROL },
  });

/**
 * The documentation a person or an agent starts from, all derived from the skill registry:
 * /docs (interactive reference over /openapi.json), /docs/errors (what each error code means, the
 * target of every error's `doc_url`), /llms.txt, /docs/agents.md (the agent guide).
 */
export function docsRoutes(skills: readonly AnySkill[], options: { publicUrl?: string } = {}) {
  const originOf = (request: Request) => options.publicUrl ?? new URL(request.url).origin;
  return new Elysia({ name: "docs" })
    .get(
      "/docs",
      () =>
        new Response(docsPage("Waybill API reference"), {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": DOCS_PAGE_CSP,
            "x-content-type-options": "nosniff",
            "referrer-policy": "same-origin",
            "cache-control": PUBLIC_DOCUMENT_CACHE_CONTROL,
          },
        }),
    )
    .get(
      "/docs/errors",
      () =>
        new Response(errorGuidePage(), {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "content-security-policy": ERROR_PAGE_CSP,
            "x-content-type-options": "nosniff",
            "cache-control": PUBLIC_DOCUMENT_CACHE_CONTROL,
          },
        }),
    )
    .get("/docs/assets/scalar.js", async () => javascript((await loadAssets()).scalar))
    .get("/docs/assets/init.js", async () => javascript((await loadAssets()).init))
    .get("/llms.txt", ({ request }) => markdown(llmsTxt(skills, originOf(request))))
    .get("/docs/agents.md", ({ request }) => markdown(agentGuide(skills, originOf(request))));
}
