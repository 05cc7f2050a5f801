import { CsrfTokens } from "./csrf.ts";
import type { DashboardDeps, DashboardOptions } from "./deps.ts";
import { SignInThrottle } from "./throttle.ts";

/** What every dashboard route module shares: the instance's services plus the dashboard's own state. */
export interface DashboardContext extends DashboardDeps {
  options: DashboardOptions;
  csrf: CsrfTokens;
  throttle: SignInThrottle;
}

export function createDashboardContext(deps: DashboardDeps, options: DashboardOptions): DashboardContext {
  return {
    ...deps,
    options,
    csrf: new CsrfTokens(deps.db),
    throttle: new SignInThrottle(),
  };
}
