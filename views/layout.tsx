import type { Children } from "@kitajs/html";
import { assetUrl } from "../src/dashboard/static.ts";

export type Section = "overview" | "lane" | "sheets" | "keys" | "usage" | "alerts" | "events" | "webhooks" | "admin";

/** The signed-in viewer, as every page shows them. */
export interface Viewer {
  email: string;
  isAdmin: boolean;
  /** Sent by htmx on every request (hx-headers on <body>) and posted by plain forms. */
  csrfToken: string;
}

const HTMX_CONFIG = JSON.stringify({ defaultSwap: "outerHTML" });

function Head({ title }: { title: string }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="htmx-config" content={HTMX_CONFIG} />
      <title safe>{`${title} · Waybill`}</title>
      <link rel="icon" href={assetUrl("favicon.svg")} type="image/svg+xml" />
      <link rel="stylesheet" href={assetUrl("app.css")} />
      <script src={assetUrl("htmx.min.js")} defer></script>
      <script src={assetUrl("app.js")} defer></script>
    </head>
  );
}

function Brand() {
  return (
    <a class="brand" href="/dashboard">
      <img src={assetUrl("favicon.svg")} alt="" width="24" height="24" />
      <span>Waybill</span>
    </a>
  );
}

/** Pages for a signed-in viewer: top bar with navigation, the sign-out form, and the CSRF header for htmx. */
export function AppLayout(props: { title: string; viewer: Viewer; section?: Section; children: Children }) {
  const links: { section: Section; href: string; label: string }[] = [
    { section: "overview", href: "/dashboard", label: "Overview" },
    { section: "lane", href: "/dashboard/lane", label: "Price a lane" },
    { section: "sheets", href: "/dashboard/sheets", label: "Bid sheets" },
    { section: "keys", href: "/dashboard/keys", label: "API key" },
    { section: "usage", href: "/dashboard/usage", label: "Usage" },
    { section: "alerts", href: "/dashboard/alerts", label: "Alerts" },
    { section: "events", href: "/dashboard/events", label: "Events" },
    { section: "webhooks", href: "/dashboard/webhooks", label: "Webhooks" },
  ];
  if (props.viewer.isAdmin) links.push({ section: "admin", href: "/dashboard/admin", label: "Admin" });
  return (
    <html lang="en">
      <Head title={props.title} />
      <body hx-headers:inherited={JSON.stringify({ "X-CSRF-Token": props.viewer.csrfToken })}>
        <header class="topbar">
          <Brand />
          <nav aria-label="Dashboard">
            {links.map((link) => (
              <a href={link.href} aria-current={link.section === props.section ? "page" : undefined} safe>
                {link.label}
              </a>
            ))}
          </nav>
          <div class="who">
            <span class="email" title={props.viewer.email} safe>
              {props.viewer.email}
            </span>
            <a href="/dashboard/password" class="small">
              Password
            </a>
            <form method="post" action="/signout">
              <input type="hidden" name="_csrf" value={props.viewer.csrfToken} />
              <button type="submit" class="link">
                Sign out
              </button>
            </form>
          </div>
        </header>
        <main>{props.children}</main>
      </body>
    </html>
  );
}

/** Pages before sign-in (sign-in, setup, not found): a centred card without navigation. */
export function PlainLayout(props: { title: string; children: Children }) {
  return (
    <html lang="en">
      <Head title={props.title} />
      <body class="plain">
        <main class="narrow">
          <Brand />
          {props.children}
        </main>
      </body>
    </html>
  );
}
