import { DEFAULT_HOST, DEFAULT_PORT, parsePublicUrl } from "../config.ts";
import { rememberedLinkOrigin } from "../dashboard/index.ts";
import type { Store } from "../db/client.ts";

/** The address printed links must use when one was given: --public-url or WAYBILL_PUBLIC_URL. */
export const givenLinkOrigin = (publicUrlFlag: string | undefined): string | undefined =>
  parsePublicUrl(publicUrlFlag ?? process.env.WAYBILL_PUBLIC_URL)?.origin;

/** Where printed links point: the given address, where `serve` last said it listens on this database, or the default. */
export async function linkOrigin(publicUrlFlag: string | undefined, store: Store): Promise<string> {
  return (
    givenLinkOrigin(publicUrlFlag) ??
    (await rememberedLinkOrigin(store)) ??
    `http://${process.env.WAYBILL_HOST ?? DEFAULT_HOST}:${process.env.WAYBILL_PORT ?? DEFAULT_PORT}`
  );
}
