/**
 * Which methods a path answers to, from the app's own route table: a path that exists under another
 * method is a 405 with `Allow`, not a 404. Elysia routes name parameters `:name` and wildcards `*`.
 */
export interface RouteEntry {
  method: string;
  path: string;
}

function patternOf(path: string): RegExp {
  const escaped = path
    .split("/")
    .map((segment) =>
      segment.startsWith(":") ? "[^/]+" : segment === "*" ? ".*" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  return new RegExp(`^${escaped}$`);
}

export function allowedMethodsFor(routes: () => readonly RouteEntry[]): (pathname: string) => string[] {
  let compiled: { method: string; pattern: RegExp }[] | undefined;
  return (pathname) => {
    compiled ??= routes().map((route) => ({ method: route.method.toUpperCase(), pattern: patternOf(route.path) }));
    const methods = new Set<string>();
    for (const route of compiled) {
      if (!route.pattern.test(pathname)) continue;
      if (route.method === "ALL") for (const method of ["GET", "POST", "DELETE"]) methods.add(method);
      else methods.add(route.method);
    }
    if (methods.has("GET")) methods.add("HEAD");
    if (methods.size > 0) methods.add("OPTIONS");
    return [...methods].sort();
  };
}
