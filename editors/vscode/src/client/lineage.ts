/**
 * Which session announced which child (subagent_update), so that a
 * child's traffic is handled in order with its parent's: the
 * announcement first, then the child's updates and requests, whatever
 * the nesting. Learnt as the notifications arrive, before any is handled.
 */
export class Lineage {
  private readonly parents = new Map<string, string>();

  /** Notes that parent announced child. */
  announce(parent: string, child: string): void {
    if (child !== parent && !this.parents.has(child)) this.parents.set(child, parent);
  }

  /** The outermost session sessionId descends from (itself when it is no known child). */
  root(sessionId: string): string {
    let id = sessionId;
    const seen = new Set<string>();
    for (let p = this.parents.get(id); p !== undefined && !seen.has(p); p = this.parents.get(id)) {
      seen.add(id);
      id = p;
    }
    return id;
  }

  /** Forgets every child (the agent restarted). */
  clear(): void {
    this.parents.clear();
  }
}
