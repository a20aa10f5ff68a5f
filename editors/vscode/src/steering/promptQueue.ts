import type { PromptImage } from "../chat/messages";
import type { EditorContext } from "../session/editorContext";

/** A prompt waiting for the running turn to end. */
export interface QueuedPrompt {
  readonly id: string;
  readonly text: string;
  readonly contexts: readonly EditorContext[];
  readonly images: readonly PromptImage[];
}

/**
 * The prompts the user queued while a turn ran, oldest first; changed is
 * told the whole list after every change (the chat shows it).
 */
export class PromptQueue {
  private items: QueuedPrompt[] = [];
  private next = 0;
  private readonly changed: (items: readonly QueuedPrompt[]) => void;

  constructor(changed: (items: readonly QueuedPrompt[]) => void) {
    this.changed = changed;
  }

  /** The number of prompts waiting. */
  get size(): number {
    return this.items.length;
  }

  /** Queues a prompt last. */
  add(text: string, contexts: readonly EditorContext[], images: readonly PromptImage[] = []): QueuedPrompt {
    const p = { id: `q${++this.next}`, text, contexts, images };
    this.items.push(p);
    this.changed(this.items);
    return p;
  }

  /** Takes the oldest prompt out, to send. */
  take(): QueuedPrompt | undefined {
    const p = this.items.shift();
    if (p) this.changed(this.items);
    return p;
  }

  /** Takes the prompt id out unsent; reports whether it was there. */
  remove(id: string): boolean {
    const before = this.items.length;
    this.items = this.items.filter((p) => p.id !== id);
    if (this.items.length === before) return false;
    this.changed(this.items);
    return true;
  }

  /** Empties the queue and returns what was in it. */
  clear(): QueuedPrompt[] {
    const dropped = this.items;
    this.items = [];
    if (dropped.length > 0) this.changed(this.items);
    return dropped;
  }
}
