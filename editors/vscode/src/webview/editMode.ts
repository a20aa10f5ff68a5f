import type { RestorePoint } from "./conversation";

/**
 * Edit and resend of the last prompt: its text goes back into the input,
 * a line above says so, and the next send carries the restore point (the
 * extension undoes the last turn first, then sends the edited text). ×
 * or Escape in the input leaves edit mode (the input keeps its text).
 */
export class EditMode {
  private readonly chip: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private point: RestorePoint | undefined;

  constructor(chip: HTMLElement, input: HTMLTextAreaElement) {
    this.chip = chip;
    this.input = input;
    chip.querySelector(".editing-cancel")?.addEventListener("click", () => this.cancel());
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && this.point) this.cancel();
    });
    this.render();
  }

  /** Puts text in the input to be edited and sent again in place of the message at point. */
  start(text: string, point: RestorePoint): void {
    this.point = point;
    this.input.value = text;
    this.input.focus();
    this.render();
  }

  /** The restore point the send carries (undefined when not editing); edit mode ends. */
  take(): RestorePoint | undefined {
    const p = this.point;
    this.point = undefined;
    this.render();
    return p;
  }

  /** Leaves edit mode. */
  cancel(): void {
    this.point = undefined;
    this.render();
  }

  private render(): void {
    this.chip.hidden = this.point === undefined;
  }
}
