import { errors } from "../errors.ts";
import { digestApiKey, isWellFormedApiKey, KEY_PREFIX, keyFormatProblem } from "./api-key.ts";
import type { KeyIndex } from "./key-index.ts";
import type { Principal } from "./principal.ts";

const BEARER = /^Bearer[ ]+(\S*)[ ]*$/i;

/** An Authorization header that is not `Bearer <key>`: which part is wrong. */
function headerProblem(authorization: string): string {
  const [first = "", ...rest] = authorization.trim().split(/\s+/);
  if (first.startsWith(KEY_PREFIX) && rest.length === 0)
    return "The Authorization header has the key without the 'Bearer ' prefix: send 'Authorization: Bearer wbk_…'.";
  if (rest.length > 0 && !/^bearer$/i.test(first))
    return `The Authorization header uses the '${first.slice(0, 20)}' scheme; send 'Authorization: Bearer wbk_…'.`;
  return "The Authorization header is not 'Bearer' followed by one key: send 'Authorization: Bearer wbk_…'.";
}

/** Authorization header → the key grant it presents, or a 401 of the error table. */
export function authenticate(index: KeyIndex, authorization: string | null | undefined): Principal {
  if (!authorization || authorization.trim() === "") throw errors.missingKey();
  const match = BEARER.exec(authorization);
  if (!match) throw errors.malformedKey(headerProblem(authorization));
  const key = match[1] ?? "";
  if (key === "") throw errors.missingKey();
  if (!isWellFormedApiKey(key)) throw errors.malformedKey(keyFormatProblem(key));
  const grant = index.lookup(digestApiKey(key));
  if (!grant) throw errors.invalidKey();
  // A revoked key may say so: its holder already had it.
  if (grant.revoked) throw errors.revokedKey();
  return grant.principal;
}

/** The grant of a valid, unrevoked key, or undefined: to name the caller on answers that are not skill calls. */
export function recognise(index: KeyIndex, authorization: string | null | undefined): Principal | undefined {
  try {
    return authenticate(index, authorization);
  } catch {
    return undefined;
  }
}

/** What the authentication step reads: the key index, and the hook that notices another process's key changes. */
export interface KeyAuthority {
  keys: KeyIndex;
  refreshCaches(): void;
}

/**
 * The one authentication step of every keyed route: notice key changes another process made
 * (refreshCaches), wait for a reload in flight (PostgreSQL, so a revoke announced by another replica
 * is in force before we look), then check the Authorization header. Nothing is pending on a SQLite
 * file, so there it waits for nothing. Rejects with the error table's 401.
 */
export async function authenticateCaller(
  authority: KeyAuthority,
  authorization: string | null | undefined,
): Promise<Principal> {
  authority.refreshCaches();
  const reloading = authority.keys.pending();
  if (reloading) await reloading;
  return authenticate(authority.keys, authorization);
}

/** Like authenticateCaller, but without waiting or refusing: the caller's grant when its key is valid now. */
export function recogniseCaller(
  authority: KeyAuthority,
  authorization: string | null | undefined,
): Principal | undefined {
  authority.refreshCaches();
  return recognise(authority.keys, authorization);
}
