/**
 * The client closed the connection before the request was answered (an aborted upload, a timeout
 * on its side). Not a server error: logged and counted as 499 (nginx's "client closed request"),
 * with no usage row and no stack trace.
 */
export class ClientGoneError extends Error {
  constructor() {
    super("The client closed the connection.");
    this.name = "ClientGoneError";
  }
}

export const CLIENT_GONE_STATUS = 499;

export function isClientGone(error: unknown, signal?: AbortSignal | null): boolean {
  return error instanceof ClientGoneError || (error as Error)?.name === "AbortError" || signal?.aborted === true;
}
