import * as path from "node:path";

/** Where a link in an answer goes: a web or mail address, opened outside; or a file of the workspace, opened in the editor. */
export type LinkTarget =
  | { readonly kind: "external"; readonly uri: string }
  | { readonly kind: "file"; readonly path: string; readonly line: number | undefined };

/**
 * The target of href from an answer's link: http, https and mailto
 * addresses as they are; a path (relative to cwd, or absolute), with an
 * optional `:line` or `#Lline`, when it is inside cwd. Anything else
 * (another scheme, a path outside the workspace) is undefined: not
 * opened.
 */
export function linkTarget(href: string, cwd: string): LinkTarget | undefined {
  if (/^(https?|mailto):/i.test(href)) return { kind: "external", uri: href };
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) && !/^[a-z]:[\\/]/i.test(href)) return undefined;
  const m = /^(.*?)(?:#L(\d+)|:(\d+))?$/.exec(decodeURIComponent(href));
  const file = m?.[1] ?? "";
  if (file === "") return undefined;
  const abs = path.resolve(cwd, file);
  const rel = path.relative(cwd, abs);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return undefined;
  const n = m?.[2] ?? m?.[3];
  return { kind: "file", path: abs, line: n ? Number(n) - 1 : undefined };
}
