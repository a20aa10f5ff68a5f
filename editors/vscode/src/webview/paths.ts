/** root with one trailing slash. */
function withSlash(root: string): string {
  return root.endsWith("/") ? root : `${root}/`;
}

/** path relative to the workspace folder root when it is inside it ("." for root itself); else path as it is. */
export function relativePath(path: string, root: string | undefined): string {
  if (!root) return path;
  if (path === root) return ".";
  const prefix = withSlash(root);
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** text with every absolute path inside the workspace folder root made relative. */
export function relativeText(text: string, root: string | undefined): string {
  if (!root || root === "/") return text;
  return text.split(withSlash(root)).join("");
}
