import { errors } from "../errors.ts";
import { digestApiKey, isWellFormedApiKey } from "./api-key.ts";
import type { KeyIndex } from "./key-index.ts";
import type { Principal } from "./principal.ts";

const BEARER = /^Bearer[ ]+(\S*)[ ]*$/i;

/** Authorization header → the key grant it presents, or a 401 of the error table. */
export function authenticate(index: KeyIndex, authorization: string | null | undefined): Principal {
  if (!authorization || authorization.trim() === "") throw errors.missingKey();
  const match = BEARER.exec(authorization);
  if (!match) throw errors.malformedKey();
  const key = match[1] ?? "";
  if (key === "") throw errors.missingKey();
  if (!isWellFormedApiKey(key)) throw errors.malformedKey();
  const grant = index.lookup(digestApiKey(key));
  if (!grant) throw errors.invalidKey();
  // A revoked key may say so: its holder already had it.
  if (grant.revoked) throw errors.revokedKey();
  return grant.principal;
}
