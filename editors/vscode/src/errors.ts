/** The text of a thrown value: an Error's message, else the value as a string. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
