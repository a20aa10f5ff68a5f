/**
 * How a conversation's last use is written in the user's locale ("Dec 1,
 * 10:05"; with the year for the History list). Make one per list and
 * format each date with it: creating a formatter costs far more than a
 * format (Date.toLocaleString creates one on every call).
 */
export function lastUsedFormat(locale?: string, withYear = false): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, { ...(withYear ? { year: "numeric" } : {}), month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** When a conversation was last used, written by format; "" when unknown or not a date. */
export function lastUsedText(updatedAt: string | null | undefined, format: Intl.DateTimeFormat): string {
  const when = updatedAt ? new Date(updatedAt) : undefined;
  return !when || Number.isNaN(when.getTime()) ? "" : format.format(when);
}
